/**
 * The merchant-type model's features: hashed character n-grams of each word (they survive
 * truncation, misspelling and glued words: `PHARMAC`, `PHARMCY`, `ALNAHDIPHARMACY` share most of
 * `PHARMACY`'s), whole words and word pairs. The training script and the engine call this same
 * code, so a model always sees at run time the features it was trained on.
 */

/** Character n-gram lengths: 3 catches a cut word's stem, 5 a word's identity. */
export const NGRAM_MIN = 3;
export const NGRAM_MAX = 5;
/** Longer tokens are glued runs of words; their first characters carry the trade word often enough. */
const MAX_TOKEN_CHARS = 28;
/** A merchant name has a handful of words; the rest is address and noise. */
export const MAX_MODEL_TOKENS = 8;
/** An upper bound on features per text, for preallocated buffers. */
export const MAX_FEATURES =
  MAX_MODEL_TOKENS * (2 + (NGRAM_MAX - NGRAM_MIN + 1) * (MAX_TOKEN_CHARS + 2)) + MAX_MODEL_TOKENS;

const WORD_SEED = 0x3b9aca07 | 0;
const PAIR_SEED = 0x2545f491 | 0;
const GRAM_SEED = 0x27d4eb2f | 0;
const BEGIN = 0x02;
const END = 0x03;
const SPACE = 0x20;

function step(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619);
}

/** A final mix so that buckets taken from the low bits spread evenly. */
function finish(hash: number): number {
  let h = hash ^ (hash >>> 15);
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 0;
}

function codeAt(token: string, length: number, i: number): number {
  if (i === 0) return BEGIN;
  if (i === length + 1) return END;
  return token.charCodeAt(i - 1);
}

/**
 * Writes the feature hashes of `tokens` (folded, lower case, at most MAX_MODEL_TOKENS) into `out`,
 * returning how many. With `names`, also the readable form of each feature at its index (only of
 * the indices in `only`, when given: an explanation needs three, not a hundred); the hot path passes
 * none.
 */
export function extractFeatures(
  tokens: readonly string[],
  out: Uint32Array,
  names?: string[],
  only?: ReadonlySet<number>,
): number {
  const named = (i: number): boolean => names !== undefined && (only === undefined || only.has(i));
  let n = 0;
  const count = Math.min(tokens.length, MAX_MODEL_TOKENS);
  for (let t = 0; t < count; t++) {
    const full = tokens[t] as string;
    const token = full.length > MAX_TOKEN_CHARS ? full.slice(0, MAX_TOKEN_CHARS) : full;
    const length = token.length;
    let word = WORD_SEED;
    for (let i = 0; i < length; i++) word = step(word, token.charCodeAt(i));
    if (named(n)) (names as string[])[n] = `word:${token}`;
    out[n++] = finish(word);
    if (t > 0) {
      let pair = PAIR_SEED;
      const prev = tokens[t - 1] as string;
      for (let i = 0; i < prev.length && i < MAX_TOKEN_CHARS; i++) pair = step(pair, prev.charCodeAt(i));
      pair = step(pair, SPACE);
      for (let i = 0; i < length; i++) pair = step(pair, token.charCodeAt(i));
      if (named(n)) (names as string[])[n] = `pair:${prev.slice(0, MAX_TOKEN_CHARS)} ${token}`;
      out[n++] = finish(pair);
    }
    // N-grams of the word framed by begin and end marks: `^pha` (a prefix) differs from `pha`.
    const framed = length + 2;
    for (let size = NGRAM_MIN; size <= NGRAM_MAX; size++) {
      if (size > framed) break;
      for (let start = 0; start + size <= framed; start++) {
        let gram = step(GRAM_SEED, size);
        for (let i = start; i < start + size; i++) gram = step(gram, codeAt(token, length, i));
        if (named(n)) (names as string[])[n] = `gram:${framedText(token, start, size)}`;
        out[n++] = finish(gram);
      }
    }
  }
  return n;
}

function framedText(token: string, start: number, size: number): string {
  return `^${token}$`.slice(start, start + size);
}
