import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { enrichBatch } from '../../../src/engine/enrich.js';
import { detectRhythm, type Occurrence } from '../../../src/engine/recurring.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import type { HistoryEntry } from '../../../src/engine/types.js';
import { enrichOne, txn } from './fixtures.js';

const DAY = 86_400_000;

function at(date: string, amount = 100): Occurrence {
  return { time: Date.parse(`${date}T12:00:00Z`), amount };
}

function days(offsets: readonly number[], amount = 100): Occurrence[] {
  const base = Date.UTC(2024, 0, 1, 12);
  return offsets.map((d) => ({ time: base + d * DAY, amount }));
}

/** Rhythm name for a series whose last element is the current occurrence. */
function rhythmOf(series: readonly Occurrence[]): string | null {
  const current = series[series.length - 1] as Occurrence;
  return detectRhythm(current, series.slice(0, -1))?.name ?? null;
}

describe('detectRhythm', () => {
  it('weekly', () => {
    expect(rhythmOf(days([0, 7, 14, 21]))).toBe('weekly');
    expect(rhythmOf(days([0, 7, 13, 21]))).toBe('weekly'); // ±1 day
  });

  it('fortnightly', () => {
    expect(rhythmOf(days([0, 14, 28, 42]))).toBe('fortnightly');
    expect(rhythmOf(days([0, 15, 28, 43]))).toBe('fortnightly');
  });

  it('monthly, with month-length jitter', () => {
    expect(rhythmOf([at('2024-01-31'), at('2024-02-29'), at('2024-03-31'), at('2024-04-30')])).toBe(
      'monthly',
    );
    expect(rhythmOf([at('2023-01-28'), at('2023-02-28'), at('2023-03-28'), at('2023-04-28')])).toBe(
      'monthly',
    );
    // A payment a few days late or early still counts.
    expect(rhythmOf([at('2024-01-01'), at('2024-02-03'), at('2024-03-01')])).toBe('monthly');
  });

  it('quarterly', () => {
    expect(rhythmOf([at('2023-01-15'), at('2023-04-15'), at('2023-07-15'), at('2023-10-15')])).toBe(
      'quarterly',
    );
  });

  it('yearly', () => {
    expect(rhythmOf([at('2021-03-01'), at('2022-03-01'), at('2023-03-01'), at('2024-03-01')])).toBe('yearly');
  });

  it('rejects irregular gaps', () => {
    expect(rhythmOf(days([0, 3, 17, 40]))).toBeNull();
    expect(rhythmOf(days([0, 20, 30, 75]))).toBeNull();
    expect(rhythmOf(days([0, 10, 20, 30]))).toBeNull(); // every 10 days is no rhythm we know
  });

  it('needs at least two intervals: two occurrences are a coincidence', () => {
    expect(rhythmOf(days([0, 30]))).toBeNull();
    expect(rhythmOf(days([0, 30, 60]))).toBe('monthly');
    expect(detectRhythm(at('2024-01-01'), [])).toBeNull();
  });

  it('rejects amounts that vary by more than 25% of their median', () => {
    const monthly = days([0, 30, 60, 90]);
    const amounts = (xs: readonly number[]) => monthly.map((o, i) => ({ ...o, amount: xs[i] as number }));
    expect(rhythmOf(amounts([100, 100, 100, 160]))).toBeNull();
    expect(rhythmOf(amounts([100, 40, 100, 100]))).toBeNull();
    expect(rhythmOf(amounts([100, 110, 120, 105]))).toBe('monthly');
    // Signs do not matter: amounts are compared by absolute value.
    expect(rhythmOf(amounts([-100, 100, -100, 100]))).toBe('monthly');
  });

  it('uses the latest run of intervals, ignoring an irregular start', () => {
    expect(rhythmOf(days([0, 5, 35, 65]))).toBe('monthly');
    // ...but not when the latest interval breaks the rhythm.
    expect(rhythmOf(days([0, 30, 60, 65]))).toBeNull();
  });

  it('accepts earlier occurrences in any order and ignores later ones and same-day repeats', () => {
    const current = days([60])[0] as Occurrence;
    const shuffled = days([30, 0]);
    expect(detectRhythm(current, shuffled)?.name).toBe('monthly');
    // Occurrences after the current one do not count.
    expect(detectRhythm(days([30])[0] as Occurrence, days([0, 60]))).toBeNull();
    // The current payment seen twice (a retry a few hours later) is not an interval.
    const sameDay = { time: current.time - DAY / 4, amount: 100 };
    expect(detectRhythm(current, [sameDay, ...days([30])])).toBeNull();
  });

  it('returns the rhythm’s period and tolerance', () => {
    const rhythm = detectRhythm(days([60])[0] as Occurrence, days([0, 30]));
    expect(rhythm).toMatchObject({ name: 'monthly', days: expect.closeTo(30.44, 1) });
    expect(rhythm?.tolerance).toBeGreaterThan(0);
  });
});

describe('recurring through enrichBatch', () => {
  let snapshot: Snapshot;
  let carrefourId: number;

  beforeAll(() => {
    snapshot = buildSnapshot(loadReferenceData());
    const carrefour = snapshot.brandsBySlug.get('carrefour');
    if (!carrefour) throw new Error('catalog has no carrefour brand');
    carrefourId = carrefour.id;
  });

  const monthlyDates = ['2024-01-12T09:00:00Z', '2024-02-12T09:00:00Z', '2024-03-12T09:00:00Z'];

  function brandHistory(customer: string, dates: readonly string[], amount = 250): HistoryEntry[] {
    return dates.map((occurred_at) => ({
      customer_id: customer,
      brand_id: carrefourId,
      merchant_key: `brand:${carrefourId}`,
      occurred_at,
      amount,
    }));
  }

  const nextPayment = {
    raw_description: 'CARREFOUR CITY CENTRE DEIRA',
    customer_id: 'customer-1',
    occurred_at: '2024-04-12T09:00:00Z',
    amount: 250,
  };

  it('a monthly history with the same brand makes the next payment recurring', () => {
    const e = enrichOne(snapshot, nextPayment, brandHistory('customer-1', monthlyDates));
    expect(e.brand?.id).toBe(carrefourId);
    expect(e.recurring).toBe(true);
    expect(e.reasons.recurring).toBe('history:monthly');
  });

  it('the same history of another customer does not', () => {
    const e = enrichOne(snapshot, nextPayment, brandHistory('customer-2', monthlyDates));
    expect(e.recurring).toBe(false);
    expect(e.reasons.recurring).toBe('no-history');
  });

  it("another tenant's customer with the same id does not share the history", () => {
    const otherBank = brandHistory('customer-1', monthlyDates).map((h) => ({ ...h, tenant: 'bank-b' }));
    const e = enrichOne(snapshot, nextPayment, otherBank);
    expect(e.recurring).toBe(false);
    expect(e.reasons.recurring).toBe('no-history');
    const sameBank = enrichOne(snapshot, { ...nextPayment, tenant: 'bank-b' }, otherBank);
    expect(sameBank.recurring).toBe(true);
    // History without a tenant is the default tenant's, as transactions without one are.
    const defaultTenant = brandHistory('customer-1', monthlyDates).map((h) => ({ ...h, tenant: 'default' }));
    expect(enrichOne(snapshot, nextPayment, defaultTenant).recurring).toBe(true);
  });

  it('irregular purchases at the same brand stay non-recurring', () => {
    const irregular = ['2024-03-02T09:00:00Z', '2024-03-05T09:00:00Z', '2024-03-27T09:00:00Z'];
    const e = enrichOne(snapshot, nextPayment, brandHistory('customer-1', irregular));
    expect(e.recurring).toBe(false);
    expect(e.reasons.recurring).toBe('history:irregular');
  });

  it('a different amount pattern is not the same subscription', () => {
    const e = enrichOne(snapshot, { ...nextPayment, amount: 900 }, brandHistory('customer-1', monthlyDates));
    expect(e.recurring).toBe(false);
  });

  it('an unknown merchant is matched to its history by merchant key', () => {
    const history: HistoryEntry[] = monthlyDates.map((occurred_at) => ({
      customer_id: 'customer-1',
      brand_id: null,
      merchant_key: 'xqzw fitness club',
      occurred_at,
      amount: 300,
    }));
    const e = enrichOne(
      snapshot,
      { raw_description: 'XQZW FITNESS CLUB DUBAI AE', occurred_at: '2024-04-12T09:00:00Z', amount: 300 },
      history,
    );
    expect(e.brand).toBeNull();
    expect(e.merchant_key).toBe('xqzw fitness club');
    expect(e.recurring).toBe(true);
  });

  it('a subscription brand is recurring without history', () => {
    const e = enrichOne(snapshot, { raw_description: 'NETFLIX.COM' });
    expect(e.recurring).toBe(true);
    expect(e.reasons.recurring).toBe('subscription-brand:netflix');
  });

  it('a top-up or gift card at a subscription brand is not', () => {
    const topUp = enrichOne(snapshot, { raw_description: 'ETISALAT TOP UP' });
    expect(topUp.brand?.name).toMatch(/Etisalat/);
    expect(topUp.recurring).toBe(false);
    expect(topUp.reasons.recurring).toBe('subscription-brand:one-off');
    const gift = enrichOne(snapshot, { raw_description: 'NETFLIX GIFT CARD' });
    expect(gift.recurring).toBe(false);
    const bill = enrichOne(snapshot, { raw_description: 'ETISALAT BILL PAYMENT' });
    expect(bill.recurring).toBe(true);
  });

  it('a non-subscription brand without history is not recurring', () => {
    const e = enrichOne(snapshot, { raw_description: 'CARREFOUR' });
    expect(e.recurring).toBe(false);
    expect(e.reasons.recurring).toBe('no-history');
  });

  it('a credit from a brand (a refund) is never recurring', () => {
    const e = enrichOne(snapshot, { raw_description: 'NETFLIX.COM', direction: 'CREDIT' });
    expect(e.recurring).toBe(false);
  });

  it('earlier transactions of the same batch count as history, per customer', () => {
    const batch = [
      txn({ raw_description: 'XQZW FITNESS CLUB', occurred_at: '2024-01-05T08:00:00Z', amount: 300 }),
      txn({
        raw_description: 'XQZW FITNESS CLUB',
        customer_id: 'customer-2',
        occurred_at: '2024-01-20T08:00:00Z',
        amount: 300,
      }),
      txn({ raw_description: 'XQZW FITNESS CLUB', occurred_at: '2024-02-05T08:00:00Z', amount: 300 }),
      txn({ raw_description: 'XQZW FITNESS CLUB', occurred_at: '2024-03-05T08:00:00Z', amount: 300 }),
      txn({
        raw_description: 'XQZW FITNESS CLUB',
        customer_id: 'customer-2',
        occurred_at: '2024-03-05T08:00:00Z',
        amount: 300,
      }),
    ];
    const results = enrichBatch(batch, snapshot);
    expect(results.map((r) => r.recurring)).toEqual([false, false, false, true, false]);
    expect(results[3]?.reasons.recurring).toBe('history:monthly');
    // The same customer id at another tenant in the same batch is someone else.
    const mixed = batch.map((t, i) => (i === 2 ? { ...t, tenant: 'bank-b' } : t));
    expect(enrichBatch(mixed, snapshot).map((r) => r.recurring)).toEqual([false, false, false, false, false]);
  });

  it('batch history and given history combine', () => {
    const history = brandHistory('customer-1', ['2024-01-12T09:00:00Z']);
    const results = enrichBatch(
      [
        txn({ raw_description: 'CARREFOUR', occurred_at: '2024-02-12T09:00:00Z', amount: 250 }),
        txn({ raw_description: 'CARREFOUR', occurred_at: '2024-03-12T09:00:00Z', amount: 250 }),
      ],
      snapshot,
      history,
    );
    expect(results.map((r) => r.recurring)).toEqual([false, true]);
  });
});
