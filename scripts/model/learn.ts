/**
 * Multinomial logistic regression over hashed features, trained by plain SGD in a seeded order
 * (deterministic: same examples and seed, same bytes), then a softmax temperature fitted on
 * held-out examples, then pruning and int8 quantization into the sparse layout the engine reads.
 */
import { createHash } from 'node:crypto';
import { MerchantModel, type MerchantModelData } from '../../src/engine/merchant-model.js';

/** One example: its feature hashes, its class index, and its place in the training order. */
export interface Example {
  readonly features: Uint32Array;
  readonly label: number;
  /**
   * A random 32-bit number drawn with the example: each epoch visits the examples in an order
   * derived from their keys, so examples added to one class leave the others' order as it was.
   */
  readonly key: number;
}

export interface LearnOptions {
  readonly classes: readonly (string | null)[];
  readonly bucketBits: number;
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
  readonly seed: number;
  /** Weights smaller than this (after training) are dropped from the model. */
  readonly prune: number;
  readonly threshold: number;
  readonly name: string;
}

export interface Learned {
  readonly data: MerchantModelData;
  readonly weights: Uint8Array;
  readonly entries: number;
  readonly sha256: string;
}

/** A 32-bit hash of an example's key with the seed and the epoch (murmur3's finalizer). */
function mix(key: number, seed: number, epoch: number): number {
  let h = (key ^ Math.imul(seed + 1, 0x9e3779b1) ^ Math.imul(epoch + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function learn(
  train: readonly Example[],
  heldOut: readonly Example[],
  options: LearnOptions,
): Learned {
  const K = options.classes.length;
  const buckets = 2 ** options.bucketBits;
  const mask = buckets - 1;
  const w = new Float32Array(buckets * K);
  const bias = new Float64Array(K);
  const order = Array.from({ length: train.length }, (_, i) => i);
  const rank = new Uint32Array(train.length);
  const scores = new Float64Array(K);
  let step = 0;
  const total = options.epochs * train.length;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = 0; i < train.length; i++) rank[i] = mix((train[i] as Example).key, options.seed, epoch);
    order.sort((a, b) => (rank[a] as number) - (rank[b] as number) || a - b);
    for (const i of order) {
      const ex = train[i] as Example;
      const n = ex.features.length;
      if (n === 0) continue;
      const x = 1 / Math.sqrt(n);
      // Linear decay to a tenth: large steps first, then settling.
      const lr = options.learningRate * (1 - (0.9 * step++) / total);
      scores.fill(0);
      for (let f = 0; f < n; f++) {
        const base = ((ex.features[f] as number) & mask) * K;
        for (let k = 0; k < K; k++) scores[k] = (scores[k] as number) + (w[base + k] as number) * x;
      }
      for (let k = 0; k < K; k++) scores[k] = (scores[k] as number) + (bias[k] as number);
      softmaxInPlace(scores);
      for (let k = 0; k < K; k++) {
        const g = (scores[k] as number) - (k === ex.label ? 1 : 0);
        scores[k] = g;
        bias[k] = (bias[k] as number) - lr * g * 0.1;
      }
      const decay = 1 - lr * options.l2;
      for (let f = 0; f < n; f++) {
        const base = ((ex.features[f] as number) & mask) * K;
        for (let k = 0; k < K; k++) {
          const g = scores[k] as number;
          const old = w[base + k] as number;
          // Skip negligible gradients: most classes are far from every example.
          if (g > -1e-4 && g < 1e-4) {
            if (old !== 0) w[base + k] = old * decay;
            continue;
          }
          w[base + k] = old * decay - lr * g * x;
        }
      }
    }
  }
  const packed = pack(w, bias, K, options.bucketBits, options.prune);
  const draft: MerchantModelData = {
    ...packed.data,
    id: options.name,
    classes: options.classes,
    temperature: 1,
    threshold: options.threshold,
  };
  const temperature = fitTemperature(new MerchantModel(draft), heldOut);
  const data: MerchantModelData = {
    ...draft,
    temperature,
    id: `${options.name}@${packed.sha256.slice(0, 8)}`,
  };
  return { data, weights: packed.bytes, entries: packed.entries, sha256: packed.sha256 };
}

function softmaxInPlace(s: Float64Array): void {
  let max = -Infinity;
  for (const v of s) if (v > max) max = v;
  let sum = 0;
  for (let k = 0; k < s.length; k++) {
    const e = Math.exp((s[k] as number) - max);
    s[k] = e;
    sum += e;
  }
  for (let k = 0; k < s.length; k++) s[k] = (s[k] as number) / sum;
}

interface Packed {
  readonly data: Omit<MerchantModelData, 'id' | 'classes' | 'temperature' | 'threshold'>;
  readonly bytes: Uint8Array;
  readonly entries: number;
  readonly sha256: string;
}

/** Drops weights below `prune`, quantizes the rest to int8, and lays them out per bucket. */
function pack(w: Float32Array, bias: Float64Array, K: number, bucketBits: number, prune: number): Packed {
  const buckets = 2 ** bucketBits;
  let maxAbs = 0;
  for (const v of w) if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
  const scale = maxAbs / 127 || 1;
  const counts = new Uint8Array(buckets);
  const cls: number[] = [];
  const q: number[] = [];
  for (let b = 0; b < buckets; b++) {
    for (let k = 0; k < K; k++) {
      const v = w[b * K + k] as number;
      if (Math.abs(v) < prune) continue;
      const iv = Math.max(-127, Math.min(127, Math.round(v / scale)));
      if (iv === 0) continue;
      counts[b] = (counts[b] as number) + 1;
      cls.push(k);
      q.push(iv);
    }
  }
  const entries = cls.length;
  const bytes = new Uint8Array(K * 4 + buckets + 2 * entries);
  const view = new DataView(bytes.buffer);
  const biasF = new Float32Array(K);
  for (let k = 0; k < K; k++) {
    view.setFloat32(4 * k, bias[k] as number, true);
    biasF[k] = bias[k] as number;
  }
  bytes.set(counts, K * 4);
  const at = K * 4 + buckets;
  bytes.set(cls, at);
  const weights = new Int8Array(q);
  bytes.set(new Uint8Array(weights.buffer), at + entries);
  const offsets = new Uint32Array(buckets + 1);
  for (let b = 0; b < buckets; b++) offsets[b + 1] = (offsets[b] as number) + (counts[b] as number);
  return {
    data: {
      bucketBits,
      scale,
      bias: biasF,
      offsets,
      entryClass: new Uint8Array(cls),
      entryWeight: weights,
    },
    bytes,
    entries,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** The softmax temperature that minimizes the held-out examples' negative log-likelihood. */
function fitTemperature(model: MerchantModel, heldOut: readonly Example[]): number {
  const all = heldOut.map((ex) => ({
    scores: model.scores(ex.features, ex.features.length),
    label: ex.label,
  }));
  let best = 1;
  let bestLoss = Infinity;
  for (let t = 0.3; t <= 4.0001; t += 0.05) {
    let loss = 0;
    for (const { scores, label } of all) loss -= Math.log(Math.max(1e-12, probability(scores, label, t)));
    // Compared at 6 significant digits: the last bits of a sum must not pick another temperature.
    loss = Number(loss.toPrecision(6));
    if (loss < bestLoss) {
      bestLoss = loss;
      best = Math.round(t * 100) / 100;
    }
  }
  return best;
}

function probability(scores: Float64Array, k: number, t: number): number {
  let max = -Infinity;
  for (const s of scores) if (s > max) max = s;
  let sum = 0;
  for (const s of scores) sum += Math.exp((s - max) / t);
  return Math.exp(((scores[k] as number) - max) / t) / sum;
}
