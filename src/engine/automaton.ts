/**
 * Aho–Corasick automaton over tokens rather than characters: patterns are token sequences, so every
 * match falls on token boundaries by construction, and one left-to-right pass over a transaction's
 * tokens finds every alias of every brand at once. Tokens are ids of a shared Vocabulary, so a text is
 * looked up once for all automata.
 */
import { Vocabulary } from './vocabulary.js';

export interface TokenMatch<T> {
  /** Index of the first matched token. */
  readonly start: number;
  /** Index one past the last matched token. */
  readonly end: number;
  readonly value: T;
}

/** A trie node while the automaton is being built. */
interface BuildNode {
  readonly next: Map<number, number>;
  /** Value indexes of patterns ending exactly here. */
  readonly outputs: number[];
  readonly depth: number;
}

export class TokenAutomaton<T> {
  private readonly values: T[] = [];
  // The finished automaton as flat arrays indexed by node (cheaper to walk than objects and maps):
  /** The root's transitions as a dense array (most steps start from the root): word id → node, 0 = none. */
  private readonly rootNext: Int32Array;
  /** Transitions of node n: `edgeWord`/`edgeChild` in [edgeStart[n], edgeStart[n + 1]). */
  private readonly edgeStart: Int32Array;
  private readonly edgeWord: Int32Array;
  private readonly edgeChild: Int32Array;
  private readonly fail: Int32Array;
  /**
   * What a search reads of node n, side by side (one memory read per node visited, not four):
   * at 4n the nearest node on its failure chain that has outputs (dictionary suffix link, 0 = none),
   * at 4n + 1 and 4n + 2 the range of `outValue` holding the value indexes ending at n, at 4n + 3
   * its depth.
   */
  private readonly found: Int32Array;
  private readonly outValue: Int32Array;

  /**
   * @param vocabulary where pattern tokens get their ids; pass the snapshot's shared one so that
   *   texts tokenized against it can be searched with `searchIds`.
   */
  constructor(
    patterns: Iterable<{ readonly tokens: readonly string[]; readonly value: T }>,
    private readonly vocabulary: Vocabulary = new Vocabulary(),
  ) {
    const nodes: BuildNode[] = [{ next: new Map(), outputs: [], depth: 0 }];
    for (const { tokens, value } of patterns) {
      if (tokens.length === 0) continue;
      let state = 0;
      for (const token of tokens) {
        const id = vocabulary.add(token);
        const node = nodes[state] as BuildNode;
        let child = node.next.get(id);
        if (child === undefined) {
          child = nodes.length;
          nodes.push({ next: new Map(), outputs: [], depth: node.depth + 1 });
          node.next.set(id, child);
        }
        state = child;
      }
      (nodes[state] as BuildNode).outputs.push(this.values.length);
      this.values.push(value);
    }

    const count = nodes.length;
    this.edgeStart = new Int32Array(count + 1);
    const outStart = new Int32Array(count + 1);
    for (let n = 0; n < count; n++) {
      this.edgeStart[n + 1] = (this.edgeStart[n] as number) + (nodes[n] as BuildNode).next.size;
      outStart[n + 1] = (outStart[n] as number) + (nodes[n] as BuildNode).outputs.length;
    }
    this.edgeWord = new Int32Array(this.edgeStart[count] as number);
    this.edgeChild = new Int32Array(this.edgeStart[count] as number);
    this.outValue = new Int32Array(outStart[count] as number);
    for (let n = 0; n < count; n++) {
      const node = nodes[n] as BuildNode;
      let e = this.edgeStart[n] as number;
      for (const [word, child] of node.next) {
        this.edgeWord[e] = word;
        this.edgeChild[e++] = child;
      }
      this.outValue.set(node.outputs, outStart[n] as number);
    }
    this.rootNext = new Int32Array(vocabulary.size);
    for (const [id, child] of (nodes[0] as BuildNode).next) this.rootNext[id] = child;
    this.fail = new Int32Array(count);
    const dictLink = this.linkFailures(nodes);
    this.found = new Int32Array(4 * count);
    for (let n = 0; n < count; n++) {
      this.found[4 * n] = dictLink[n] as number;
      this.found[4 * n + 1] = outStart[n] as number;
      this.found[4 * n + 2] = outStart[n + 1] as number;
      this.found[4 * n + 3] = (nodes[n] as BuildNode).depth;
    }
  }

  get patternCount(): number {
    return this.values.length;
  }

  /** Matches in a text given as words (looked up in the vocabulary first). */
  search(tokens: readonly string[]): TokenMatch<T>[] {
    return this.searchIds(tokens.map((t) => this.vocabulary.id(t)));
  }

  /**
   * Matches in a text given as word ids of this automaton's vocabulary (negative = unknown word).
   * `from`/`to` bound the part searched; reported positions are indexes into `ids`.
   */
  searchIds(ids: readonly number[], from = 0, to = ids.length): TokenMatch<T>[] {
    const matches: TokenMatch<T>[] = [];
    const { rootNext, found, outValue } = this;
    let state = 0;
    for (let i = from; i < to; i++) {
      const id = ids[i] as number;
      // Unknown words, and words added to the shared vocabulary after this automaton, match nothing.
      if (id < 0 || id >= rootNext.length) {
        state = 0;
        continue;
      }
      state = state === 0 ? (rootNext[id] as number) : this.step(state, id);
      for (let s = state; s > 0; s = found[4 * s] as number) {
        const end = found[4 * s + 2] as number;
        for (let o = found[4 * s + 1] as number; o < end; o++) {
          matches.push({
            start: i + 1 - (found[4 * s + 3] as number),
            end: i + 1,
            value: this.values[outValue[o] as number] as T,
          });
        }
      }
    }
    return matches;
  }

  private step(state: number, id: number): number {
    const { edgeStart, edgeWord, edgeChild, fail } = this;
    for (let s = state; s !== 0; s = fail[s] as number) {
      const end = edgeStart[s + 1] as number;
      for (let e = edgeStart[s] as number; e < end; e++)
        if (edgeWord[e] === id) return edgeChild[e] as number;
    }
    return this.rootNext[id] as number;
  }

  /** Sets the failure links; returns the dictionary suffix links. */
  private linkFailures(nodes: readonly BuildNode[]): Int32Array {
    const dictLink = new Int32Array(nodes.length);
    // Breadth first, so that a node's failure target is final before its children are linked.
    const queue: number[] = [...(nodes[0] as BuildNode).next.values()];
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head] as number;
      for (const [id, child] of (nodes[s] as BuildNode).next) {
        let f = this.fail[s] as number;
        while (f !== 0 && !(nodes[f] as BuildNode).next.has(id)) f = this.fail[f] as number;
        const candidate = (nodes[f] as BuildNode).next.get(id);
        const target = candidate !== undefined && candidate !== child ? candidate : 0;
        this.fail[child] = target;
        dictLink[child] =
          (nodes[target] as BuildNode).outputs.length > 0 ? target : (dictLink[target] as number);
        queue.push(child);
      }
    }
    return dictLink;
  }
}
