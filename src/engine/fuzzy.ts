import { PrefixIndex } from './prefix-index.js';

/** Words shorter than this are never read as a misspelt or cut-off brand name. */
export const MIN_FUZZY_WORD = 6;

/** A key indexed under one of its variants: itself (`skip` -1) or without the character at `skip`. */
interface Variant<T> {
  readonly key: string;
  readonly value: T;
  readonly skip: number;
}

/**
 * Typo-tolerant lookup of single tokens (one edit: insertion, deletion, substitution or adjacent
 * transposition), by the symmetric-delete method: every key is indexed under itself and each of its
 * one-character deletions, so a lookup costs a handful of map probes instead of a scan.
 *
 * Variants are never built as strings: a map key is the variant's hash, computed by skipping a
 * character, and an entry found under it is compared character by character with the token's
 * variant. Most tokens that reach this are unknown words with no neighbour, and making a dozen
 * strings per token for nothing was most of the lookup's cost.
 */
export class FuzzyIndex<T> {
  private readonly byVariant = new Map<number, Variant<T>[]>();
  private readonly prefixes: PrefixIndex<T>;

  constructor(entries: Iterable<{ readonly key: string; readonly value: T }>) {
    const all: { key: string; value: T }[] = [];
    for (const entry of entries) {
      all.push({ key: entry.key, value: entry.value });
      for (let skip = -1; skip < entry.key.length; skip++) {
        const h = variantHash(entry.key, skip);
        let bucket = this.byVariant.get(h);
        if (!bucket) {
          bucket = [];
          this.byVariant.set(h, bucket);
        }
        bucket.push({ key: entry.key, value: entry.value, skip });
      }
    }
    this.prefixes = new PrefixIndex(all);
  }

  /**
   * Values whose key starts with `prefix` and is longer than it: statement fields cut names off at a
   * fixed width, so the last word is often a truncation (`CARREFO`, `STARBUC`).
   */
  prefixLookup(prefix: string): T[] {
    return this.prefixes.longerThan(prefix);
  }

  /** Values whose key is exactly one edit away from `token` (never an exact match). */
  lookup(token: string): T[] {
    const found: T[] = [];
    // Each key sits in several variant buckets; report each (key, value) pair once.
    let seen: Map<string, Set<T>> | null = null;
    for (let skip = -1; skip < token.length; skip++) {
      const bucket = this.byVariant.get(variantHash(token, skip));
      if (!bucket) continue;
      for (const candidate of bucket) {
        if (candidate.key === token || !sameVariant(candidate.key, candidate.skip, token, skip)) continue;
        seen ??= new Map();
        let values = seen.get(candidate.key);
        if (values?.has(candidate.value)) continue;
        if (!values) seen.set(candidate.key, (values = new Set()));
        values.add(candidate.value);
        if (editDistanceAtMostOne(candidate.key, token)) found.push(candidate.value);
      }
    }
    return found;
  }
}

/** FNV-1a of `text` without the character at `skip` (-1: all of it), kept a small integer. */
function variantHash(text: string, skip: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) if (i !== skip) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h & 0x3fffffff;
}

/** `a` without the character at `skipA` equals `b` without the one at `skipB` (-1: none skipped). */
function sameVariant(a: string, skipA: number, b: string, skipB: number): boolean {
  if (a.length - (skipA >= 0 ? 1 : 0) !== b.length - (skipB >= 0 ? 1 : 0)) return false;
  let i = 0;
  let j = 0;
  for (;;) {
    if (i === skipA) i++;
    if (j === skipB) j++;
    if (i >= a.length || j >= b.length) return i >= a.length && j >= b.length;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
    i++;
    j++;
  }
}

/** Damerau (optimal string alignment) distance ≤ 1, in linear time. */
export function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // transposition
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
