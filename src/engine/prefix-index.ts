/**
 * Words by their beginnings: statement fields cut names off at a fixed width, so the last word is
 * often the start of a longer one (`CARREFO`, `PHARMAC`, `TRADIN`). A sorted array and a binary
 * search: small, and built once per snapshot.
 */
export class PrefixIndex<T> {
  private readonly sorted: { key: string; value: T }[] = [];

  constructor(entries: Iterable<{ readonly key: string; readonly value: T }>) {
    for (const entry of entries) this.sorted.push({ key: entry.key, value: entry.value });
    this.sorted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Values whose key starts with `prefix` and is longer than it. */
  longerThan(prefix: string): T[] {
    const found: T[] = [];
    for (let i = this.firstFrom(prefix); i < this.sorted.length; i++) {
      const entry = this.sorted[i] as { key: string; value: T };
      if (!entry.key.startsWith(prefix)) break;
      if (entry.key !== prefix) found.push(entry.value);
    }
    return found;
  }

  /** Whether some key starts with `prefix` and is longer than it (without collecting them). */
  beginsALonger(prefix: string): boolean {
    for (let i = this.firstFrom(prefix); i < this.sorted.length; i++) {
      const key = (this.sorted[i] as { key: string }).key;
      if (!key.startsWith(prefix)) return false;
      if (key !== prefix) return true;
    }
    return false;
  }

  /** Values whose key is `key`. */
  exactly(key: string): T[] {
    const found: T[] = [];
    for (let i = this.firstFrom(key); i < this.sorted.length; i++) {
      const entry = this.sorted[i] as { key: string; value: T };
      if (entry.key !== key) break;
      found.push(entry.value);
    }
    return found;
  }

  /** Where the first key not before `prefix` stands. */
  private firstFrom(prefix: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.sorted[mid] as { key: string }).key < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
