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
import { buildSnapshot } from '../../../../src/engine/snapshot.js';
import { loadReferenceData } from '../../../../src/data/load.js';
import type { Seed } from '../../../../scripts/model/corpus.js';
import { noiseContext } from '../../../../scripts/model/noise.js';
import {
  DEFAULT_OPTIONS,
  generateExamples,
  loadCorpusWords,
  poolsOf,
  trainMerchantModel,
} from '../../../../scripts/model/train.js';

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

  it("keeps a change local: another seed in one class changes that class's examples only", () => {
    const data = loadReferenceData();
    const snapshot = buildSnapshot({ ...data, model: undefined });
    const ctx = noiseContext(data, loadCorpusWords());
    const name = (text: string, label: string): Seed => ({
      text,
      label,
      source: 'catalog',
      lang: 'latin',
      kind: 'name',
    });
    const classes = ['4-1', '6-1', '10-2'];
    const before = [name('Golden Fork', '4-1'), name('Fresh Basket', '6-1'), name('Care Plus', '10-2')];
    const after = [...before, name('Green Grocer', '6-1')];
    const part = { seed: 3, name: 'train' };
    const a = generateExamples(poolsOf(before), classes, 0.01, part, ctx, snapshot);
    const b = generateExamples(poolsOf(after), classes, 0.01, part, ctx, snapshot);
    const of = (examples: typeof a, label: number): string[] =>
      examples.filter((e) => e.label === label).map((e) => `${e.key}:${[...e.features].join(',')}`);
    expect(of(b, 0)).toEqual(of(a, 0));
    expect(of(b, 2)).toEqual(of(a, 2));
    expect(of(b, 1)).not.toEqual(of(a, 1));
  }, 60_000);

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
