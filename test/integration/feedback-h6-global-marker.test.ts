// Guarantee: the store's global marker `*` never arrives from outside (H6). A feedback record whose
// tenant-id header is `*` (INVALID_HEADER) and one whose body names tenant `*` (INVALID_CORRECTION)
// are dead-lettered with their codes, an operator's `corrections apply` naming tenant `*` is refused
// (exit 1, nothing written), no global mapping appears; the good correction behind them is applied
// within seconds and the consumer and relay keep running.
import { afterAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/data/load.js';
import { at, expectHealthy, letterCodes, startFeedbackRig, type FeedbackRig } from './feedback-harness.js';
import { runCli } from './store-harness.js';

const SHOP = 'NOOR AL MADINA STORES';
const brand = loadReferenceData().brands.find((b) => b.slug === 'carrefour')!;

describe('feedback H6: `*` is the store’s, never a tenant', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('dead-letters `*` in the header or the body, refuses it from the CLI, applies the good correction', async () => {
    rig = await startFeedbackRig('fh6');
    await rig.index('bank-a', [at(SHOP, 'a-1', 'alice')]);
    const correction = { transaction_id: 'a-1', customer_id: 'alice', brand_id: brand.id, scope: 'merchant' };
    await rig.send([
      {
        ...rig.correction({ ...correction, correction_id: 'h6-header', tenant: 'bank-a' }),
        headers: { 'tenant-id': '*' },
      },
      // The body names `*` under a header that names the tenant.
      {
        ...rig.correction({ ...correction, correction_id: 'h6-body', tenant: '*' }),
        headers: { 'tenant-id': 'bank-a' },
      },
      rig.correction({ ...correction, correction_id: 'h6-good', tenant: 'bank-a' }),
    ]);
    await rig.letters.until(2, 30_000, `2 dead letters\n${rig.logs()}`);
    await rig.reenriched.until(1, 30_000, `the good correction re-enriched\n${rig.logs()}`);
    expect(letterCodes(rig)).toEqual(['INVALID_HEADER', 'INVALID_CORRECTION']);
    expect(rig.letters.records.map((l) => l.headers['x-dlq-error-field'])).toEqual(['tenant-id', 'tenant']);
    expect(rig.reenriched.records[0]?.headers['x-correction-id']).toBe('h6-good');

    const cli = await runCli(
      [
        'corrections',
        'apply',
        JSON.stringify({ tenant: '*', transaction_id: 'a-1', scope: 'global', brand_id: brand.id }),
      ],
      {
        ...rig.store.env,
        KAFKA_BROKERS: rig.env.kafkaBrokers.join(','),
        SCHEMA_REGISTRY_URL: rig.env.schemaRegistryUrl,
        CONSUMER_GROUP: rig.group,
        FEEDBACK_TOPIC: rig.topics.feedback,
        REENRICHED_TOPIC: rig.topics.reenriched,
        BRAND_CHANGES_TOPIC: rig.topics.changes,
        DLQ_TOPIC: rig.topics.dlq,
      },
    );
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toMatch(/INVALID_CORRECTION \(tenant\): tenant must be 1-64 of A-Z a-z 0-9 \. _ -/);

    const mappings = await rig.db.query<{ tenant: string }>('SELECT DISTINCT tenant FROM learned_mappings');
    expect(mappings.rows).toEqual([{ tenant: 'bank-a' }]);
    const audit = await rig.db.query<{ tenant: string | null }>(
      'SELECT DISTINCT tenant FROM corrections ORDER BY 1',
    );
    expect(audit.rows.map((r) => r.tenant)).not.toContain('*');
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
