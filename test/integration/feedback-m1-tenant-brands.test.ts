// Guarantee: a brand one tenant creates from a correction never reaches another tenant until an
// operator promotes it (M1). Tenant A's new brand (with its website and Arabic name) is A's; tenant
// B naming the same brand gets a brand of its own, without A's website or Arabic name; B naming A's
// brand by id is dead-lettered (UNKNOWN_BRAND: for B it does not exist). After `tx-enrich brands
// promote`, B may name it, and B's correction is applied within seconds. The consumer and the
// relay keep running.
import { afterAll, describe, expect, it } from 'vitest';
import { at, expectHealthy, letterCodes, startFeedbackRig, type FeedbackRig } from './feedback-harness.js';
import { runCli } from './store-harness.js';

const SHOP = 'CORNICHE COFFEE CORNER';

describe('feedback M1: brands from corrections belong to their tenant', () => {
  let rig: FeedbackRig | null = null;

  afterAll(async () => {
    await rig?.stop();
  });

  it('keeps A’s brand from B until an operator promotes it', async () => {
    rig = await startFeedbackRig('fm1');
    await rig.index('bank-a', [at(SHOP, 'a-1', 'alice')]);
    await rig.index('bank-b', [
      at(SHOP, 'b-1', 'carol'),
      at(SHOP, 'b-2', 'carol', { occurred_at: '2026-10-05' }),
    ]);
    const named = { name: 'Corniche Casino', name_ar: 'كلمة مسيئة', website: 'https://phishing.example' };
    await rig.send([
      rig.correction({
        correction_id: 'm1-a',
        tenant: 'bank-a',
        transaction_id: 'a-1',
        customer_id: 'alice',
        new_brand: named,
        scope: 'merchant',
      }),
      rig.correction({
        correction_id: 'm1-b',
        tenant: 'bank-b',
        transaction_id: 'b-1',
        customer_id: 'carol',
        new_brand: { name: 'Corniche Casino', name_ar: null, website: null },
        scope: 'transaction',
      }),
    ]);
    await rig.reenriched.until(2, 30_000, `both tenants' records\n${rig.logs()}`);
    const a = rig.reenriched.records.find((r) => r.headers['tenant-id'] === 'bank-a')!.value;
    const b = rig.reenriched.records.find((r) => r.headers['tenant-id'] === 'bank-b')!.value;
    expect(a).toMatchObject({
      brand_name: 'Corniche Casino',
      brand_url: 'https://phishing.example',
      brand_name_ar: 'كلمة مسيئة',
    });
    expect(b).toMatchObject({ brand_name: 'Corniche Casino', brand_url: null, brand_name_ar: null });
    expect(b.brand_id).not.toBe(a.brand_id);

    // B names A's brand by id: for B it does not exist.
    await rig.send([
      rig.correction({
        correction_id: 'm1-b-by-id',
        tenant: 'bank-b',
        transaction_id: 'b-2',
        customer_id: 'carol',
        brand_id: a.brand_id,
        scope: 'transaction',
      }),
    ]);
    await rig.letters.until(1, 30_000, `B's dead letter\n${rig.logs()}`);
    expect(letterCodes(rig)).toEqual(['UNKNOWN_BRAND']);

    const cliEnv = {
      ...rig.store.env,
      KAFKA_BROKERS: rig.env.kafkaBrokers.join(','),
      SCHEMA_REGISTRY_URL: rig.env.schemaRegistryUrl,
      CONSUMER_GROUP: rig.group,
      FEEDBACK_TOPIC: rig.topics.feedback,
      REENRICHED_TOPIC: rig.topics.reenriched,
      BRAND_CHANGES_TOPIC: rig.topics.changes,
      DLQ_TOPIC: rig.topics.dlq,
    };
    const promoted = await runCli(['brands', 'promote', String(a.brand_id)], cliEnv);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toMatch(/brand-promote/);

    const sentAt = Date.now();
    await rig.send([
      rig.correction({
        correction_id: 'm1-b-after',
        tenant: 'bank-b',
        transaction_id: 'b-2',
        customer_id: 'carol',
        brand_id: a.brand_id,
        scope: 'transaction',
      }),
    ]);
    await rig.reenriched.until(3, 30_000, `B's record with the promoted brand\n${rig.logs()}`);
    process.stderr.write(
      `[feedback-m1] correction → re-enriched: ${rig.reenriched.records[2]!.receivedAt - sentAt} ms\n`,
    );
    expect(rig.reenriched.records[2]?.value).toMatchObject({ transaction_id: 'b-2', brand_id: a.brand_id });
    expect(letterCodes(rig)).toEqual(['UNKNOWN_BRAND']);
    expect(expectHealthy(rig)).toEqual({ failing: null, readiness: null });
  }, 240_000);
});
