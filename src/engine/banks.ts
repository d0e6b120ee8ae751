/**
 * What makes a catalog brand a bank, and the words that say its cash machine paid out. Matching asks
 * it (a bank's name beside another payee only carried the payment) and so does categorizing (a bank
 * and a city, or a bank and `CASH`, is its cash machine).
 */

import type { BrandEntry } from './snapshot.js';
import { tokenize } from './text.js';

/** MCCs of banks themselves (cash disbursement by financial institutions). */
const BANK_MCCS = ['6010', '6011', '6012'];
/**
 * Other Financial: banks, wallets, money-transfer and payment services (the keywords `bank`, `wallet`).
 * The catalog files banks here; insurers and brokers carry no bank MCC.
 */
export const OTHER_FINANCIAL = '1-4';

/** A bank: filed under Other Financial with a bank's MCC. */
export function isBank(brand: BrandEntry): boolean {
  return brand.sub_category_id === OTHER_FINANCIAL && BANK_MCCS.some((m) => brand.mccs.has(m));
}

/**
 * A bank with cash machines of its own (MCC 6011, automated cash disbursement): its name and a
 * place, or `CASH`, is one of its machines paying out. An app-only bank or wallet has none.
 */
export function hasCashMachines(brand: BrandEntry): boolean {
  return brand.mccs.has(CASH_MACHINE_MCC);
}

const CASH_MACHINE_MCC = '6011';

/** `CASH HALIFAX 23DEC`: UK statements print a cash machine withdrawal as the word and the bank. */
export const CASH_WORDS: ReadonlySet<string> = new Set([
  'cash',
  ...tokenize('наличные'),
  ...tokenize('نقدي'),
]);
