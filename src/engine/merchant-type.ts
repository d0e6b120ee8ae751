/**
 * What the merchant-type model reads of a transaction: the words that name the merchant (the bank's
 * merchant name, then the merchant part of the description), without filler words, codes, store
 * numbers, card masks and country names. The training script builds its examples through this same function,
 * so the model learns from exactly what it will be shown.
 */
import type { ModelVerdict } from './merchant-model.js';
import { MAX_MODEL_TOKENS } from './merchant-features.js';
import type { LexiconHits, NormalizedText } from './normalize.js';
import type { Snapshot } from './snapshot.js';
import { stripArabicArticle } from './text.js';
import { WORD } from './vocabulary.js';

const DIGITS_ONLY = /^\d+$/;
/** A card mask's letters (`XXXX1234` splits into `xxxx` and digits) and codes with a run of digits. */
const MASK = /^x+$/;
const CODE = /\d{4}/;
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
      if (DIGITS_ONLY.test(t) || MASK.test(t) || CODE.test(t)) continue;
      if (t.length === 1 && !ARABIC_LETTER.test(t)) continue;
      words.push(t);
    }
  };
  take(
    text.merchantTokens,
    text.merchantIds,
    0,
    withoutPlaceTail(text.merchantTokens, text.merchantIds, 0, text.merchantTokens.length, snapshot),
    ruleWords(text.merchantHits, []),
  );
  const [start, end] = text.segment;
  take(
    text.tokens,
    text.ids,
    start,
    withoutPlaceTail(text.tokens, text.ids, start, end, snapshot),
    ruleWords(text.hits, text.masked),
  );
  return words;
}

/** Country names and codes and region codes; cities are whole names (`city` alone is none). */
const PLACE = WORD.country | WORD.region;

/**
 * Where the merchant's words end before the city, region and country a descriptor prints after them
 * (`SHELL HAMMERSMITH LONDON GB`: `shell hammersmith`), with the codes and filler words among them.
 * A place says where, never what trade: read it, and `DUBAI` or `LONDON` pulls towards whatever
 * trades the corpus names after cities. Only a tail goes (`ABU DHABI COOP` keeps its city), and a
 * text of places only is read whole.
 */
function withoutPlaceTail(
  tokens: readonly string[],
  ids: readonly number[],
  from: number,
  to: number,
  snapshot: Snapshot,
): number {
  if (to - from < 2) return to;
  const vocabulary = snapshot.vocabulary;
  const place = new Array<boolean>(to).fill(false);
  for (const m of snapshot.cities.searchIds(ids, from, to))
    for (let i = m.start; i < m.end; i++) place[i] = true;
  let end = to;
  let places = 0;
  while (end > from) {
    const i = end - 1;
    const flags = vocabulary.flags(ids[i] as number);
    const t = tokens[i] as string;
    if (place[i] || (flags & PLACE) !== 0) places++;
    else if (!((flags & WORD.noise) !== 0 || DIGITS_ONLY.test(t) || CODE.test(t) || t.length === 1)) break;
    end--;
  }
  return places === 0 || end === from ? to : end;
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

/** An East Slavic patronymic in Latin letters (`vladimirovna`, `ivanovych`), or a Kazakh one (`uly`). */
const PATRONYMIC = /^[a-z]{3,}(?:vich|vych|ich|vna|ichna|ivna|uly|kyzy)$/;
/** Words a name never is: trade and rule words; places and filler words are read past. */
const NOT_A_NAME = WORD.term;
const READ_PAST = WORD.noise | WORD.country | WORD.city | WORD.region;

/**
 * Whether the merchant's words are a sole proprietor's legal form and its owner's name only
 * (`ИП ПЕТРОВА А.В.`, `FOP SHEVCHENKO TARAS IVANOVYCH`): a surname (or two) with initials, or a
 * full name ending in a patronymic, says it is a person. A name is no trade word, and read as one it
 * pulls the model anywhere (`petrova` towards petrol). The bank's merchant name is read when it has
 * one, else the description's merchant part.
 */
export function namesOnlyAnOwner(text: NormalizedText, snapshot: Snapshot): boolean {
  const forms = snapshot.soleProprietorForms;
  const vocabulary = snapshot.vocabulary;
  const [start, end] = text.segment;
  // A form that is also a filler word (`FOP`, like `OOO`) may stand just before the merchant part.
  const from = start > 0 && forms.has(text.tokens[start - 1] as string) ? start - 1 : start;
  const merchant = text.merchantTokens.length > 0;
  const tokens = merchant ? text.merchantTokens : text.tokens.slice(from, end);
  const ids = merchant ? text.merchantIds : text.ids.slice(from, end);
  const form = tokens.findIndex((t) => !DIGITS_ONLY.test(t));
  if (form < 0 || !forms.has(tokens[form] as string)) return false;
  let names = 0;
  let initials = false;
  let patronymic = false;
  for (let i = form + 1; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const flags = vocabulary.flags(ids[i] as number);
    if (DIGITS_ONLY.test(t) || CODE.test(t)) continue;
    if (t.length === 1) initials = true;
    else if ((flags & NOT_A_NAME) !== 0) return false;
    else if ((flags & READ_PAST) !== 0) continue;
    else {
      names++;
      patronymic = PATRONYMIC.test(t);
    }
  }
  return names > 0 && ((initials && names <= 2) || (patronymic && names <= 3));
}

/** A person's name is a given name and a surname, with at most one more name between them. */
const MAX_PERSON_NAME_WORDS = 3;

/**
 * Whether the merchant's words are a person's name and nothing else (`SQ *JOHN SMITH`, `ZETTLE
 * *MARIA GARCIA`): someone selling through a card reader or a payment link, whose trade the name does
 * not tell. Read as a trade, a name pulls the model anywhere (`john` towards clothing). A given
 * name first and a surname last, each in the name lists (data/person-names.json, which leave out the
 * most common English words so that `ROSE HILL` may be a florist's); a word of any other kind, a
 * trade's (`DDS`, `PLUMBING`) or a place's, and the model reads the words as usual.
 */
export function namesOnlyAPerson(words: readonly string[], snapshot: Snapshot): boolean {
  if (words.length < 2 || words.length > MAX_PERSON_NAME_WORDS) return false;
  const { given, surnames } = snapshot.personNames;
  const last = words.length - 1;
  return words.every((w, i) =>
    i === 0 ? given.has(w) : i === last ? surnames.has(w) : given.has(w) || surnames.has(w),
  );
}

/** The model's decision for a transaction that no brand, rule or MCC decided, or null without a model. */
export function modelDecision(text: NormalizedText, snapshot: Snapshot): ModelDecision | null {
  const model = snapshot.model;
  if (!model) return null;
  if (namesOnlyAnOwner(text, snapshot))
    return { sub_category_id: null, confidence: 0, reason: `model:${model.id}:declined owner-name` };
  const words = merchantTypeWords(text, snapshot);
  if (namesOnlyAPerson(words, snapshot))
    return { sub_category_id: null, confidence: 0, reason: `model:${model.id}:declined person-name` };
  const verdict = model.classify(words);
  if (!verdict) return null;
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
