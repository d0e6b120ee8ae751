/**
 * Aho–Corasick automaton over tokens rather than characters: patterns are token sequences, so every
 * match falls on token boundaries by construction, and one left-to-right pass over a transaction's
 * tokens finds every alias of every brand at once.
 */

export interface TokenMatch<T> {
  /** Index of the first matched token. */
  readonly start: number;
  /** Index one past the last matched token. */
  readonly end: number;
  readonly value: T;
}

interface Node {
  readonly next: Map<number, number>;
  fail: number;
  /** Values of patterns ending exactly here. */
  readonly outputs: number[];
  /** Nearest node on the failure chain that has outputs (dictionary suffix link), or -1. */
  dictLink: number;
  depth: number;
}

export class TokenAutomaton<T> {
  private readonly nodes: Node[] = [];
  private readonly vocabulary = new Map<string, number>();
  private readonly values: T[] = [];
  /** The root's transitions as a dense array (most steps start from the root): token id → node, 0 = none. */
  private rootNext: Int32Array = new Int32Array(0);

  constructor(patterns: Iterable<{ readonly tokens: readonly string[]; readonly value: T }>) {
    this.nodes.push(newNode(0));
    for (const { tokens, value } of patterns) {
      if (tokens.length === 0) continue;
      let state = 0;
      for (const token of tokens) {
        let id = this.vocabulary.get(token);
        if (id === undefined) {
          id = this.vocabulary.size;
          this.vocabulary.set(token, id);
        }
        const node = this.nodes[state] as Node;
        let child = node.next.get(id);
        if (child === undefined) {
          child = this.nodes.length;
          this.nodes.push(newNode(node.depth + 1));
          node.next.set(id, child);
        }
        state = child;
      }
      (this.nodes[state] as Node).outputs.push(this.values.length);
      this.values.push(value);
    }
    this.linkFailures();
    this.rootNext = new Int32Array(this.vocabulary.size);
    for (const [id, child] of (this.nodes[0] as Node).next) this.rootNext[id] = child;
  }

  /** True when the token occurs in any pattern (used to decide whether a glued token can be split). */
  hasToken(token: string): boolean {
    return this.vocabulary.has(token);
  }

  get patternCount(): number {
    return this.values.length;
  }

  search(tokens: readonly string[]): TokenMatch<T>[] {
    const matches: TokenMatch<T>[] = [];
    let state = 0;
    for (let i = 0; i < tokens.length; i++) {
      const id = this.vocabulary.get(tokens[i] as string);
      if (id === undefined) {
        state = 0;
        continue;
      }
      state = state === 0 ? (this.rootNext[id] as number) : this.step(state, id);
      for (let s = state; s > 0; s = (this.nodes[s] as Node).dictLink) {
        const node = this.nodes[s] as Node;
        const outputs = node.outputs;
        for (let o = 0; o < outputs.length; o++) {
          matches.push({
            start: i + 1 - node.depth,
            end: i + 1,
            value: this.values[outputs[o] as number] as T,
          });
        }
        if (node.dictLink === s) break;
      }
    }
    return matches;
  }

  private step(state: number, id: number): number {
    for (let s = state; s !== 0; s = (this.nodes[s] as Node).fail) {
      const next = (this.nodes[s] as Node).next.get(id);
      if (next !== undefined) return next;
    }
    return this.rootNext[id] as number;
  }

  private linkFailures(): void {
    const queue: number[] = [];
    const root = this.nodes[0] as Node;
    for (const child of root.next.values()) {
      const node = this.nodes[child] as Node;
      node.fail = 0;
      node.dictLink = -1;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head] as number;
      const node = this.nodes[s] as Node;
      for (const [id, child] of node.next) {
        const childNode = this.nodes[child] as Node;
        let f = node.fail;
        while (f !== 0 && !(this.nodes[f] as Node).next.has(id)) f = (this.nodes[f] as Node).fail;
        const candidate = (this.nodes[f] as Node).next.get(id);
        childNode.fail = candidate !== undefined && candidate !== child ? candidate : 0;
        const failNode = this.nodes[childNode.fail] as Node;
        childNode.dictLink = failNode.outputs.length > 0 ? childNode.fail : failNode.dictLink;
        queue.push(child);
      }
    }
    // Normalise "no link" to 0 so the search loop stops at the root.
    for (const node of this.nodes) if (node.dictLink < 0) node.dictLink = 0;
  }
}

function newNode(depth: number): Node {
  return { next: new Map(), fail: 0, outputs: [], dictLink: 0, depth };
}
