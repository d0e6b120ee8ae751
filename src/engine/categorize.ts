/**
 * Decides the sub-category, in a fixed order: the bank's own flags, then non-merchant patterns
 * (salary, ATM, fees, transfers, loans...), then the brand, then the MCC, then keywords, then
 * Miscellaneous. Refunds keep the merchant's category.
 */
import type { RuleKind } from '../data/schemas.js';
import type { TokenMatch } from './automaton.js';
import { CASH_WORDS, hasCashMachines, isBank, OTHER_FINANCIAL } from './banks.js';
import { chooseLine } from './lines.js';
import type { BrandMatch } from './match.js';
import { modelDecision } from './merchant-type.js';
import type { NormalizedText } from './normalize.js';
import {
  ANY_SELLER_RANK,
  MIN_CUT_KEYWORD,
  type KeywordRef,
  type PatternRef,
  type Snapshot,
} from './snapshot.js';
import { tokenize } from './text.js';
import { WORD } from './vocabulary.js';

export type Direction = 'DEBIT' | 'CREDIT';

export interface CategoryDecision {
  readonly sub_category_id: string;
  readonly confidence: number;
  readonly reason: string;
  /** The non-merchant rule that decided, if one did: such rows carry no brand. */
  readonly rule: RuleKind | 'self_transfer' | null;
  readonly refund: boolean;
}

export interface CategorizeInput {
  readonly direction: Direction;
  readonly is_transfer: boolean;
  readonly is_self_transaction: boolean;
  readonly mcc: string;
  readonly text: NormalizedText;
  readonly brand: BrandMatch | null;
  /** A sub-category learned from feedback for this merchant, if any. */
  readonly learnedSubCategory: string | null;
  /** The account's country (ISO alpha-2, upper case): a transfer to another country is a remittance. */
  readonly country: string;
}

/** Kinds in the order they win when several phrases are present. */
const PRIORITY: readonly RuleKind[] = [
  'salary',
  'pension',
  'rental_income',
  'other_income',
  'card_payment',
  'atm_service',
  'atm_deposit',
  'atm_withdrawal',
  'cash_advance',
  'loan_mortgage',
  'loan_car',
  'loan_student',
  'loan_personal',
  'insurance_claim',
  'dividend',
  'bank_fee',
  'own_account',
  // A payment that names the tax (`PRLV SEPA DGFIP IMPOT`, `TRANSFER TO HMRC SELF ASSESSMENT`) is the
  // tax, whatever rail carried it.
  'tax',
  'remittance',
  'currency_exchange',
  'cheque',
  'wallet_topup',
  'transfer',
  'loan_other',
  'interest',
  'deposit',
  'refund',
];

const INCOME_KINDS = ['salary', 'pension'] as const;

/**
 * On a row the bank flags as a transfer, the words that say which kind of transfer it is (or that
 * it is income): a loan paid out, an insurance claim, a cheque or cash paid in, a wallet topped up,
 * dividends and rent received. The flag says money moved; these say why. In priority order: the
 * sub-category for money coming in and for money going out, null to keep Account Transfer.
 */
const TRANSFER_SUB_KINDS: readonly (readonly [
  RuleKind,
  { inward: string | null; outward: string | null },
])[] = [
  ['own_account', { inward: '14-4', outward: '15-1' }],
  ['rental_income', { inward: '8-5', outward: null }],
  ['dividend', { inward: '8-3', outward: null }],
  ['insurance_claim', { inward: '14-6', outward: null }],
  ['loan_mortgage', { inward: '14-1', outward: null }],
  ['loan_car', { inward: '14-1', outward: null }],
  ['loan_student', { inward: '14-1', outward: null }],
  ['loan_personal', { inward: '14-1', outward: null }],
  ['cash_advance', { inward: '14-1', outward: null }],
  ['cheque', { inward: '14-2', outward: '15-4' }],
  ['atm_deposit', { inward: '14-2', outward: null }],
  ['deposit', { inward: '14-2', outward: null }],
  ['wallet_topup', { inward: null, outward: '15-4' }],
];
const NO_KINDS: readonly RuleKind[] = [];
const NO_TRANSFER_SUB_KINDS: typeof TRANSFER_SUB_KINDS = [];

/** Rules a matched non-financial brand overrides (`GEMS SCHOOL FEES` is a school, not a bank fee). */
const BRAND_OVERRIDES = new Set<RuleKind>([
  'bank_fee',
  'interest',
  'loan_other',
  'tax',
  'cheque',
  'deposit',
  // Rails and wordings that also carry purchases: `SEPA-LASTSCHRIFT TELEKOM`, `CARD PAYMENT TO
  // SAINSBURYS`, `IRCTC WEB UPI`, `T-MOBILE AUTOPAY`.
  'transfer',
  'card_payment',
  'other_income',
]);

/**
 * Instalment wordings that a buy-now-pay-later provider's name turns into its own business: `TABBY
 * INSTALMENT 2/4` is a purchase paid in parts, not a loan.
 */
const BNPL_INSTALMENT_RULES = new Set<RuleKind>(['loan_other', 'loan_personal']);
/** Financial Services / Buy-Now-Pay-Later. */
const BNPL = '1-2';
/**
 * Rails that carry a lender's instalment: a direct debit or transfer to a consumer-credit company
 * (`PRLV SEPA CETELEM`) repays its loan.
 */
const LENDER_PAYMENT_RULES = new Set<RuleKind>(['transfer']);
/** Loan & Credit Payments: the category of lenders' brands. */
const LOANS = '9';

/** Generic wordings that yield to a purpose named in the same text (`SCHOOL TRANSPORT FEE`). */
const YIELDS_TO_PURPOSE = new Set<RuleKind>(['bank_fee', 'transfer', 'cheque']);
/**
 * Purposes that outrank a generic fee or transfer wording: rent, utilities (district cooling and
 * waste too: `CHILLER CHARGES`), parking, hospitals, nurseries, schools, government. Not trades
 * whose words a bank's own charge also uses (`SMS ALERT CHARGES`, `INTERNET BANKING FEE`).
 */
const PURPOSE_SUB_CATEGORIES = new Set([
  '11-1',
  '11-2',
  '11-3',
  '11-4',
  '11-5',
  '11-6',
  '16-1',
  '10-1',
  '12-4',
  '19-1',
  '19-2',
  '19-3',
  '5-1',
  '5-2',
  '5-3',
]);

/** Rules where a matched bank or card issuer is the counterparty, not just the channel. */
const BANK_COUNTERPARTY_RULES = new Set<RuleKind>([
  'card_payment',
  'loan_mortgage',
  'loan_car',
  'loan_student',
  'loan_personal',
  'loan_other',
  'bank_fee',
  'interest',
]);

/**
 * Sending money abroad or buying currency through a remittance or exchange house: the house is the
 * business the customer chose (and pays), so it keeps its brand, unlike a bank that only carries a
 * transfer.
 */
const MONEY_TRANSFER_RULES = new Set<RuleKind>(['remittance', 'currency_exchange']);
/** Default sub-categories of remittance and exchange houses (Transfer Out Remittance, Currency Exchange). */
const MONEY_TRANSFER_BUSINESSES = new Set(['15-3', '21-1']);

/** Insurance Services: insurers. */
const INSURANCE = '12-2';

const TAX_PAYMENT = '5-1';
/** Tax offices and government departments and agencies. */
const PUBLIC_BODIES = new Set([TAX_PAYMENT, '5-2']);
const TAX_REFUND = '8-6';

/** Categories whose brands are themselves financial counterparties. */
const FINANCIAL_CATEGORIES = new Set(['1', '9', '14', '15', '21']);

/** Words of paying a bill: said to a card issuer (`CITI CARD ONLINE PAYMENT`), they pay its card. */
const PAYMENT_WORDS = new Set(['payment', 'pmt', 'pymt', 'epay', 'epayment', 'repayment']);
/** The loans a debit's wording names more precisely than an autopay does (`WF HOME MTG AUTO PAY`). */
const LOAN_KINDS: readonly RuleKind[] = ['loan_mortgage', 'loan_car', 'loan_student', 'loan_personal'];
/**
 * A card-payment wording that names no card (`AUTOPAY`, `PAYMENT RECEIVED`) says less than a loan
 * named beside it on a debit (`WF HOME MTG AUTO PAY`) or a transfer's rail (`FASTER PAYMENT RECEIVED
 * FROM A JONES`).
 */
function yieldsToOther(found: ReadonlyMap<RuleKind, unknown>, inward: boolean): boolean {
  return found.has('transfer') || (!inward && LOAN_KINDS.some((k) => found.has(k)));
}

/** A card-payment wording that names a card; the others (`AUTOPAY`, `PAYMENT THANK YOU`) pay any bill. */
const NAMES_A_CARD = /card|credit|\bcc\b|crd|visa|بطاق|كارت|فيزا|карт|kart|tarjeta/;

/** A card-payment wording that names a credit or store card account, not a purchase made by card. */
const NAMES_A_CARD_ACCOUNT =
  /credit|\bcc\b|crd|store card|card s(?:ervices?|rvcs?)\b|kredit|кредит|ائتمان|ايتمان/;

/**
 * A shop's name with a card account's payment wording on a debit pays the shop's store or
 * co-branded card (`MACYS CREDIT CARD PAYMENT`, `HOME DEPOT CREDIT SERVICES PMT`): a bank runs that
 * card, so the shop is no brand of the row. Not in an alert sentence, whose own wording (`credit
 * card payment of AED 50 at …`) describes the purchase.
 */
function paysAStoreCard(kind: RuleKind, phrase: string, input: CategorizeInput): boolean {
  return (
    kind === 'card_payment' &&
    input.direction === 'DEBIT' &&
    !input.text.alert &&
    NAMES_A_CARD_ACCOUNT.test(phrase)
  );
}

/** The trade word is part of the matched brand's name: `KASPI GOLD` is a card, not a gold shop. */
function inBrandName(word: string, input: CategorizeInput): boolean {
  const alias = input.brand?.alias;
  if (alias === undefined) return false;
  const own = tokenize(alias);
  return tokenize(word).every((w) => own.includes(w));
}

/** The text holds an alert's word for a purchase or payment (`Oplata`, `شراء`, `achat`). */
function namesAPurchase(text: NormalizedText, snapshot: Snapshot): boolean {
  return text.tokens.some((t) => snapshot.alertWords.purchaseWords.has(t));
}

/**
 * The merchant's words are the bank's matched name followed by a city, and nothing else: another
 * name's words beside it (a biller paid through the bank) make it no cash machine. A country after
 * a bank's name is more often part of the name (`AL SALAM BANK ALGERIA`).
 */
function onlyNameAndPlace(text: NormalizedText, alias: string | undefined, snapshot: Snapshot): boolean {
  const merchant = text.merchant();
  if (merchant.trailingCities === 0 || text.merchantTokens.length > 0 || alias === undefined) return false;
  // Every word is the bank's name (`BANK MUSCAT RUWI` keeps `BANK`: Muscat is also the city).
  const own = tokenize(alias);
  const glued = own.join('');
  if (!merchant.merchantKey.split(' ').every((w) => own.includes(w) || w === glued)) return false;
  // A city of the name's own is no place of a machine (`NATIONAL BANK OF FUJAIRAH` is the bank,
  // `BANK MUSCAT RUWI` its machine in Ruwi).
  const [start, end] = text.segment;
  for (let i = start; i < end; i++) {
    const t = text.tokens[i] as string;
    if (!own.includes(t) && snapshot.vocabulary.is(t, WORD.city)) return true;
  }
  return false;
}

/** A keyword that is also a word printed around names (`DR` is a doctor and a debit) says no trade. */
function isNoise(word: string, snapshot: Snapshot): boolean {
  return tokenize(word).some((t) => snapshot.vocabulary.is(t, WORD.noise));
}

/**
 * The keyword is a word of the rule's own phrase: `ШТРАФ ЗА ПРОСРОЧКУ` is the bank's late fee, not
 * a fine paid to the state, though `ШТРАФ` alone names one.
 */
function withinPhrase(word: string, phrase: string): boolean {
  return ` ${tokenize(phrase).join(' ')} `.includes(` ${tokenize(word).join(' ')} `);
}

/** A keyword names a shop's trade: not money moving, not a word any seller uses. */
function isShopTrade(keyword: KeywordRef): boolean {
  const sub = keyword.sub_category_id;
  const category = sub.slice(0, sub.indexOf('-'));
  return keyword.rank !== ANY_SELLER_RANK && !FINANCIAL_CATEGORIES.has(category) && category !== '2';
}

export function categorize(input: CategorizeInput, snapshot: Snapshot): CategoryDecision {
  const { direction } = input;
  const inward = direction === 'CREDIT';
  if (input.is_self_transaction) {
    return decided(inward ? '14-4' : '15-1', 0.98, 'flag:is_self_transaction', 'self_transfer');
  }

  const found = findPatterns(input.text, direction);
  const brandCategory = input.brand ? input.brand.brand.category_id : null;
  // Money from a tax office or a ministry (a refund, a benefit) was bought from nobody: the text's
  // words decide, and the body is no brand of the row (`HMRC CHILD BENEFIT`, `IRS TREAS 310 TAX REF`).
  const fromAuthority =
    inward && input.brand !== null && PUBLIC_BODIES.has(input.brand.brand.sub_category_id);
  const brandIsMerchant =
    brandCategory !== null && !FINANCIAL_CATEGORIES.has(brandCategory) && !fromAuthority;
  const moneyTransferBrand =
    input.brand !== null && MONEY_TRANSFER_BUSINESSES.has(input.brand.brand.sub_category_id);
  const bnplBrand = input.brand?.brand.sub_category_id === BNPL;

  // Salary and pension arrive as transfers; the flag must not hide them.
  if (inward && found.size > 0) {
    for (const kind of INCOME_KINDS) {
      const p = found.get(kind);
      if (p) return decided(kind === 'salary' ? '8-2' : '8-1', 0.95, `pattern:${kind}:"${p.phrase}"`, kind);
    }
  }

  if (input.is_transfer) {
    // A transfer through an exchange house (`... EXCHANGE FX`, `صرافة`) is a remittance too.
    const remittance =
      found.get('remittance') ??
      found.get('currency_exchange') ??
      (input.brand?.brand.sub_category_id === '15-3' ? input.brand : undefined) ??
      foreignCountry(input, snapshot);
    if (remittance) {
      const rule = moneyTransferBrand ? null : 'remittance';
      return decided(inward ? '14-5' : '15-3', 0.95, 'flag:is_transfer+remittance', rule);
    }
    for (const [kind, subs] of found.size > 0 ? TRANSFER_SUB_KINDS : NO_TRANSFER_SUB_KINDS) {
      const p = found.get(kind);
      if (!p || (brandIsMerchant && BRAND_OVERRIDES.has(kind))) continue;
      const sub = inward ? subs.inward : subs.outward;
      if (sub) return decided(sub, 0.95, `flag:is_transfer+${kind}:"${p.phrase}"`, kind);
    }
    return decided(inward ? '14-3' : '15-2', 0.95, 'flag:is_transfer', 'transfer');
  }

  let refund = false;
  for (const kind of found.size > 0 ? PRIORITY : NO_KINDS) {
    const p = found.get(kind);
    if (!p) continue;
    if (kind === 'refund') {
      refund = true;
      continue;
    }
    if (brandIsMerchant && BRAND_OVERRIDES.has(kind) && !paysAStoreCard(kind, p.phrase, input)) continue;
    if (kind === 'card_payment' && !NAMES_A_CARD.test(p.phrase) && yieldsToOther(found, inward)) continue;
    // A refund or reversal credited to a card gives back a purchase; it pays no card.
    if (kind === 'card_payment' && inward && found.has('refund')) continue;
    if (bnplBrand && BNPL_INSTALMENT_RULES.has(kind)) continue;
    if (brandCategory === LOANS && !inward && LENDER_PAYMENT_RULES.has(kind)) continue;
    if (YIELDS_TO_PURPOSE.has(kind) && !inward) {
      const purpose = findKeyword(input.text, snapshot);
      if (
        purpose &&
        PURPOSE_SUB_CATEGORIES.has(purpose.sub_category_id) &&
        !isNoise(purpose.word, snapshot) &&
        !withinPhrase(purpose.word, p.phrase)
      ) {
        return decided(purpose.sub_category_id, 0.7, `${keywordReason(purpose)}+${kind}`, null, refund);
      }
    }
    if (kind === 'transfer' && !inward && p.tokens === 1) {
      // One transfer word beside a shop's trade word names the shop (`TRANSFER STATION CAFE`,
      // `WIRE HOUSE RESTAURANT`): the payment went to a merchant.
      const trade = findKeyword(input.text, snapshot);
      if (trade && isShopTrade(trade) && !isNoise(trade.word, snapshot) && !inBrandName(trade.word, input)) {
        return decided(trade.sub_category_id, 0.6, `${keywordReason(trade)}+${kind}`, null, refund);
      }
    }
    if (kind === 'transfer' && foreignCountry(input, snapshot)) {
      return decided(inward ? '14-5' : '15-3', 0.85, `pattern:transfer:"${p.phrase}"+abroad`, 'remittance');
    }
    const sub = subCategoryForRule(kind, direction, input);
    if (!sub) continue;
    // Paying a card issuer or a lender, or being charged by a bank: the bank is the counterparty
    // and keeps its brand. For transfers and salaries it is only the channel.
    // So does an insurer paying a claim, and whoever sells currency but a bank (`POST OFFICE TRAVEL
    // MONEY`, a department store's money changer).
    const counterparty =
      (brandCategory !== null && !brandIsMerchant && BANK_COUNTERPARTY_RULES.has(kind)) ||
      (moneyTransferBrand && MONEY_TRANSFER_RULES.has(kind)) ||
      (kind === 'insurance_claim' && input.brand?.brand.sub_category_id === INSURANCE) ||
      (kind === 'currency_exchange' && input.brand !== null && !isBank(input.brand.brand));
    return decided(sub, 0.9, `pattern:${kind}:"${p.phrase}"`, counterparty ? null : kind);
  }

  if (input.learnedSubCategory) {
    return decided(input.learnedSubCategory, 0.97, 'learned:merchant', null, refund);
  }
  if (input.brand) {
    const b = input.brand;
    const line = chooseLine(b.brand.lines, input.mcc, input.text, snapshot.lineWords);
    if (line) {
      const confidence = Math.min(0.95, b.confidence);
      return decided(
        line.line.sub_category_id,
        confidence,
        `brand:${b.brand.slug}+${line.reason}`,
        null,
        refund,
      );
    }
    // A debit from a bank with nothing else said (an invoice, a statement line) is the bank's charge.
    if (direction === 'DEBIT' && isBank(b.brand)) {
      // `CASH HALIFAX 23DEC`: UK statements print a cash machine withdrawal as the word and the bank.
      if (hasCashMachines(b.brand) && input.text.tokens.some((t) => CASH_WORDS.has(t))) {
        return decided('2-1', Math.min(0.9, b.confidence), `brand:${b.brand.slug}+cash`, 'atm_withdrawal');
      }
      // `CIB MAADI`, `QNB DOHA`: the bank's name and where its machine stands; a bank's own charge
      // names no place.
      if (hasCashMachines(b.brand) && onlyNameAndPlace(input.text, b.alias, snapshot)) {
        return decided('2-1', Math.min(0.8, b.confidence), `brand:${b.brand.slug}+place`, 'atm_withdrawal');
      }
      // `CITI CARD ONLINE PAYMENT`, `BK OF AMER VISA ONLINE PMT`, `NATWEST CREDIT CARD`: paying the
      // bank is paying its card.
      // In an alert sentence only the merchant's part counts: the alert's own wording (`Payment of
      // AED 50 at …`, `your credit card`) says nothing about whom the money went to.
      const [from, to] = input.text.alert ? input.text.segment : [0, input.text.tokens.length];
      const tokens = input.text.tokens.slice(from, to);
      if (
        tokens.some((t) => PAYMENT_WORDS.has(t)) ||
        (tokens.includes('credit') && tokens.includes('card'))
      ) {
        const card = subCategoryForRule('card_payment', direction, input);
        if (card) return decided(card, Math.min(0.85, b.confidence), `brand:${b.brand.slug}+payment`, null);
      }
      return decided('1-1', Math.min(0.9, b.confidence), `brand:${b.brand.slug}+bank-debit`, null, refund);
    }
    // Money from a tax authority is a tax refund, not a refunded tax payment (`HMRC` alone on a
    // credit); the authority is not a brand of it (above).
    if (inward && b.brand.sub_category_id === TAX_PAYMENT) {
      return decided(TAX_REFUND, Math.min(0.9, b.confidence), `brand:${b.brand.slug}+credit`, 'tax');
    }
    return decided(
      b.brand.sub_category_id,
      Math.min(0.97, b.confidence),
      b.brand.category_reason,
      null,
      refund,
    );
  }
  const fromMcc = input.mcc ? snapshot.mcc.get(input.mcc) : undefined;
  if (fromMcc) return decided(fromMcc, 0.8, `mcc:${input.mcc}`, null, refund);

  const keyword = findKeyword(input.text, snapshot);
  if (keyword && keyword.rank === ANY_SELLER_RANK && !inward) {
    // `store`, `trading`, `est`, `مؤسسة` say only that something is sold: the trade words around
    // them (`AL NOOR FOODSTUFF TRADING`) tell the model more.
    const model = modelDecision(input.text, snapshot);
    if (model?.sub_category_id)
      return decided(model.sub_category_id, model.confidence, model.reason, null, refund);
  }
  // Money in from a bank, a wallet or a money-transfer service (`WALLET TO ACCOUNT`) bought
  // nothing: it is money transferred in.
  if (keyword && inward && !refund && keyword.sub_category_id === OTHER_FINANCIAL) {
    return decided('14-7', 0.5, `${keywordReason(keyword)}+credit`, 'transfer');
  }
  if (keyword) return decided(keyword.sub_category_id, 0.6, keywordReason(keyword), null, refund);

  if (
    !inward &&
    input.text.intermediary === null &&
    input.text.merchant().locationOnly &&
    !namesAPurchase(input.text, snapshot)
  ) {
    // Bank SMS texts for cash withdrawals print the ATM's location where a merchant would be. A
    // processor, wallet or marketplace before the place (`PAYPAL PAY IN 3`), or an alert's purchase
    // word (`Oplata: 5.00 BYN; BLR A1`: the merchant's name was a code), says it was a purchase.
    return decided('2-1', 0.5, 'location-only:atm', 'atm_withdrawal');
  }
  if (inward && !refund) return decided('14-7', 0.4, 'fallback:credit', null);

  // A purchase (or its refund) from a merchant nothing above knows: the model reads its trade.
  const model = modelDecision(input.text, snapshot);
  if (model?.sub_category_id)
    return decided(model.sub_category_id, model.confidence, model.reason, null, refund);

  return decided(
    '20-1',
    0.2,
    model ? `fallback:miscellaneous; ${model.reason}` : 'fallback:miscellaneous',
    null,
    refund,
  );
}

function subCategoryForRule(kind: RuleKind, direction: Direction, input: CategorizeInput): string | null {
  const inward = direction === 'CREDIT';
  switch (kind) {
    case 'salary':
    case 'pension':
      return null; // only inward, handled above
    case 'rental_income':
      return '8-5';
    case 'other_income':
      return '8-7';
    case 'card_payment':
      return '9-5';
    case 'atm_deposit':
      return '2-2';
    case 'atm_service':
      return '2-3';
    case 'wallet_topup':
      return inward ? '14-7' : '15-4';
    case 'own_account':
      return inward ? '14-4' : '15-1';
    case 'atm_withdrawal':
      return inward ? '2-3' : '2-1';
    case 'cash_advance':
      return '14-1';
    case 'loan_mortgage':
      return inward ? '14-1' : '9-1';
    case 'loan_car':
      return inward ? '14-1' : '9-2';
    case 'loan_student':
      return inward ? '14-1' : '9-4';
    case 'loan_personal':
      return inward ? '14-1' : '9-3';
    case 'loan_other':
      return inward ? null : '9-6';
    case 'insurance_claim':
      return '14-6';
    case 'dividend':
      return '8-3';
    case 'bank_fee':
      return '1-1';
    case 'remittance':
      return inward ? '14-5' : '15-3';
    case 'currency_exchange':
      return '21-1';
    case 'cheque':
      return inward ? '14-2' : '15-4';
    case 'transfer':
      return inward ? '14-3' : '15-2';
    case 'tax':
      return inward ? '8-6' : '5-1';
    case 'interest':
      return inward ? '8-4' : '1-1';
    case 'deposit':
      // Money put in through a bank or wallet (`Пополнение 5000 ₸ Kaspi Gold`) is still a deposit.
      return input.brand && !FINANCIAL_CATEGORIES.has(input.brand.brand.category_id) ? null : '14-2';
    case 'refund':
      return null;
  }
}

/** The strongest phrase of each kind present, respecting each phrase's direction. */
const NO_PATTERNS: ReadonlyMap<RuleKind, PatternRef> = new Map();

// As the tokenizer folds them (`إلى` becomes `الي`).
const TO_WORDS = new Set(['to', ...tokenize('إلى')]);
const FROM_WORDS = new Set(['from', ...tokenize('من')]);

/**
 * The ISO code of another country the text sends money to (a debit: `TRANSFER TO INDIA`,
 * `حوالة إلى باكستان`) or receives it from (a credit: `FROM PAKISTAN`), or undefined. Only a country
 * named right after "to" or "from": a country name elsewhere is often part of a bank's or a shop's.
 */
function foreignCountry(input: CategorizeInput, snapshot: Snapshot): string | undefined {
  const { tokens, ids } = input.text;
  const words = input.direction === 'CREDIT' ? FROM_WORDS : TO_WORDS;
  for (const m of snapshot.countryNames.searchIds(ids)) {
    if (m.value !== input.country && m.start > 0 && words.has(tokens[m.start - 1] as string)) return m.value;
  }
  return undefined;
}

function findPatterns(text: NormalizedText, direction: Direction): ReadonlyMap<RuleKind, PatternRef> {
  if (text.hits.patterns.length === 0 && text.merchantHits.patterns.length === 0) return NO_PATTERNS;
  const found = new Map<RuleKind, PatternRef>();
  const consider = (matches: readonly TokenMatch<PatternRef>[], tokens: readonly string[]): void => {
    // Where phrases overlap, the longer one speaks (`atm deposit` over `atm`); a phrase of the other
    // direction is not there at all (`поповнення картки` sends money on a debit, and on a credit
    // leaves `поповнення`, a deposit).
    const covered = longestCover(
      matches.some((m) => m.value.direction !== null && m.value.direction !== direction)
        ? matches.filter((m) => m.value.direction === null || m.value.direction === direction)
        : matches,
    );
    for (const m of covered) {
      const p = m.value;
      if (paidByCard(m, tokens)) continue;
      const prev = found.get(p.kind);
      if (!prev || p.tokens > prev.tokens) found.set(p.kind, p);
    }
  };
  consider(text.hits.patterns, text.tokens);
  if (text.merchantTokens.length > 0) consider(text.merchantHits.patterns, text.merchantTokens);
  return found;
}

/** What follows a card wording that names who the card paid. */
const PAYEE_INTRODUCERS = new Set(['to', 'at']);

/**
 * `CARD PAYMENT TO CORNER CAFE` (British statements' wording of a debit card purchase): the card
 * paid someone, nobody paid the card. Paying the card account itself names it (`CREDIT CARD PAYMENT`),
 * and a card issuer named after `TO` is matched as the brand it is.
 */
function paidByCard(m: TokenMatch<PatternRef>, tokens: readonly string[]): boolean {
  const phrase = m.value.phrase;
  return (
    m.value.kind === 'card_payment' &&
    NAMES_A_CARD.test(phrase) &&
    !NAMES_A_CARD_ACCOUNT.test(phrase) &&
    m.end + 1 < tokens.length &&
    PAYEE_INTRODUCERS.has(tokens[m.end] as string)
  );
}

function findKeyword(text: NormalizedText, snapshot: Snapshot): FoundKeyword | null {
  const matches = longestCover(
    text.merchantIds.length > 0
      ? snapshot.keywords.searchIds(text.merchantIds)
      : segmentKeywords(text, snapshot),
  );
  // A trade word before a modifier before a word any seller uses; then the longest; then the first.
  let best: TokenMatch<KeywordRef> | null = null;
  let tenant: TokenMatch<KeywordRef> | null = null;
  for (const m of matches) {
    if (better(m, best)) best = m;
    if (m.value.tenant && better(m, tenant)) tenant = m;
  }
  // A place's word beside a trade it houses names the tenant: `HOTEL BAR`, `HOSPITAL PHARMACY`.
  if (best?.value.venue && tenant) return tenant.value;
  return best?.value ?? cutKeyword(text, snapshot);
}

function better(m: TokenMatch<KeywordRef>, than: TokenMatch<KeywordRef> | null): boolean {
  return (
    !than ||
    m.value.rank < than.value.rank ||
    (m.value.rank === than.value.rank && m.value.tokens > than.value.tokens)
  );
}

/**
 * Keywords in the merchant's part of the description; one may begin in the filler before it, or be
 * all there is (`PAY IN 4`: every word is also a filler word).
 */
function segmentKeywords(text: NormalizedText, snapshot: Snapshot): readonly TokenMatch<KeywordRef>[] {
  const [start, end] = text.segment;
  if (text.lead === start) return snapshot.keywords.searchIds(text.ids, start, end);
  const found = snapshot.keywords.searchIds(text.ids, text.lead, end);
  return start === end ? found : found.filter((m) => m.end > start);
}

/** A keyword found, or the one a cut-off last word begins (`cut`: the word as printed). */
type FoundKeyword = KeywordRef & { readonly cut?: string };

function keywordReason(k: FoundKeyword): string {
  return k.cut === undefined ? `keyword:"${k.word}"` : `keyword:"${k.word}"~cut:"${k.cut}"`;
}

const ARABIC_LETTER = /[\u0621-\u064a]/;
/** ة as the tokenizer folds it. */
const TA_MARBUTA = '\u0647';

/**
 * The merchant's last word, cut by the bank's fixed-width field, begins keywords of one sub-category
 * only (`PHARMAC`, `TRADIN`, `SUPERMARKE`): that trade. Five letters at least, and never a word the
 * engine knows whole (a brand's, a place's, a rule's word).
 */
function cutKeyword(text: NormalizedText, snapshot: Snapshot): FoundKeyword | null {
  const word = text.merchant().lastWord;
  if (word.length < MIN_CUT_KEYWORD || snapshot.vocabulary.is(word, WORD.whole)) return null;
  let found = snapshot.keywordPrefixes.longerThan(word);
  // An Arabic word without its final ة is another word, not a cut one: `البلدي` (local, as in
  // عيش بلدي) is not `البلدية` (the municipality).
  if (ARABIC_LETTER.test(word)) {
    const feminine = new Set(snapshot.keywordPrefixes.exactly(word + TA_MARBUTA));
    if (feminine.size > 0) found = found.filter((k) => !feminine.has(k));
  }
  const first = found[0];
  if (!first || found.some((k) => k.sub_category_id !== first.sub_category_id)) return null;
  return { ...first, cut: word };
}

/** Drops matches contained in a longer overlapping match. */
function longestCover<T extends { readonly tokens: number }>(
  matches: readonly TokenMatch<T>[],
): TokenMatch<T>[] {
  return matches.filter(
    (m) =>
      !matches.some(
        (o) => o !== m && o.start <= m.start && o.end >= m.end && o.end - o.start > m.end - m.start,
      ),
  );
}

function decided(
  sub_category_id: string,
  confidence: number,
  reason: string,
  rule: CategoryDecision['rule'],
  refund = false,
): CategoryDecision {
  return { sub_category_id, confidence, reason, rule, refund };
}
