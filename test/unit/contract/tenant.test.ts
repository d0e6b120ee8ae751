import { describe, expect, it } from 'vitest';
import { tenantIdSchema } from '../../../src/api/tenants.js';
import { isTenantId } from '../../../src/contract/tenant.js';

const samples = [
  'bank-a',
  'Bank_A.1',
  'a',
  'x'.repeat(64),
  'x'.repeat(65),
  '',
  '*',
  'bank a',
  'bank\u0000a',
  'بنك',
  'a/b',
  'é',
];

describe('tenant ids at every door', () => {
  it('follow the API’s tenant pattern exactly', () => {
    for (const sample of samples)
      expect(isTenantId(sample), sample).toBe(tenantIdSchema.safeParse(sample).success);
  });

  it('never let the store’s global marker in', () => {
    expect(isTenantId('*')).toBe(false);
  });
});
