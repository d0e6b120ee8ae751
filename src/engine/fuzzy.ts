import { PrefixIndex } from './prefix-index.js';

/** Words shorter than this are never read as a misspelt or cut-off brand name. */
export const MIN_FUZZY_WORD = 6;

/**
 * Typo-tolerant lookup of single tokens (one edit: insertion, deletion, substitution or adjacent
 * transposition), by the symmetric-delete method: every key is indexed under itself and each of its
 * one-character deletions, so a lookup costs a handful of map probes instead of a scan.
 */
export class FuzzyIndex<T> {
  private readonly byVariant = new Map<string, { key: string; value: T }[]>();
  private readonly prefixes: PrefixIndex<T>;

  constructor(entries: Iterable<{ readonly key: string; readonly value: T }>) {
    const all: { key: string; value: T }[] = [];
    for (const entry of entries) {
      all.push({ key: entry.key, value: entry.value });
      for (const variant of variantsOf(entry.key)) {
        let bucket = this.byVariant.get(variant);
        if (!bucket) {
          bucket = [];
          this.byVariant.set(variant, bucket);
        }
        bucket.push({ key: entry.key, value: entry.value });
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
    const seen = new Map<string, Set<T>>();
    for (const variant of variantsOf(token)) {
      for (const candidate of this.byVariant.get(variant) ?? []) {
        if (candidate.key === token) continue;
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

function variantsOf(key: string): string[] {
  const out = [key];
  for (let i = 0; i < key.length; i++) out.push(key.slice(0, i) + key.slice(i + 1));
  return out;
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
