/**
 * What the merchant-type model reads of a transaction: the words that name the merchant (the bank's
 * merchant name, then the merchant part of the description), without filler words, codes, store
 * numbers and country names. The training script builds its examples through this same function,
 * so the model learns from exactly what it will be shown.
 */
import type { ModelVerdict } from './merchant-model.js';
import { MAX_MODEL_TOKENS } from './merchant-features.js';
import type { LexiconHits, NormalizedText } from './normalize.js';
import type { Snapshot } from './snapshot.js';
import { stripArabicArticle } from './text.js';
import { WORD } from './vocabulary.js';

const DIGITS_ONLY = /^\d+$/;
const ARABIC_LETTER = /[\u0621-\u064a]/;
const SKIPPED = WORD.noise | WORD.country;

export function merchantTypeWords(text: NormalizedText, snapshot: Snapshot): string[] {
  const words: string[] = [];
  const vocabulary = snapshot.vocabulary;
  const take = (
    tokens: readonly string[],
    ids: readonly number[],
    from: number,
    to: number,
    skip: readonly boolean[],
  ): void => {
    for (let i = from; i < to && words.length < MAX_MODEL_TOKENS; i++) {
      if (skip[i]) continue;
      const t = stripArabicArticle(tokens[i] as string);
      if ((vocabulary.flags(ids[i] as number) & SKIPPED) !== 0) continue;
      if (DIGITS_ONLY.test(t) || (t.length === 1 && !ARABIC_LETTER.test(t))) continue;
      words.push(t);
    }
  };
  take(
    text.merchantTokens,
    text.merchantIds,
    0,
    text.merchantTokens.length,
    ruleWords(text.merchantHits, []),
  );
  take(text.tokens, text.ids, text.segment[0], text.segment[1], ruleWords(text.hits, text.masked));
  return words;
}

/**
 * Tokens that are not merchant words: a non-merchant rule's phrase (`REFUND`, `CASH WITHDRAWAL`)
 * and a wallet's or processor's name.
 */
function ruleWords(hits: LexiconHits, masked: readonly boolean[]): readonly boolean[] {
  if (hits.patterns.length === 0) return masked;
  const skip = masked.slice();
  for (const m of hits.patterns) for (let i = m.start; i < m.end; i++) skip[i] = true;
  return skip;
}

/** The model's verdict on a transaction's merchant words, or null without a model or words. */
export function classifyMerchant(text: NormalizedText, snapshot: Snapshot): ModelVerdict | null {
  if (!snapshot.model) return null;
  const words = merchantTypeWords(text, snapshot);
  return words.length === 0 ? null : snapshot.model.classify(words);
}

/** How the model decided, for categorize: an answer, or why it gave none. */
export interface ModelDecision {
  /** The sub-category when the model answers; null when it declines (below threshold, no trade). */
  readonly sub_category_id: string | null;
  readonly confidence: number;
  readonly reason: string;
}

/** The model's decision for a transaction that no brand, rule or MCC decided, or null without a model. */
export function modelDecision(text: NormalizedText, snapshot: Snapshot): ModelDecision | null {
  const model = snapshot.model;
  const verdict = classifyMerchant(text, snapshot);
  if (!model || !verdict) return null;
  const p = Math.round(verdict.probability * 100) / 100;
  const features = verdict.features.join(', ');
  if (verdict.probability < model.threshold) {
    const none = Math.round(verdict.none * 100) / 100;
    return {
      sub_category_id: null,
      confidence: 0,
      reason: `model:${model.id}:below-threshold ${verdict.sub_category_id} p=${p}<${model.threshold} no-trade=${none} [${features}]`,
    };
  }
  // Calibrated on generated text, which is cleaner than real text: never surer than an MCC.
  return {
    sub_category_id: verdict.sub_category_id,
    confidence: Math.min(0.75, verdict.probability),
    reason: `model:${model.id} p=${p} [${features}]`,
  };
}
