/**
 * The worker's brand store port in memory: a fixed snapshot, history kept from what was indexed, and
 * a hook to make the index refuse a transaction (as PostgreSQL refuses a value) or fail as a whole.
 */
import type { Snapshot } from '../../src/engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry, HistoryKey } from '../../src/engine/types.js';
import type { BrandStorePort } from '../../src/pipeline/steps.js';

export class InMemoryStore implements BrandStorePort {
  readonly indexed = new Map<string, { transaction: EngineTransaction; enrichment: Enrichment }>();
  /** Called for every index write; throw to fail it. */
  onIndex: (items: readonly { transaction: EngineTransaction }[]) => void = () => undefined;

  constructor(private readonly current: Snapshot) {}

  snapshot(): Snapshot {
    return this.current;
  }

  async history(keys: readonly HistoryKey[]): Promise<readonly HistoryEntry[]> {
    const wanted = new Set(keys.map((k) => `${k.tenant}\u0000${k.customer_id}\u0000${k.merchant_key}`));
    return [...this.indexed.values()]
      .filter(({ transaction: t, enrichment: e }) =>
        wanted.has(`${t.tenant ?? 'default'}\u0000${t.customer_id}\u0000${e.merchant_key}`),
      )
      .map(({ transaction: t, enrichment: e }) => ({
        tenant: t.tenant ?? 'default',
        customer_id: t.customer_id,
        brand_id: e.brand?.id ?? null,
        merchant_key: e.merchant_key,
        occurred_at: t.occurred_at,
        amount: t.amount,
      }));
  }

  async index(items: readonly { transaction: EngineTransaction; enrichment: Enrichment }[]): Promise<void> {
    this.onIndex(items);
    for (const item of items)
      this.indexed.set(`${item.transaction.tenant}:${item.transaction.transaction_id}`, item);
  }
}
