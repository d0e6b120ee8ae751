// Guarantee: the brand store behaves the same on both backends — the real PostgreSQL server (a fresh
// schema per run) and the embedded PGlite — running the same migrations and queries: migrations and
// seeding are idempotent (re-seeding changes nothing, operator edits survive it), the catalog read
// back gives the engine exactly the file catalog's outcomes, the index upsert is one statement and a
// replay changes nothing, history is one query, a correction writes its audit row, mapping and outbox
// rows in one transaction (and nothing when it fails), the trust policy holds (owners of transactions,
// a quorum from two tenants, correction ids per tenant, brands of one tenant until promoted), outbox
// rows set aside stay out of the way, the snapshot refreshes incrementally, purge honours retention,
// and the relay lock admits one holder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateTransaction } from '../../src/contract/transaction.js';
import { loadReferenceData } from '../../src/data/load.js';
import { enrichBatch } from '../../src/engine/enrich.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { EngineTransaction } from '../../src/engine/types.js';
import type { Correction } from '../../src/feedback/correction.js';
import type { ApplyContext } from '../../src/feedback/outcome.js';
import { applyContext } from '../../src/feedback/services.js';
import { applyCorrection } from '../../src/feedback/use-cases/apply-correction.js';
import { applyBrandEdit, promoteBrand } from '../../src/feedback/use-cases/operator-brands.js';
import { createLogger } from '../../src/observability/logger.js';
import { generateSamples } from '../../src/samples/generate.js';
import { brandOwner, editBrand, searchBrands } from '../../src/store/brands.js';
import type { Brand } from '../../src/data/schemas.js';
import { loadCatalog, seedCatalog } from '../../src/store/catalog.js';
import { markFailed, markSent, outboxCounts, pendingOutbox } from '../../src/store/outbox.js';
import type { Database, Queryable } from '../../src/store/db.js';
import {
  findIndexed,
  historyFor,
  purgeIndex,
  upsertIndex,
  type IndexedItem,
} from '../../src/store/index-store.js';
import { findMapping } from '../../src/store/mappings.js';
import { migrate } from '../../src/store/migrations.js';
import { StoreSnapshot } from '../../src/store/store-snapshot.js';
import { stackEnv } from '../support/index.js';
import { freshStoreLocation, type Backend, type StoreLocation } from './store-harness.js';

const files = loadReferenceData();
const fileSnapshot = buildSnapshot(files);
const log = createLogger('silent');

function samples(count: number, seed: number, tenant = 'bank-a', prefix = `s${seed}`): EngineTransaction[] {
  return [...generateSamples(files, count, { seed, customers: 150 })].map((s, i) => {
    const v = validateTransaction({ ...(s.value as object), transaction_id: `${prefix}-${i}` });
    if (!v.ok) throw new Error('sample failed validation');
    return { ...v.value, tenant };
  });
}

function items(txns: readonly EngineTransaction[], snapshot = fileSnapshot): IndexedItem[] {
  const results = enrichBatch(txns, snapshot);
  return txns.map((transaction, i) => ({ transaction, enrichment: results[i]! }));
}

/** A digest of everything seeding writes (including change numbers): equal means "changed nothing". */
async function catalogDigest(db: Database): Promise<string> {
  const { rows } = await db.query<{ d: string }>(
    `SELECT md5(
       (SELECT coalesce(string_agg(b::text, '|' ORDER BY id), '') FROM brands b) ||
       (SELECT coalesce(string_agg(p::text, '|' ORDER BY id), '') FROM product_lines p) ||
       (SELECT coalesce(string_agg(a::text, '|' ORDER BY brand_id, weak, position), '') FROM brand_aliases a) ||
       (SELECT coalesce(string_agg(a::text, '|' ORDER BY product_line_id, position), '') FROM product_line_aliases a)
     ) AS d`,
  );
  return rows[0]!.d;
}

function correction(
  over: Partial<Correction> & Pick<Correction, 'correction_id' | 'transaction_id'>,
): Correction {
  return {
    tenant: 'bank-a',
    customer_id: 'cust-1',
    brand_id: null,
    new_brand: null,
    category_id: null,
    sub_category_id: null,
    scope: 'merchant',
    reported_at: Date.now(),
    ...over,
  };
}

const source = (offset: number) => ({
  topic: 'feedback',
  partition: 0,
  offset: String(offset),
  key: Buffer.from('k'),
  value: Buffer.from('{}'),
  headers: {},
});

const backends: Backend[] = ['pglite', 'postgres'];

describe.each(backends)('brand store contract on %s', (backend) => {
  const env = stackEnv();
  let location: StoreLocation;
  let db: Database;
  let snapshots: StoreSnapshot;
  let ctx: ApplyContext;

  beforeAll(async () => {
    location = freshStoreLocation(backend, env.databaseUrl, 'contract');
    db = await location.open();
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  it('migrates once: a second run applies nothing', async () => {
    expect(await migrate(db)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await migrate(db)).toEqual([]);
    const { rows } = await db.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [db.schema],
    );
    expect(rows.map((r) => r.t)).toEqual(
      expect.arrayContaining([
        'brands',
        'product_lines',
        'brand_aliases',
        'product_line_aliases',
        'learned_mappings',
        'corrections',
        'enriched_index',
        'outbox',
        'schema_migrations',
      ]),
    );
  });

  it('seeds the catalog idempotently: re-seeding changes nothing', async () => {
    const first = await seedCatalog(db, files.brands);
    expect(first.inserted).toBe(files.brands.length);
    const digest = await catalogDigest(db);
    const second = await seedCatalog(db, files.brands);
    expect(second).toEqual({ inserted: 0, updated: 0, unchanged: files.brands.length, conflicts: [] });
    expect(await catalogDigest(db)).toBe(digest);
  });

  it('gives the engine the same outcomes as the catalog files', async () => {
    snapshots = await StoreSnapshot.load(db, files, log);
    ctx = applyContext(
      { logoBaseUrl: undefined, globalCorrectionQuorum: 3, globalCorrectionMinTenants: 2 },
      log,
      db,
      snapshots,
    );
    const txns = samples(3000, 5);
    const strip = (e: object) => ({ ...e, catalog_version: '' });
    expect(enrichBatch(txns, snapshots.current()).map(strip)).toEqual(
      enrichBatch(txns, fileSnapshot).map(strip),
    );
  });

  it('keeps an operator edit when the catalog is seeded again', async () => {
    const brand = files.brands[0]!;
    await db.transaction((tx) => editBrand(tx, brand.id, { logo: 'brands/edited.png' }));
    const changed = [{ ...brand, name: `${brand.name} Renamed` }, ...files.brands.slice(1)];
    const result = await seedCatalog(db, changed);
    expect(result.updated).toBe(1);
    const catalog = await loadCatalog(db);
    const loaded = catalog.brands.find((b) => b.id === brand.id)!;
    expect(loaded.name).toBe(`${brand.name} Renamed`);
    expect(loaded.logo).toBe('brands/edited.png');
    // Back to the file's entry (the edit stays).
    expect((await seedCatalog(db, files.brands)).updated).toBe(1);
  });

  it('seeds an upgraded catalog that gives a slug to another id: the old holder yields it', async () => {
    const [a, b] = files.brands as [Brand, Brand];
    // The upgrade: a new entry takes a's slug, a takes b's, b is dropped from the catalog.
    const newcomer: Brand = {
      ...a,
      id: 1_999_001,
      name: `${a.name} New`,
      name_alias: false,
      aliases: [],
      weak_aliases: [],
      product_lines: undefined,
    };
    const upgraded = [newcomer, { ...a, slug: b.slug }, ...files.brands.slice(2)];
    await seedCatalog(db, upgraded);
    const catalog = await loadCatalog(db);
    const bySlug = new Map(catalog.brands.map((x) => [x.slug, x.id]));
    expect(bySlug.get(a.slug)).toBe(newcomer.id);
    expect(bySlug.get(b.slug)).toBe(a.id);
    expect(bySlug.get(`${b.slug}~${b.id}`)).toBe(b.id);
    // And back: the file's catalog seeds again over it.
    await seedCatalog(db, files.brands);
    const back = new Map((await loadCatalog(db)).brands.map((x) => [x.id, x.slug]));
    expect(back.get(a.id)).toBe(a.slug);
    expect(back.get(b.id)).toBe(b.slug);
    expect(back.get(newcomer.id)).toBe(`${a.slug}~${newcomer.id}`);
  });

  it('upserts a 500-record chunk in one statement; a replay changes nothing', async () => {
    const chunk = items(samples(500, 7));
    let statements = 0;
    const counting: Queryable = {
      query: (sql, params) => {
        statements++;
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
    };
    expect(await upsertIndex(counting, chunk)).toBe(500);
    expect(statements).toBe(1);
    const before = await db.query<{ d: string }>(
      `SELECT md5(string_agg(i::text, '|' ORDER BY transaction_id)) AS d FROM enriched_index i`,
    );
    expect(await upsertIndex(db, chunk)).toBe(0);
    const after = await db.query<{ d: string }>(
      `SELECT md5(string_agg(i::text, '|' ORDER BY transaction_id)) AS d FROM enriched_index i`,
    );
    expect(after.rows[0]!.d).toBe(before.rows[0]!.d);
    // No account, card or card name in the index.
    const { rows } = await db.query<{ c: string }>(
      `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'enriched_index'`,
      [db.schema],
    );
    expect(rows.map((r) => r.c)).not.toEqual(expect.arrayContaining(['account_id']));
    expect(rows.map((r) => r.c).filter((c) => /account|card/.test(c))).toEqual([]);
  });

  // Timings are printed for the notes (the figures live in benchmarks, not assertions); what is
  // asserted is that chunks index fully and that replaying them changes nothing.
  it('indexes 500-record chunks in one statement each; replaying them changes nothing', async () => {
    const count = async () =>
      Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM enriched_index')).rows[0]!.n);
    const before = await count();
    const runs = 8;
    const chunks = Array.from({ length: runs }, (_, k) => items(samples(500, 100 + k, 'bank-a', `cost${k}`)));
    const times: number[] = [];
    for (const chunk of chunks) {
      const started = performance.now();
      await upsertIndex(db, chunk);
      times.push(performance.now() - started);
    }
    const afterFirst = await count();
    const replay: number[] = [];
    for (const chunk of chunks.slice(0, 4)) {
      const started = performance.now();
      await upsertIndex(db, chunk);
      replay.push(performance.now() - started);
    }
    const historyStarted = performance.now();
    await historyFor(
      db,
      chunks[0]!.map((c) => ({
        tenant: 'bank-a',
        customer_id: c.transaction.customer_id,
        merchant_key: c.enrichment.merchant_key,
      })),
    );
    const historyMs = performance.now() - historyStarted;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    process.stderr.write(
      `[store-contract] ${backend}: index upsert of 500 new rows median ${median(times).toFixed(1)} ms ` +
        `(min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}); replay of 500 ` +
        `${median(replay).toFixed(1)} ms; history query for a chunk's customers and merchants ${historyMs.toFixed(1)} ms ` +
        `(${(await db.query<{ n: string }>('SELECT count(*)::text AS n FROM enriched_index')).rows[0]!.n} rows indexed)\n`,
    );
    expect(afterFirst - before).toBe(runs * 500);
    expect(await count()).toBe(afterFirst);
  });

  it('reads recurring history in one query: per tenant, customer and merchant asked for, only repeated merchants, the latest few', async () => {
    const monthly = [1, 2, 3].map((m) => ({
      ...samples(1, 900 + m, 'bank-h', `hist-${m}`)[0]!,
      customer_id: 'hist-cust',
      raw_description: 'NETFLIX.COM',
      merchant_name: 'Netflix',
      occurred_at: `2026-0${m}-05T10:00:00Z`,
      amount: 39,
    }));
    const once = {
      ...monthly[0]!,
      transaction_id: 'hist-once',
      raw_description: 'IKEA DUBAI',
      merchant_name: 'IKEA',
    };
    // Another bank's customer with the same id pays a gym monthly: not this customer's history.
    const otherBank = [1, 2, 3].map((m) => ({
      ...monthly[m - 1]!,
      tenant: 'bank-h2',
      transaction_id: `hist-other-${m}`,
      raw_description: 'FITNESS FIRST',
      merchant_name: 'Fitness First',
    }));
    const indexed = items([...monthly, once, ...otherBank]);
    await upsertIndex(db, indexed);
    const [netflix, ikea, gym] = [indexed[0]!, indexed[3]!, indexed[4]!].map(
      (i) => i.enrichment.merchant_key,
    );
    expect(new Set([netflix, ikea, gym]).size).toBe(3);
    const key = (tenant: string, merchant_key: string) => ({
      tenant,
      customer_id: 'hist-cust',
      merchant_key,
    });
    // The gym is not this tenant's customer's merchant; IKEA was visited once.
    const history = await historyFor(db, [
      key('bank-h', netflix!),
      key('bank-h', ikea!),
      key('bank-h', gym!),
    ]);
    expect(history).toHaveLength(3);
    expect(new Set(history.map((h) => h.merchant_key))).toEqual(new Set([netflix]));
    expect(history.every((h) => h.tenant === 'bank-h' && h.customer_id === 'hist-cust')).toBe(true);
    const both = await historyFor(db, [
      key('bank-h', netflix!),
      key('bank-h2', gym!),
      key('bank-h2', netflix!),
    ]);
    expect(both.filter((h) => h.tenant === 'bank-h2').map((h) => h.merchant_key)).toEqual([gym, gym, gym]);
    // At most the latest `perMerchant` of each, newest first.
    const latest = await historyFor(db, [key('bank-h', netflix!)], 2);
    expect(latest.map((h) => h.occurred_at.slice(0, 7))).toEqual(['2026-03', '2026-02']);
  });

  it('applies a merchant correction in one transaction: audit, mappings, outbox; a replay changes nothing', async () => {
    const txns = samples(200, 21, 'bank-c', 'mc');
    await upsertIndex(db, items(txns, snapshots.current()));
    const target = txns.find((t) => t.merchant_name !== '')!;
    const starbucks = files.brands.find((b) => b.slug === 'starbucks')!;
    const c = correction({
      correction_id: 'c-merchant-1',
      tenant: 'bank-c',
      customer_id: target.customer_id,
      transaction_id: target.transaction_id,
      brand_id: starbucks.id,
      sub_category_id: '5-3',
    });
    const outcome = await applyCorrection(ctx, c, { actor: 'customer', source: source(1) });
    expect(outcome.status).toBe('applied');
    const audit = await db.query<{ status: string; reenriched: number }>(
      'SELECT status, reenriched FROM corrections WHERE correction_id = $1',
      ['c-merchant-1'],
    );
    expect(audit.rows[0]?.status).toBe('applied');
    const outbox = await pendingOutbox(db, 10_000);
    const mine = outbox.filter((o) => o.correctionId === 'c-merchant-1');
    expect(mine.some((o) => o.kind === 'brand-change')).toBe(true);
    expect(mine.filter((o) => o.kind === 'reenriched')).toHaveLength(Number(audit.rows[0]?.reenriched));
    expect(mine.filter((o) => o.kind === 'reenriched').length).toBeGreaterThan(0);
    for (const o of mine.filter((m) => m.kind === 'reenriched')) {
      expect(o.record).toMatchObject({ brand_id: starbucks.id, sub_category_id: '5-3', revision: 2 });
    }
    const row = await findIndexed(db, 'bank-c', target.transaction_id);
    expect(row).toMatchObject({ brand_id: starbucks.id, sub_category_id: '5-3', revision: 2 });

    const before = (await pendingOutbox(db, 10_000)).length;
    const again = await applyCorrection(ctx, c, { actor: 'customer', source: source(1) });
    expect(again.status).toBe('duplicate');
    expect((await pendingOutbox(db, 10_000)).length).toBe(before);
    expect((await findIndexed(db, 'bank-c', target.transaction_id))?.revision).toBe(2);
  });

  it('rejects a customer correction to the dead-letter outbox, an operator one as a value, writing nothing', async () => {
    const c = correction({ correction_id: 'c-bad-1', transaction_id: 'nope', brand_id: 999_999_999 });
    const outcome = await applyCorrection(ctx, c, { actor: 'customer', source: source(2) });
    expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'UNKNOWN_BRAND' } });
    const letters = (await pendingOutbox(db, 10_000)).filter((o) => o.correctionId === 'c-bad-1');
    expect(letters.map((l) => l.kind)).toEqual(['dead-letter']);
    const unknownTxn = correction({
      correction_id: 'c-bad-2',
      transaction_id: 'nope',
      sub_category_id: '5-3',
    });
    expect(await applyCorrection(ctx, unknownTxn, { actor: 'operator', source: 'test' })).toMatchObject({
      status: 'rejected',
      error: { code: 'UNKNOWN_TRANSACTION' },
    });
    expect(
      (await db.query('SELECT 1 FROM corrections WHERE correction_id = $1', ['c-bad-2'])).rows,
    ).toHaveLength(0);
  });

  it('commits nothing of a transaction that fails', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO corrections (correction_id, actor, scope, status, source) VALUES ('c-rollback', 'operator', 'brand', 'applied', 'test')`,
        );
        await tx.query(`INSERT INTO outbox (kind, msg_value) VALUES ('brand-change', 'x')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(
      (await db.query(`SELECT 1 FROM corrections WHERE correction_id = 'c-rollback'`)).rows,
    ).toHaveLength(0);
  });

  it('changes a global mapping only on a quorum of distinct owning customers from two tenants, or an operator', async () => {
    const template = samples(1, 31, 'bank-g', 'gq')[0]!;
    const shop = 'NAKHEEL DATES TRADING';
    const at = (tenant: string, id: string, customer: string): EngineTransaction => ({
      ...template,
      tenant,
      transaction_id: id,
      customer_id: customer,
      raw_description: `POS ${shop}`,
      merchant_name: shop,
    });
    await upsertIndex(
      db,
      items(
        [
          at('bank-g', 'g-1', 'alice'),
          at('bank-g', 'g-2', 'bob'),
          at('bank-g', 'g-3', 'dave'),
          at('bank-g2', 'h-1', 'carol'),
        ],
        snapshots.current(),
      ),
    );
    const proposal = (n: number, tenant: string, transactionId: string, customer: string) =>
      correction({
        correction_id: `c-global-${n}`,
        tenant,
        customer_id: customer,
        transaction_id: transactionId,
        scope: 'global',
        sub_category_id: '20-1',
      });
    const apply = (c: Correction) =>
      applyCorrection(ctx, c, { actor: 'customer', source: source(100 + c.correction_id.length) });
    expect(await apply(proposal(1, 'bank-g', 'g-1', 'alice'))).toMatchObject({
      status: 'proposed',
      agreeing: 1,
      needed: 3,
    });
    // The same customer again does not count twice; a customer who does not own the transaction not at all.
    expect(await apply(proposal(2, 'bank-g', 'g-1', 'alice'))).toMatchObject({
      status: 'proposed',
      agreeing: 1,
    });
    expect(await apply(proposal(3, 'bank-g', 'g-1', 'mallory'))).toMatchObject({
      status: 'rejected',
      error: { code: 'NOT_TRANSACTION_OWNER' },
    });
    expect(await apply(proposal(4, 'bank-g', 'g-2', 'bob'))).toMatchObject({
      status: 'proposed',
      agreeing: 2,
    });
    // Three customers, one tenant: still a proposal.
    expect(await apply(proposal(5, 'bank-g', 'g-3', 'dave'))).toMatchObject({
      status: 'proposed',
      agreeing: 3,
      tenants: 1,
    });
    const { rows } = await db.query(`SELECT 1 FROM learned_mappings WHERE tenant = '*'`);
    expect(rows).toHaveLength(0);
    expect(await apply(proposal(6, 'bank-g2', 'h-1', 'carol'))).toMatchObject({
      status: 'applied',
      action: 'global-mapping',
    });
    const globals = await db.query<{ sub_category_id: string }>(
      `SELECT sub_category_id FROM learned_mappings WHERE tenant = '*'`,
    );
    expect(globals.rows.map((r) => r.sub_category_id)).toEqual(['20-1']);
    const statuses = await db.query<{ status: string }>(
      `SELECT status FROM corrections WHERE correction_id LIKE 'c-global-%' ORDER BY correction_id`,
    );
    expect(statuses.rows.map((r) => r.status)).toEqual([
      'applied',
      'applied',
      'rejected',
      'applied',
      'applied',
      'applied',
    ]);
  });

  it('keys corrections by tenant: the same id from two tenants is two corrections, a re-used id is rejected', async () => {
    const txns = samples(40, 33, 'bank-k', 'kk');
    const other = samples(40, 33, 'bank-k2', 'kk');
    await upsertIndex(db, items([...txns, ...other], snapshots.current()));
    const target = txns.find((t) => t.merchant_name !== '')!;
    const same = (tenant: string) =>
      correction({
        correction_id: 'c-shared-id',
        tenant,
        customer_id: target.customer_id,
        transaction_id: target.transaction_id,
        scope: 'transaction',
        sub_category_id: '5-3',
      });
    expect(
      await applyCorrection(ctx, same('bank-k'), { actor: 'customer', source: source(201) }),
    ).toMatchObject({
      status: 'applied',
    });
    expect(
      await applyCorrection(ctx, same('bank-k2'), { actor: 'customer', source: source(202) }),
    ).toMatchObject({
      status: 'applied',
    });
    const reused = { ...same('bank-k'), sub_category_id: '5-4' };
    expect(await applyCorrection(ctx, reused, { actor: 'customer', source: source(203) })).toMatchObject({
      status: 'rejected',
      correctionId: 'feedback:0:203',
      error: { code: 'CORRECTION_ID_REUSED' },
    });
    const { rows } = await db.query<{ tenant: string; status: string }>(
      `SELECT tenant, status FROM corrections WHERE correction_id IN ('c-shared-id', 'feedback:0:203') ORDER BY tenant, status`,
    );
    expect(rows).toEqual([
      { tenant: 'bank-k', status: 'applied' },
      { tenant: 'bank-k', status: 'rejected' },
      { tenant: 'bank-k2', status: 'applied' },
    ]);
  });

  it('keeps a brand created from a correction to its tenant until an operator promotes it', async () => {
    const a = samples(30, 35, 'bank-t', 'tb').find((t) => t.merchant_name !== '')!;
    const b = { ...a, tenant: 'bank-t2' };
    await upsertIndex(db, items([a, b], snapshots.current()));
    const named = (tenant: string, website: string | null) =>
      correction({
        correction_id: `c-brand-${tenant}`,
        tenant,
        customer_id: a.customer_id,
        transaction_id: a.transaction_id,
        new_brand: { name: 'Oasis Corner Bakery', name_ar: null, website },
      });
    const first = await applyCorrection(ctx, named('bank-t', 'https://phish.example'), {
      actor: 'customer',
      source: source(301),
    });
    const second = await applyCorrection(ctx, named('bank-t2', null), {
      actor: 'customer',
      source: source(302),
    });
    if (first.status !== 'applied' || second.status !== 'applied') throw new Error('not applied');
    expect(second.brandId).not.toBe(first.brandId);
    expect(await brandOwner(db, first.brandId!)).toEqual({ owner: 'bank-t' });
    expect(await brandOwner(db, second.brandId!)).toEqual({ owner: 'bank-t2' });
    expect((await searchBrands(db, 'Oasis Corner')).map((x) => x.owner_tenant).sort()).toEqual([
      'bank-t',
      'bank-t2',
    ]);
    expect(await promoteBrand(ctx, first.brandId!)).toMatchObject({
      status: 'applied',
      action: 'brand-promote',
    });
    expect(await brandOwner(db, first.brandId!)).toEqual({ owner: null });
  });

  it('sets aside an outbox row Kafka will not take: neither pending nor marked sent', async () => {
    const pending = await pendingOutbox(db, 10_000);
    const [victim, next] = pending;
    expect(next).toBeDefined();
    expect(await markFailed(db, victim!.id, 'RECORD_TOO_LARGE', 'too large')).toBe(true);
    expect(await markFailed(db, victim!.id, 'RECORD_TOO_LARGE', 'again')).toBe(false);
    expect((await pendingOutbox(db, 10_000)).map((r) => r.id)).not.toContain(victim!.id);
    const before = await outboxCounts(db);
    await markSent(db, next!.id);
    const after = await outboxCounts(db);
    expect(after.failed).toBe(1);
    expect(after.sent).toBe(before.sent + 1);
    const { rows } = await db.query<{ sent_at: unknown; failure_code: string }>(
      'SELECT sent_at, failure_code FROM outbox WHERE id = $1::bigint',
      [victim!.id],
    );
    expect(rows).toEqual([{ sent_at: null, failure_code: 'RECORD_TOO_LARGE' }]);
  });

  it('refreshes a snapshot incrementally: mappings patched, catalog changes rebuilt', async () => {
    const other = await StoreSnapshot.load(db, files, log);
    const txns = samples(50, 41, 'bank-r', 'rf');
    await upsertIndex(db, items(txns, other.current()));
    const target = txns.find((t) => t.merchant_name !== '')!;
    await applyCorrection(
      ctx,
      correction({
        correction_id: 'c-refresh',
        customer_id: target.customer_id,
        tenant: 'bank-r',
        transaction_id: target.transaction_id,
        sub_category_id: '9-1',
      }),
      { actor: 'operator', source: 'test' },
    );
    const mapped = await other.refresh();
    expect(mapped.rebuilt).toBe(false);
    expect(mapped.mappings).toBeGreaterThan(0);
    const brandId = files.brands[1]!.id;
    await applyBrandEdit(ctx, brandId, { name_ar: 'اسم جديد' });
    const rebuilt = await other.refresh();
    expect(rebuilt.rebuilt).toBe(true);
    expect(other.current().brandsById.get(brandId)?.name_ar).toBe('اسم جديد');
    expect((await other.refresh()).mappings).toBe(0);
    const learned = [...other.current().learnedByMerchantKey.values()].find((m) => m.tenant === 'bank-r');
    expect(learned?.sub_category_id).toBe('9-1');
    const mapping = await findMapping(db, 'bank-r', 'merchant_key', learned!.merchant_key!);
    expect(mapping?.correction_id).toBe('c-refresh');
  });

  it('purges index rows older than the retention', async () => {
    const old = samples(3, 51, 'bank-p', 'old').map((t) => ({ ...t, occurred_at: '2020-01-01T00:00:00Z' }));
    await upsertIndex(db, items(old));
    const removed = await purgeIndex(db, 400);
    expect(removed.index).toBeGreaterThanOrEqual(3);
    expect(await findIndexed(db, 'bank-p', old[0]!.transaction_id)).toBeNull();
  });

  it('admits one holder of the relay lock at a time', async () => {
    const held = await db.tryLock('contract-lock');
    expect(held).not.toBeNull();
    if (backend === 'postgres') {
      const second = await location.open();
      try {
        expect(await second.tryLock('contract-lock')).toBeNull();
        await held!.release();
        const again = await second.tryLock('contract-lock');
        expect(again).not.toBeNull();
        await again!.release();
      } finally {
        await second.close();
      }
    } else {
      expect(await db.tryLock('contract-lock')).toBeNull();
      await held!.release();
    }
  });
});
