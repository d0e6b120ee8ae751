import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATA_DIR,
  MODEL_HEADER,
  MODEL_WEIGHTS,
  loadMerchantModel,
} from '../../../../src/data/load.js';
import { merchantModelHeaderSchema } from '../../../../src/data/schemas.js';
import { DEFAULT_OPTIONS, trainMerchantModel } from '../../../../scripts/model/train.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('npm run model:train', () => {
  it('is deterministic: the same seed trains the same weights, another seed others', () => {
    const small = { seed: 5, sample: 0.02, epochs: 1, bucketBits: 14 };
    const first = trainMerchantModel(small);
    const second = trainMerchantModel(small);
    expect(first.header.weights_sha256).toBe(sha256(first.weights));
    expect(second.header).toEqual(first.header);
    expect(sha256(second.weights)).toBe(sha256(first.weights));
    const other = trainMerchantModel({ ...small, seed: 6 });
    expect(other.header.weights_sha256).not.toBe(first.header.weights_sha256);
  }, 300_000);

  it('trained the shipped model: retraining with the default options writes the same bytes', () => {
    const shippedHeader = merchantModelHeaderSchema.parse(
      JSON.parse(readFileSync(join(DEFAULT_DATA_DIR, MODEL_HEADER), 'utf8')),
    );
    const shippedWeights = readFileSync(join(DEFAULT_DATA_DIR, MODEL_WEIGHTS));
    expect(sha256(shippedWeights)).toBe(shippedHeader.weights_sha256);
    const retrained = trainMerchantModel(DEFAULT_OPTIONS);
    expect(retrained.header.weights_sha256).toBe(shippedHeader.weights_sha256);
    expect(retrained.header).toEqual(shippedHeader);
    expect(loadMerchantModel().id).toBe(`merchant-type@${shippedHeader.weights_sha256.slice(0, 8)}`);
  }, 900_000);
});
