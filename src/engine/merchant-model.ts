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
    if (data.offsets.length !== (1 << data.bucketBits) + 1) {
      throw new Error(`merchant model: ${data.offsets.length} offsets for 2^${data.bucketBits} buckets`);
    }
    if (data.bias.length !== this.classCount) throw new Error('merchant model: one bias per class expected');
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
    const buckets = new Uint32Array(MAX_FEATURES);
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
    const p = this.probabilities(buckets, count);
    const byCategory = new Float64Array(this.categoryCount);
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

  /** Calibrated class probabilities for the given feature hashes. */
  probabilities(buckets: Uint32Array, count: number): Float64Array {
    const scores = this.scores(buckets, count);
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
    const { bias, offsets, entryClass, entryWeight, scale } = this.data;
    const scores = new Float64Array(this.classCount);
    // Each feature counts 1/sqrt(n): long texts do not get more confident just by being long.
    const x = scale / Math.sqrt(count);
    for (let f = 0; f < count; f++) {
      const b = (buckets[f] as number) & this.mask;
      const end = offsets[b + 1] as number;
      for (let e = offsets[b] as number; e < end; e++) {
        const k = entryClass[e] as number;
        scores[k] = (scores[k] as number) + (entryWeight[e] as number) * x;
      }
    }
    for (let k = 0; k < this.classCount; k++) scores[k] = (scores[k] as number) + (bias[k] as number);
    return scores;
  }

  private weightOf(bucket: number, cls: number): number {
    const { offsets, entryClass, entryWeight } = this.data;
    const b = bucket & this.mask;
    const end = offsets[b + 1] as number;
    for (let e = offsets[b] as number; e < end; e++) {
      if (entryClass[e] === cls) return entryWeight[e] as number;
    }
    return 0;
  }

  /** The three features with the largest weight towards `cls`, by name. */
  private strongest(tokens: readonly string[], buckets: Uint32Array, count: number, cls: number): string[] {
    // The three largest weights, earliest first on ties; a feature repeated in the text is one.
    const top: { index: number; weight: number; bucket: number }[] = [];
    for (let f = 0; f < count; f++) {
      const weight = this.weightOf(buckets[f] as number, cls);
      if (weight <= 0 || top.some((t) => t.bucket === buckets[f])) continue;
      if (top.length === 3 && weight <= (top[2] as { weight: number }).weight) continue;
      top.push({ index: f, weight, bucket: buckets[f] as number });
      top.sort((a, b) => b.weight - a.weight || a.index - b.index);
      if (top.length > 3) top.pop();
    }
    if (top.length === 0) return [];
    const names: string[] = [];
    extractFeatures(tokens, new Uint32Array(MAX_FEATURES), names, new Set(top.map((t) => t.index)));
    return top.map((t) => names[t.index] as string);
  }
}
