/**
 * Realistic sample transactions for demos, benchmarks and load: many customers, MENA and global
 * merchants in the forms banks print them (English and Arabic), transfers, salaries, fees, monthly
 * subscriptions, and optionally a share of invalid records. Deterministic for a given seed.
 */
import type { Brand, ReferenceData } from '../data/schemas.js';
import type { TransactionInput } from '../contract/transaction.js';

export interface SampleOptions {
  readonly seed?: number;
  readonly customers?: number;
  /** Share of records in [0, 1] that are deliberately invalid. */
  readonly badShare?: number;
  /** First occurred_at, as epoch ms; records advance in time from there. */
  readonly startTime?: number;
}

export type SampleRecord =
  | { readonly valid: true; readonly value: TransactionInput }
  | { readonly valid: false; readonly value: unknown; readonly defect: string };

const GULF = ['AE', 'SA', 'KW', 'QA', 'BH', 'OM', 'EG', 'JO'];
const CURRENCY: Record<string, string> = {
  AE: 'AED',
  SA: 'SAR',
  KW: 'KWD',
  QA: 'QAR',
  BH: 'BHD',
  OM: 'OMR',
  EG: 'EGP',
  JO: 'JOD',
  GB: 'GBP',
  US: 'USD',
  DE: 'EUR',
  FR: 'EUR',
  IE: 'EUR',
  SG: 'SGD',
};
const CITY: Record<string, string[]> = {
  AE: ['DUBAI', 'ABU DHABI', 'SHARJAH', 'AL AIN'],
  SA: ['RIYADH', 'JEDDAH', 'DAMMAM', 'KHOBAR'],
  KW: ['KUWAIT CITY', 'SALMIYA'],
  QA: ['DOHA'],
  BH: ['MANAMA'],
  OM: ['MUSCAT'],
  EG: ['CAIRO', 'GIZA', 'ALEXANDRIA'],
  JO: ['AMMAN'],
  GB: ['LONDON', 'MANCHESTER'],
  US: ['NEW YORK', 'SAN FRANCISCO'],
  DE: ['BERLIN'],
  FR: ['PARIS'],
  IE: ['DUBLIN'],
  SG: ['SINGAPORE'],
};
const NON_MERCHANT: readonly {
  text: string;
  direction: 'DEBIT' | 'CREDIT';
  transfer?: boolean;
  self?: boolean;
}[] = [
  { text: 'SALARY CREDIT', direction: 'CREDIT' },
  { text: 'راتب شهر', direction: 'CREDIT' },
  { text: 'PAYROLL DEPOSIT', direction: 'CREDIT' },
  { text: 'ATM CASH WITHDRAWAL', direction: 'DEBIT' },
  { text: 'سحب نقدي من الصراف الآلي', direction: 'DEBIT' },
  { text: 'ANNUAL CARD FEE', direction: 'DEBIT' },
  { text: 'VAT ON FEE', direction: 'DEBIT' },
  { text: 'PROFIT PAYMENT SAVINGS', direction: 'CREDIT' },
  { text: 'CREDIT CARD PAYMENT THANK YOU', direction: 'CREDIT' },
  { text: 'قسط تمويل شخصي', direction: 'DEBIT' },
  { text: 'FUND TRANSFER TO', direction: 'DEBIT', transfer: true },
  { text: 'حوالة واردة', direction: 'CREDIT', transfer: true },
  { text: 'OWN ACCOUNT TRANSFER', direction: 'DEBIT', transfer: true, self: true },
];

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same samples and test cases. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function* generateSamples(
  data: ReferenceData,
  count: number,
  options: SampleOptions = {},
): Generator<SampleRecord> {
  const random = seededRandom(options.seed ?? 42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const customers = options.customers ?? 500;
  const badShare = options.badShare ?? 0;
  const start = options.startTime ?? Date.UTC(2026, 0, 1);
  const brands = data.brands.filter((b) => b.aliases.length > 0);
  const subscriptions = brands.filter((b) => b.subscription);
  const mena = brands.filter((b) => b.countries.some((c) => GULF.includes(c)));

  for (let i = 0; i < count; i++) {
    const customer = Math.floor(random() * customers);
    const home = customer % 3 === 0 ? pick(['GB', 'US', 'DE', 'FR', 'IE', 'SG']) : pick(GULF);
    let country = home;
    const roll = random();
    let description: string;
    let merchantName = '';
    let mcc = '';
    let direction: 'DEBIT' | 'CREDIT' = 'DEBIT';
    let isTransfer = false;
    let isSelf = false;
    let amount = Math.round((5 + random() * 400) * 100) / 100;
    let when = start + i * 60_000;
    if (roll < 0.15) {
      const n = pick(NON_MERCHANT);
      description = n.text;
      direction = n.direction;
      isTransfer = n.transfer ?? false;
      isSelf = n.self ?? false;
    } else {
      const brand: Brand =
        roll < 0.25 && subscriptions.length > 0
          ? pick(subscriptions)
          : roll < 0.7 && mena.length > 0
            ? pick(mena)
            : pick(brands);
      const alias = pick(brand.aliases);
      // Customers buy from a brand where it operates (a local chain abroad would be a namesake).
      if (!brand.countries.includes('*') && !brand.countries.includes(country)) {
        const known = brand.countries.filter((c) => CITY[c] !== undefined);
        country = known.length > 0 ? pick(known) : (brand.countries[0] ?? home);
      }
      const city = pick(CITY[country] ?? ['']);
      description = formatDescriptor(alias, city, country, random);
      if (random() < 0.3) merchantName = brand.name;
      if (random() < 0.5) mcc = brand.mccs[0] ?? '';
      if (brand.subscription) {
        // Monthly on the customer's day, same amount: recurring history for the engine to find.
        amount = 10 + (customer % 50);
        when = start + (i % 12) * 30 * 86_400_000 + (customer % 28) * 86_400_000;
      }
    }
    const value: TransactionInput = {
      raw_description: description,
      amount,
      transaction_id: `tx-${options.seed ?? 42}-${i}`,
      customer_id: `cust-${customer}`,
      account_id: `acc-${customer}`,
      card_id: `card-${customer}`,
      merchant_name: merchantName,
      merchant_id: '',
      mcc,
      direction,
      is_self_transaction: isSelf,
      is_transfer: isTransfer,
      iso_currency_cd: CURRENCY[country] ?? 'USD',
      occurred_at: new Date(when).toISOString(),
      location: { iso_country_cd: country, city: null },
    };
    if (random() < badShare) {
      yield corrupt(value, random);
    } else {
      yield { valid: true, value };
    }
  }
}

function formatDescriptor(alias: string, city: string, country: string, random: () => number): string {
  const store = String(Math.floor(random() * 9000) + 1000);
  switch (Math.floor(random() * 5)) {
    case 0:
      return `${alias.toUpperCase()} ${city} ${country}`;
    case 1:
      return `POS ${alias.toUpperCase()} #${store} ${city}`;
    case 2:
      return `Purchase of ${country === 'AE' ? 'AED' : 'USD'} 45.00 with Card ending ${store} at ${alias}, ${city}`;
    case 3:
      return `${alias.toUpperCase().slice(0, 22)} ${store}`;
    default:
      return alias;
  }
}

const DEFECTS: readonly { defect: string; apply: (v: Record<string, unknown>) => void }[] = [
  { defect: 'missing raw_description', apply: (v) => delete v.raw_description },
  { defect: 'amount is a string', apply: (v) => (v.amount = 'twelve') },
  { defect: 'direction not DEBIT/CREDIT', apply: (v) => (v.direction = 'OUT') },
  { defect: 'occurred_at not ISO 8601', apply: (v) => (v.occurred_at = '31/12/2026') },
  { defect: 'currency not ISO 4217', apply: (v) => (v.iso_currency_cd = 'DIRHAM') },
  { defect: 'missing location', apply: (v) => delete v.location },
];

function corrupt(value: TransactionInput, random: () => number): SampleRecord {
  const copy: Record<string, unknown> = { ...value };
  const d = DEFECTS[Math.floor(random() * DEFECTS.length)] as (typeof DEFECTS)[number];
  d.apply(copy);
  return { valid: false, value: copy, defect: d.defect };
}
