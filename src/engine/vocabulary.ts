/**
 * Every word the engine knows (alias, rule, keyword, intermediary, place and noise tokens), each with
 * a dense id and what kind of word it is. A transaction's tokens are looked up here once; the
 * automata and the rules then work on ids and flags instead of asking several sets about each
 * token.
 *
 * The words sit in an open-addressing table keyed by a hash the tokenizer computes while it reads
 * the characters (`wordHash`), so a lookup costs a probe and a character comparison; a JavaScript
 * Map would first have to hash every new token string again, and that was the engine's largest cost.
 */

/** What a known word is; a word can be several of these at once. */
export const WORD = {
  /** Occurs in a brand alias: a glued token may be split into such words. */
  alias: 1,
  /** Known to the engine in any role: a token that is one is never split. */
  whole: 2,
  /** A filler word of statement text (`pos`, `purchase`, `card`). */
  noise: 4,
  /** A country name or code token. */
  country: 8,
  /** Part of a city name. */
  city: 16,
  /** A region or state code (`ca`, `ny`). */
  region: 32,
  /** A word of a rule phrase, category keyword, line word or processor prefix (`transfer`, `hotel`). */
  term: 64,
  /**
   * Occurs in a curated brand's alias (not only in a brand imported from name-suggestion-index):
   * two glued names are split only into such words.
   */
  reviewed: 128,
} as const;

export const UNKNOWN_WORD = -1;

/** FNV-1a, one character code at a time: `h = wordHashStep(h, code)` from `WORD_HASH_SEED`. */
export const WORD_HASH_SEED = 0x811c9dc5 | 0;

export function wordHashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619);
}

export function wordHash(text: string, start = 0, end = text.length): number {
  let hash = WORD_HASH_SEED;
  for (let i = start; i < end; i++) hash = wordHashStep(hash, text.charCodeAt(i));
  return hash;
}

export class Vocabulary {
  private readonly words: string[] = [];
  private count = 0;
  /** Flags by word id. Typed arrays throughout: compact, so a lookup touches little memory. */
  private kinds = new Uint8Array(1024);
  /** The characters of every word, one after another; word `id` starts at `offsets[id]`. */
  private chars = new Uint16Array(8192);
  private offsets = new Int32Array(1025);
  /**
   * Open addressing, four numbers per slot: the word's hash, its id + 1 (0 = empty), where its
   * characters start and its length; at most half full. The word's place is in the slot so that a
   * lookup reads one slot and the characters, not also the offsets.
   */
  private slots = new Int32Array(4096);
  private sealed = false;
  private longest = 0;

  /** The word's id, adding it (and the given flags) while the vocabulary is being built. */
  add(word: string, flags = 0): number {
    let id = this.id(word);
    if (id === UNKNOWN_WORD) {
      if (this.sealed) throw new Error('vocabulary is sealed: words are added only while building');
      id = this.append(word);
    }
    this.kinds[id] = (this.kinds[id] as number) | flags;
    return id;
  }

  /** Ends building: the snapshot holding this vocabulary is immutable. */
  seal(): this {
    this.sealed = true;
    return this;
  }

  /** The word's id, or UNKNOWN_WORD. */
  id(word: string): number {
    return this.idAt(word, 0, word.length, wordHash(word));
  }

  /** The id of `text.slice(start, end)`, whose `wordHash` the caller computed, without slicing it. */
  idAt(text: string, start: number, end: number, hash: number): number {
    const { slots, chars } = this;
    const mask = (slots.length >> 2) - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[4 * slot + 1] as number;
      if (entry === 0) return UNKNOWN_WORD;
      if (slots[4 * slot] !== hash || slots[4 * slot + 3] !== length) continue;
      const at = slots[4 * slot + 2] as number;
      let k = 0;
      while (k < length && chars[at + k] === text.charCodeAt(start + k)) k++;
      if (k === length) return entry - 1;
    }
  }

  /** The flags of a word id (0 for UNKNOWN_WORD). */
  flags(id: number): number {
    return id < 0 ? 0 : (this.kinds[id] as number);
  }

  /** True when the token is a known word carrying any of the flags. */
  is(token: string, flags: number): boolean {
    return (this.flags(this.id(token)) & flags) !== 0;
  }

  get size(): number {
    return this.count;
  }

  /** The words carrying any of `flags`, as a filter (built once the vocabulary is complete). */
  filterOf(flags: number): WordFilter {
    const hashes: number[] = [];
    for (let id = 0; id < this.count; id++) {
      if (((this.kinds[id] as number) & flags) !== 0) hashes.push(wordHash(this.words[id] as string));
    }
    return new WordFilter(hashes);
  }

  /** Length of the longest known word: no text longer than this can be one. */
  get maxWordLength(): number {
    return this.longest;
  }

  private append(word: string): number {
    const id = this.count++;
    this.words.push(word);
    if (word.length > this.longest) this.longest = word.length;
    if (this.count >= this.kinds.length) {
      this.kinds = grown(this.kinds, this.kinds.length * 2);
      this.offsets = grown(this.offsets, this.kinds.length + 1);
    }
    const at = this.offsets[id] as number;
    if (at + word.length > this.chars.length) {
      this.chars = grown(this.chars, Math.max(this.chars.length * 2, at + word.length));
    }
    for (let k = 0; k < word.length; k++) this.chars[at + k] = word.charCodeAt(k);
    this.offsets[id + 1] = at + word.length;
    if (this.count * 8 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const hash = wordHash(this.words[id] as string);
    const mask = (this.slots.length >> 2) - 1;
    let slot = hash & mask;
    while (this.slots[4 * slot + 1] !== 0) slot = (slot + 1) & mask;
    this.slots[4 * slot] = hash;
    this.slots[4 * slot + 1] = id + 1;
    this.slots[4 * slot + 2] = this.offsets[id] as number;
    this.slots[4 * slot + 3] = (this.words[id] as string).length;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}

/**
 * One bit per word hash: whether a string may be one of a set of words, answered from its hash
 * alone. Searching a glued token for a known first part asks about every beginning of it; a bit
 * test in a small array (sixteen bits per word: about one false yes in sixteen) spares most of them
 * the table probe, whose memory reads were the search's cost.
 */
export class WordFilter {
  private readonly bits: Int32Array;
  private readonly mask: number;

  constructor(hashes: readonly number[]) {
    let size = 1024;
    while (size < hashes.length * 16) size *= 2;
    this.bits = new Int32Array(size >>> 5);
    this.mask = size - 1;
    for (const h of hashes) {
      const b = h & this.mask;
      this.bits[b >>> 5] = (this.bits[b >>> 5] as number) | (1 << (b & 31));
    }
  }

  /** False: no word of the set has this hash. True: one may (look it up). */
  mayHold(hash: number): boolean {
    const b = hash & this.mask;
    return ((this.bits[b >>> 5] as number) & (1 << (b & 31))) !== 0;
  }
}

function grown<A extends Uint8Array | Uint16Array | Int32Array>(array: A, size: number): A {
  const next = new (array.constructor as new (n: number) => A)(size);
  next.set(array);
  return next;
}
