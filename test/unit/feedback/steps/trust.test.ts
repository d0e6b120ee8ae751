import { describe, expect, it } from 'vitest';
import { reporterDigest } from '../../../../src/feedback/correction.js';
import { locate } from '../../../../src/feedback/steps/locate.js';
import { decideTrust, proposalKey, trust } from '../../../../src/feedback/steps/trust.js';
import { correction, indexed, setup, SHOP } from '../../../fakes/feedback-fixtures.js';

const policy = { quorum: 3, minTenants: 2 };
const none = { customers: 0, tenants: 0 };

describe('decideTrust', () => {
  it('applies transaction and merchant (tenant) corrections at once, for customers and operators', () => {
    for (const actor of ['customer', 'operator'] as const) {
      expect(decideTrust('transaction', actor, none, policy)).toEqual({ action: 'transaction' });
      expect(decideTrust('merchant', actor, none, policy)).toEqual({ action: 'tenant-mapping' });
    }
  });

  it('never lets customers of one tenant change a global mapping, however many', () => {
    expect(decideTrust('global', 'customer', { customers: 1, tenants: 1 }, policy)).toMatchObject({
      action: 'propose',
      agreeing: 1,
      needed: 3,
    });
    expect(decideTrust('global', 'customer', { customers: 50, tenants: 1 }, policy)).toMatchObject({
      action: 'propose',
      tenants: 1,
      neededTenants: 2,
    });
  });

  it('changes the global mapping once enough distinct customers from enough tenants agree', () => {
    expect(decideTrust('global', 'customer', { customers: 3, tenants: 2 }, policy)).toEqual({
      action: 'global-mapping',
    });
    expect(decideTrust('global', 'customer', { customers: 2, tenants: 2 }, policy)).toMatchObject({
      action: 'propose',
    });
  });

  it('honours the configured quorum and tenant count, but never fewer than two tenants', () => {
    expect(
      decideTrust('global', 'customer', { customers: 4, tenants: 2 }, { quorum: 5, minTenants: 2 }),
    ).toMatchObject({
      action: 'propose',
      needed: 5,
    });
    expect(
      decideTrust('global', 'customer', { customers: 9, tenants: 2 }, { quorum: 3, minTenants: 3 }),
    ).toMatchObject({
      action: 'propose',
      neededTenants: 3,
    });
    expect(
      decideTrust('global', 'customer', { customers: 1, tenants: 1 }, { quorum: 1, minTenants: 1 }),
    ).toMatchObject({
      action: 'propose',
      neededTenants: 2,
    });
  });

  it('lets an operator change the global mapping alone', () => {
    expect(decideTrust('global', 'operator', none, policy)).toEqual({ action: 'global-mapping' });
  });
});

describe('proposalKey', () => {
  it('counts proposals together only when they agree on merchant, brand and sub-category', () => {
    const key = (over: object) =>
      proposalKey('blue bottle coffee', { brand_id: null, new_brand: null, sub_category_id: null, ...over });
    expect(key({ brand_id: 7 })).toBe(key({ brand_id: 7 }));
    expect(key({ brand_id: 7 })).not.toBe(key({ brand_id: 8 }));
    expect(key({ brand_id: 7 })).not.toBe(key({ brand_id: 7, sub_category_id: '4-3' }));
    expect(proposalKey('other shop', { brand_id: 7, new_brand: null, sub_category_id: null })).not.toBe(
      key({ brand_id: 7 }),
    );
    // New brands agree by name, whatever the case, accents or punctuation.
    expect(key({ new_brand: { name: 'Café Nero', name_ar: null, website: null } })).toBe(
      key({ new_brand: { name: 'CAFE NERO!', name_ar: null, website: null } }),
    );
  });
});

describe('trust step', () => {
  const rows = [
    indexed('bank-a', 'a-1', 'alice', `POS ${SHOP}`),
    indexed('bank-a', 'a-2', 'bob', `POS ${SHOP}`),
    indexed('bank-b', 'b-1', 'carol', `POS ${SHOP}`),
  ];

  async function run(c: ReturnType<typeof correction>, actor: 'customer' | 'operator' = 'customer') {
    const { store } = setup(rows);
    return store.change(async (tx) => {
      const located = await locate(tx, c, (await tx.view()).snapshot);
      if (!located.ok) throw new Error('not located');
      return trust(tx, c, actor, located.value, policy);
    });
  }

  it('refuses a customer who does not own the transaction (H5, M2)', async () => {
    const result = await run(
      correction({
        transaction_id: 'a-1',
        customer_id: 'mallory',
        scope: 'merchant',
        sub_category_id: '4-3',
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'NOT_TRANSACTION_OWNER', field: 'customer_id' },
    });
  });

  it('trusts the owner, and an operator for any transaction', async () => {
    const owner = correction({ transaction_id: 'a-1', customer_id: 'alice', sub_category_id: '4-3' });
    expect(await run(owner)).toMatchObject({
      ok: true,
      value: { decision: { action: 'tenant-mapping' }, reporter: reporterDigest('bank-a', 'alice') },
    });
    expect(await run({ ...owner, customer_id: 'operator' }, 'operator')).toMatchObject({ ok: true });
  });

  it('counts agreeing proposals by distinct owning customers and their tenants', async () => {
    const { store } = setup(rows);
    const propose = async (c: ReturnType<typeof correction>) =>
      store.change(async (tx) => {
        const located = await locate(tx, c, (await tx.view()).snapshot);
        if (!located.ok) throw new Error('not located');
        const trusted = await trust(tx, c, 'customer', located.value, policy);
        if (!trusted.ok) throw new Error(trusted.error.message);
        await tx.audit({
          correction_id: c.correction_id,
          tenant: c.tenant,
          transaction_id: c.transaction_id,
          reporter: trusted.value.reporter,
          actor: 'customer',
          scope: 'global',
          status: 'proposed',
          reason: null,
          payload: {},
          merchant_key: null,
          merchant_id: null,
          proposal_key: trusted.value.proposalKey,
          brand_id: null,
          sub_category_id: c.sub_category_id,
          reenriched: 0,
          source: 'test',
          reported_at: null,
          content_digest: null,
        });
        return trusted.value.decision;
      });
    const global = { scope: 'global' as const, sub_category_id: '13-13' };
    expect(
      await propose(
        correction({ ...global, correction_id: 'g1', transaction_id: 'a-1', customer_id: 'alice' }),
      ),
    ).toMatchObject({
      action: 'propose',
      agreeing: 1,
      tenants: 1,
    });
    // The same customer again does not count twice.
    expect(
      await propose(
        correction({ ...global, correction_id: 'g2', transaction_id: 'a-1', customer_id: 'alice' }),
      ),
    ).toMatchObject({
      agreeing: 1,
    });
    expect(
      await propose(
        correction({ ...global, correction_id: 'g3', transaction_id: 'a-2', customer_id: 'bob' }),
      ),
    ).toMatchObject({
      action: 'propose',
      agreeing: 2,
      tenants: 1,
    });
    expect(
      await propose(
        correction({
          ...global,
          correction_id: 'g4',
          tenant: 'bank-b',
          transaction_id: 'b-1',
          customer_id: 'carol',
        }),
      ),
    ).toEqual({ action: 'global-mapping' });
  });
});
