/**
 * The merchant-type model: a multinomial logistic regression over hashed word and character n-gram
 * features (merchant-features.ts), trained by `npm run model:train` on shop names and trade words
 * (docs/engine.md). It names a sub-category, or "not a merchant" (class null), never a brand.
 * Weights are stored sparsely: per hash bucket, only the classes whose weight survived pruning.
 */
import { MAX_FEATURES, extractFeatures } from './merchant-features.js';

/** The model as data/model/ holds it, decoded by src/data/load.ts. */
export interface MerchantModelData {
  /** Name and digest of the weights, shown in explanations (`merchant-type@1a2b3c4d`). */
  readonly id: string;
  /** Sub-category id per class; null is the class of texts that name no merchant trade. */
  readonly classes: readonly (string | null)[];
  /** log2 of the number of hash buckets. */
  readonly bucketBits: number;
  /** Softmax temperature fitted on held-out generated text: turns scores into calibrated probabilities. */
  readonly temperature: number;
  /** Below this probability the model does not answer. */
  readonly threshold: number;
  /** int8 weight × scale = weight. */
  readonly scale: number;
  readonly bias: Float32Array;
  /** Bucket b's entries are [offsets[b], offsets[b + 1]). */
  readonly offsets: Uint32Array;
  readonly entryClass: Uint8Array;
  readonly entryWeight: Int8Array;
}

export interface ModelVerdict {
  /** The most probable sub-category of the most probable merchant category. */
  readonly sub_category_id: string;
  /**
   * Calibrated probability that the merchant is of that category (its sub-categories summed): the
   * category is what most often matters, and near-synonym sub-categories split their mass.
   */
  readonly probability: number;
  /** Calibrated probability that the text names no merchant trade at all. */
  readonly none: number;
  /** The features that pushed most towards the winning sub-category, readable (`gram:pharm`). */
  readonly features: readonly string[];
}

export class MerchantModel {
  private readonly mask: number;
  private readonly classCount: number;
  /** Category index of each class (-1 for "no trade"), and how many categories there are. */
  private readonly categoryOf: Int16Array;
  private readonly categoryCount: number;
  /**
   * Each weight entry as one 16-bit number, its class in the high byte and its int8 weight in the
   * low one: a feature's entries are then one run of memory, not two arrays' (the weights are
   * megabytes, far larger than a core's cache, and a lookup is a cache miss per array touched).
   */
  private readonly entries: Uint16Array;
  // Scratch space for classify, reused: allocating and zeroing it per call cost more than the
  // arithmetic. Nothing in it outlives a call, so results do not depend on earlier calls.
  private readonly featureBuffer = new Uint32Array(MAX_FEATURES);
  private readonly entryStart = new Uint32Array(MAX_FEATURES);
  private readonly entryEnd = new Uint32Array(MAX_FEATURES);
  private readonly nameBuffer = new Uint32Array(MAX_FEATURES);
  private readonly sumBuffer: Int32Array;
  private readonly probabilityBuffer: Float64Array;
  private readonly categoryBuffer: Float64Array;

  constructor(readonly data: MerchantModelData) {
    this.mask = (1 << data.bucketBits) - 1;
    this.classCount = data.classes.length;
    const categories = new Map<string, number>();
    this.categoryOf = new Int16Array(this.classCount);
    data.classes.forEach((id, k) => {
      if (id === null) {
        this.categoryOf[k] = -1;
        return;
      }
      const category = id.slice(0, id.indexOf('-'));
      if (!categories.has(category)) categories.set(category, categories.size);
      this.categoryOf[k] = categories.get(category) as number;
    });
    this.categoryCount = categories.size;
    this.sumBuffer = new Int32Array(this.classCount);
    this.probabilityBuffer = new Float64Array(this.classCount);
    this.categoryBuffer = new Float64Array(this.categoryCount);
    if (data.offsets.length !== (1 << data.bucketBits) + 1) {
      throw new Error(`merchant model: ${data.offsets.length} offsets for 2^${data.bucketBits} buckets`);
    }
    if (data.bias.length !== this.classCount) throw new Error('merchant model: one bias per class expected');
    if (this.classCount > 256) throw new Error('merchant model: at most 256 classes');
    this.entries = new Uint16Array(data.entryClass.length);
    for (let e = 0; e < this.entries.length; e++) {
      this.entries[e] = ((data.entryClass[e] as number) << 8) | ((data.entryWeight[e] as number) & 0xff);
    }
  }

  get id(): string {
    return this.data.id;
  }

  get threshold(): number {
    return this.data.threshold;
  }

  /** The model's answer for the words of a merchant name; null when there are none. */
  classify(tokens: readonly string[]): ModelVerdict | null {
    if (tokens.length === 0) return null;
    const buckets = this.featureBuffer;
    const count = extractFeatures(tokens, buckets);
    if (count === 0) return null;
    const d = this.decide(buckets, count);
    return {
      sub_category_id: this.data.classes[d.best] as string,
      probability: d.probability,
      none: d.none,
      features: this.strongest(tokens, buckets, count, d.best),
    };
  }

  /**
   * The winning class index (the best sub-category of the most probable category), that
   * category's probability, and the probability of "no trade".
   */
  decide(buckets: Uint32Array, count: number): { best: number; probability: number; none: number } {
    const p = this.probabilitiesInto(this.probabilityBuffer, buckets, count);
    const byCategory = this.categoryBuffer.fill(0);
    let none = 0;
    for (let k = 0; k < this.classCount; k++) {
      const c = this.categoryOf[k] as number;
      if (c >= 0) byCategory[c] = (byCategory[c] as number) + (p[k] as number);
      else none += p[k] as number;
    }
    let category = 0;
    for (let c = 1; c < this.categoryCount; c++) {
      if ((byCategory[c] as number) > (byCategory[category] as number)) category = c;
    }
    let best = -1;
    for (let k = 0; k < this.classCount; k++) {
      if (this.categoryOf[k] === category && (best < 0 || (p[k] as number) > (p[best] as number))) best = k;
    }
    return { best, probability: byCategory[category] as number, none };
  }

  /** Calibrated class probabilities for the given feature hashes, written into `out`. */
  private probabilitiesInto(out: Float64Array, buckets: Uint32Array, count: number): Float64Array {
    const scores = this.scoresInto(out, buckets, count);
    const t = this.data.temperature;
    let max = -Infinity;
    for (const s of scores) if (s > max) max = s;
    let sum = 0;
    for (let k = 0; k < scores.length; k++) {
      const e = Math.exp(((scores[k] as number) - max) / t);
      scores[k] = e;
      sum += e;
    }
    for (let k = 0; k < scores.length; k++) scores[k] = (scores[k] as number) / sum;
    return scores;
  }

  /** Raw class scores (before temperature) for the given feature hashes. */
  scores(buckets: Uint32Array, count: number): Float64Array {
    return this.scoresInto(new Float64Array(this.classCount), buckets, count);
  }

  private scoresInto(out: Float64Array, buckets: Uint32Array, count: number): Float64Array {
    const { bias, offsets, scale } = this.data;
    const { entries, entryStart, entryEnd, mask } = this;
    // The int8 weights are summed as integers (exact, in any order), then scaled once per class.
    const sums = this.sumBuffer.fill(0);
    // Where each feature's entries are, first for all features: these reads do not wait for one
    // another, so the memory system fetches them together instead of one miss after the other.
    for (let f = 0; f < count; f++) {
      const b = (buckets[f] as number) & mask;
      entryStart[f] = offsets[b] as number;
      entryEnd[f] = offsets[b + 1] as number;
    }
    for (let f = 0; f < count; f++) {
      const end = entryEnd[f] as number;
      for (let e = entryStart[f] as number; e < end; e++) {
        const v = entries[e] as number;
        sums[v >>> 8] = (sums[v >>> 8] as number) + ((v << 24) >> 24);
      }
    }
    // Each feature counts 1/sqrt(n): long texts do not get more confident just by being long. No
    // features leave the biases (0 × Infinity would be NaN).
    const x = count > 0 ? scale / Math.sqrt(count) : 0;
    for (let k = 0; k < this.classCount; k++) out[k] = (sums[k] as number) * x + (bias[k] as number);
    return out;
  }

  private weightOf(bucket: number, cls: number): number {
    const { offsets } = this.data;
    const b = bucket & this.mask;
    const end = offsets[b + 1] as number;
    for (let e = offsets[b] as number; e < end; e++) {
      const v = this.entries[e] as number;
      if (v >>> 8 === cls) return (v << 24) >> 24;
    }
    return 0;
  }

  /** The three features with the largest weight towards `cls`, by name. */
  private strongest(tokens: readonly string[], buckets: Uint32Array, count: number, cls: number): string[] {
    // The three largest weights, earliest first on ties; a feature repeated in the text is one.
    const index = [-1, -1, -1];
    const weight = [0, 0, 0];
    for (let f = 0; f < count; f++) {
      const w = this.weightOf(buckets[f] as number, cls);
      if (w <= (weight[2] as number)) continue;
      let repeated = false;
      for (let j = 0; j < 3 && !repeated; j++)
        repeated = (index[j] as number) >= 0 && buckets[index[j] as number] === buckets[f];
      if (repeated) continue;
      // Insert in order: a later feature goes after earlier ones of the same weight.
      let at = 2;
      while (at > 0 && w > (weight[at - 1] as number)) {
        index[at] = index[at - 1] as number;
        weight[at] = weight[at - 1] as number;
        at--;
      }
      index[at] = f;
      weight[at] = w;
    }
    const chosen = index.filter((i) => i >= 0);
    if (chosen.length === 0) return [];
    const names: string[] = [];
    extractFeatures(tokens, this.nameBuffer, names, new Set(chosen));
    return chosen.map((i) => names[i] as string);
  }
}
