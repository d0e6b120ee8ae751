/**
 * Recurring detection from a customer's history with one merchant: a regular rhythm (weekly,
 * fortnightly, monthly, quarterly, yearly, within a tolerance) and similar amounts.
 */

export interface Occurrence {
  readonly time: number; // epoch milliseconds
  readonly amount: number;
}

export interface Rhythm {
  readonly name: 'weekly' | 'fortnightly' | 'monthly' | 'quarterly' | 'yearly';
  readonly days: number;
  readonly tolerance: number;
}

export const RHYTHMS: readonly Rhythm[] = [
  { name: 'weekly', days: 7, tolerance: 1 },
  { name: 'fortnightly', days: 14, tolerance: 2 },
  { name: 'monthly', days: 30.44, tolerance: 4 },
  { name: 'quarterly', days: 91.3, tolerance: 10 },
  { name: 'yearly', days: 365.25, tolerance: 15 },
];

/** Two intervals in a row make a rhythm; fewer is coincidence. */
const MIN_INTERVALS = 2;
const MAX_INTERVALS = 4;
/** Amounts may drift (FX, tax, price changes) but stay within this share of their median. */
const AMOUNT_TOLERANCE = 0.25;
const DAY_MS = 86_400_000;

/**
 * Finds the rhythm that the latest intervals ending at `current` follow, if any. `earlier` may be in
 * any order and may include entries after `current`; those are ignored.
 */
export function detectRhythm(current: Occurrence, earlier: readonly Occurrence[]): Rhythm | null {
  const before = earlier
    .filter((o) => o.time < current.time - DAY_MS / 2)
    .sort((a, b) => a.time - b.time)
    .slice(-MAX_INTERVALS);
  if (before.length < MIN_INTERVALS) return null;
  const series = [...before, current];
  const intervals: number[] = [];
  for (let i = 1; i < series.length; i++) {
    intervals.push(((series[i] as Occurrence).time - (series[i - 1] as Occurrence).time) / DAY_MS);
  }
  const amounts = series.map((o) => Math.abs(o.amount));
  const median = medianOf(amounts);
  const amountsAgree = amounts.every((a) => Math.abs(a - median) <= AMOUNT_TOLERANCE * median + 0.01);
  if (!amountsAgree) return null;
  // Use the longest run of recent intervals that fits one rhythm, needing at least MIN_INTERVALS.
  for (const rhythm of RHYTHMS) {
    let run = 0;
    for (let i = intervals.length - 1; i >= 0; i--) {
      if (Math.abs((intervals[i] as number) - rhythm.days) <= rhythm.tolerance) run++;
      else break;
    }
    if (run >= MIN_INTERVALS) return rhythm;
  }
  return null;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
