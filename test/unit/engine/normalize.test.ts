import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { MAX_TEXT_CHARS, normalizeText } from '../../../src/engine/normalize.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { WORD } from '../../../src/engine/vocabulary.js';
import { enrichOne, slugOf } from './fixtures.js';

let snapshot: Snapshot;

beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

function normalize(description: string, merchantName = '') {
  return normalizeText(description, merchantName, snapshot);
}

/** The tokens of the merchant segment the normalizer found. */
function segmentTokens(description: string): readonly string[] {
  const n = normalize(description);
  return n.tokens.slice(n.segment[0], n.segment[1]);
}

describe('processor, wallet and marketplace prefixes', () => {
  // [description, country, intermediary id, catalog brand behind it (slug) or null when none]
  const cases: readonly [string, string, string, string | null][] = [
    ['SQ *BLUE BOTTLE COFFEE #123 SAN FRANCISCO CA', 'US', 'square', 'blue-bottle-coffee'],
    ['TST* SHAKE SHACK 123 NEW YORK NY', 'US', 'toast', 'shake-shack'],
    ['PAYPAL *NETFLIX', 'AE', 'paypal', 'netflix'],
    ['PP*SPOTIFY', 'AE', 'paypal', 'spotify'],
    ['GOOGLE *YOUTUBE PREMIUM', 'AE', 'google-pay', 'youtube-premium'],
    ['APPLE.COM/BILL 866-712-7753 CA', 'US', 'apple-billing', 'apple-services'],
    ['AMZN MKTP US*2K3L45', 'US', 'amazon-marketplace', 'amazon'],
    ['ZTL*PRET A MANGER', 'GB', 'zettle', 'pret-a-manger'],
    ['IZ *COSTA COFFEE LONDON', 'GB', 'zettle', 'costa-coffee'],
    ['UBR* PENDING.UBER.COM', 'AE', 'uber-billing', 'uber'],
    ['TAP*TALABAT', 'AE', 'tap', 'talabat'],
    ['Ziina *CARREFOUR', 'AE', 'ziina', 'carrefour'],
    ['CCAVENUE NOON.COM', 'AE', 'ccavenue', 'noon'],
    ['PAYTABS CAREEM', 'AE', 'paytabs', 'careem'],
    ['NOON PAYMENTS ZARA', 'AE', 'noon-payments', 'zara'],
    // the CIS's payment apps and bill-payment systems
    ['PAYME*KORZINKA', 'UZ', 'payme', 'korzinka'],
    ['CLICK.UZ MAKRO', 'UZ', 'click-uz', 'makro-uz'],
    ['ERIP MINSKENERGOSBYT', 'BY', 'erip', 'minskenergo'],
    ['LIQPAY*SILPO', 'UA', 'liqpay', 'silpo'],
    ['PORTMONE.COM KYIVSTAR', 'UA', 'portmone', 'kyivstar'],
  ];

  it.each(cases)('%s → intermediary %s', (description, country, intermediaryId, brand) => {
    const n = normalize(description);
    expect(n.intermediary?.id).toBe(intermediaryId);
    // The merchant segment starts after the prefix.
    const prefixEnd = n.masked.lastIndexOf(true) + 1;
    expect(prefixEnd).toBeGreaterThan(0);
    expect(n.segment[0]).toBeGreaterThanOrEqual(prefixEnd);

    const e = enrichOne(snapshot, { raw_description: description, country });
    expect(e.intermediary?.id).toBe(intermediaryId);
    if (brand !== null) expect(slugOf(snapshot, e)).toBe(brand);
  });

  // One-word prefixes made of catalog words (`checkout`, `hyperpay`) must not be split as glued words.
  it('CHECKOUT.COM DUBIZZLE → intermediary checkout-com, brand dubizzle', () => {
    const e = enrichOne(snapshot, { raw_description: 'CHECKOUT.COM DUBIZZLE' });
    expect(slugOf(snapshot, e)).toBe('dubizzle');
    expect(e.intermediary?.id).toBe('checkout-com');
  });

  it('recognises every prefix in data/intermediaries.json at the start of a descriptor', () => {
    const data = loadReferenceData();
    const missed: string[] = [];
    for (const i of data.intermediaries.intermediaries) {
      for (const prefix of i.prefixes) {
        const n = normalize(`${prefix} XQZWSHOP`);
        if (n.intermediary?.id !== i.id) missed.push(`${prefix} (${i.id}) → ${n.tokens.join(' ')}`);
      }
    }
    expect(missed, `prefixes not recognised:\n${missed.join('\n')}`).toEqual([]);
  });

  it('reports an intermediary named only in the merchant name', () => {
    const n = normalize('POS PURCHASE', 'SQ *JOES DINER');
    expect(n.intermediary?.id).toBe('square');
  });

  it('reports a wallet named anywhere and masks it', () => {
    const n = normalize('JOES DINER APPLE PAY');
    expect(n.intermediary?.id).toBe('apple-pay');
    expect(n.masked).toEqual([false, false, true, true]);
    expect(n.merchant().displayName).toBe('Joes Diner');
  });

  it('reads the wallet in `GOOGLE PAY`, not Google’s billing of `GOOGLE *`, so Google is not the merchant', () => {
    expect(normalize('GOOGLE PAY AL FAJR TRADING').intermediary?.id).toBe('google-wallet');
    const paid = enrichOne(snapshot, { raw_description: 'GOOGLE PAY AL FAJR TRADING', country: 'AE' });
    expect(paid.brand).toBeNull();
    expect(paid.category.name).not.toBe('Services');
    // Google's own billing of an app keeps Google when the app is unknown.
    const billed = enrichOne(snapshot, { raw_description: 'GOOGLE *XQZW GAMES', country: 'US' });
    expect(billed.intermediary?.id).toBe('google-pay');
    expect(slugOf(snapshot, billed)).toBe('google');
  });

  it('reports no intermediary for a plain descriptor', () => {
    const n = normalize('JOES DINER DUBAI');
    expect(n.intermediary).toBeNull();
    expect(n.masked.every((m) => !m)).toBe(true);
    expect(n.segment).toEqual([0, 3]);
  });
});

describe('cleaned merchant words', () => {
  it('keeps only the merchant in `SQ *BLUE BOTTLE COFFEE #123 SAN FRANCISCO CA`', () => {
    const words = normalize('SQ *BLUE BOTTLE COFFEE #123 SAN FRANCISCO CA').merchant();
    expect(words.displayName).toBe('Blue Bottle Coffee');
    expect(words.merchantKey).toBe('blue bottle coffee');
    expect(words.locationOnly).toBe(false);
    const e = enrichOne(snapshot, {
      raw_description: 'SQ *BLUE BOTTLE COFFEE #123 SAN FRANCISCO CA',
      country: 'US',
    });
    expect(e.display_name).toBe('Blue Bottle Coffee');
  });

  it.each([
    ['store number', 'JOES DINER #4521'],
    ['store number without #', 'JOES DINER 4521'],
    ['masked card number', 'POS 4111XXXXXXXX1234 JOES DINER'],
    ['date and time', 'JOES DINER 12/03/2024 14:22'],
    ['date, time and seconds', 'JOES DINER 2024-03-12 14:22:05'],
    ['reference number', 'JOES DINER REF 123456789'],
    ['glued reference', 'JOES DINER REF#AB12345'],
    ['city and country code', 'JOES DINER DUBAI AE'],
    ['city and alpha-3 country code', 'JOES DINER ABU DHABI ARE'],
    ['city and country name', 'JOES DINER DUBAI UNITED ARAB EMIRATES'],
    ['US city and state', 'JOES DINER NEW YORK NY'],
    ['US city and glued state+country', 'JOES DINER SAN FRANCISCO CAUS'],
    ['noise words', 'POS PURCHASE JOES DINER LLC'],
    ['everything at once', 'POS 4111XXXXXXXX1234 JOES DINER #12 12/03/2024 14:22 REF 998877 DUBAI AE'],
  ])('drops the %s: %s', (_what, description) => {
    const words = normalize(description).merchant();
    expect(words.displayName).toBe('Joes Diner');
    expect(words.merchantKey).toBe('joes diner');
    const e = enrichOne(snapshot, { raw_description: description });
    expect(e.brand).toBeNull();
    expect(e.display_name).toBe('Joes Diner');
    expect(e.merchant_key).toBe('joes diner');
  });

  it('keeps a place name inside the merchant name, dropping only the trailing one', () => {
    expect(normalize('DUBAI GRILL HOUSE DUBAI').merchant().displayName).toBe('Dubai Grill House');
  });

  it('prefers the bank-supplied merchant name for display', () => {
    const words = normalize('POS 1234', 'JOES DINER DUBAI').merchant();
    expect(words.displayName).toBe('Joes Diner');
    expect(words.merchantKey).toBe('joes diner');
  });

  it('keeps acronyms upper-case in the display name', () => {
    expect(normalize('XQZ BURGERS 12/03').merchant().displayName).toBe('XQZ Burgers');
  });
});

describe('glued words', () => {
  it('splits `CAREEMDUBAI` into careem + dubai and finds Careem', () => {
    expect(normalize('CAREEMDUBAI').tokens).toEqual(['careem', 'dubai']);
    expect(normalize('CAREEMDUBAI').merchant().displayName).toBe('Careem');
    expect(slugOf(snapshot, enrichOne(snapshot, { raw_description: 'CAREEMDUBAI' }))).toBe('careem');
  });

  it('splits `TALABATUAE` into talabat + uae and finds Talabat', () => {
    expect(normalize('TALABATUAE').tokens).toEqual(['talabat', 'uae']);
    expect(slugOf(snapshot, enrichOne(snapshot, { raw_description: 'TALABATUAE' }))).toBe('talabat');
  });

  it('splits a two-letter country code off a place only: `DUBAIAE`, not `HAMID` or `MARIAGE`', () => {
    expect(normalize('DUBAIAE').tokens).toEqual(['dubai', 'ae']);
    expect(normalize('EPICERIE HAMID').tokens).toEqual(['epicerie', 'hamid']);
    expect(normalize('EPICERIE HAMID').merchant().displayName).toBe('Epicerie Hamid');
    expect(normalize('SALON DE THE MARIAGE').tokens).toContain('mariage');
  });

  it('splits letters glued to a digit code: `IMPARK00740010A`', () => {
    const n = normalize('IMPARK00740010A');
    expect(n.tokens).toEqual(['impark', '00740010a']);
    expect(n.merchant().displayName).toBe('Impark');
    expect(n.merchant().merchantKey).toBe('impark');
  });

  it('splits a postcode glued to a town: `2100KORNEUBURG`', () => {
    expect(normalize('2100KORNEUBURG').tokens).toEqual(['2100', 'korneuburg']);
  });

  it('does not split words that are words: `PAYROLL`, `CARREFOUR`', () => {
    expect(normalize('PAYROLL').tokens).toEqual(['payroll']);
    expect(normalize('CARREFOUR MARKET').tokens).toEqual(['carrefour', 'market']);
  });

  it('splits two curated names glued together, never two words only imported names hold', () => {
    expect(normalize('CAREEMTALABAT').tokens).toEqual(['careem', 'talabat']);
    // Words of imported brands' one-word aliases that no curated alias holds.
    const importedOnly = [...snapshot.brandsById.values()]
      .filter((b) => b.imported)
      .map((b) => b.name.toLowerCase())
      .filter((w) => /^[a-z]{5,8}$/.test(w))
      .filter((w) => snapshot.vocabulary.is(w, WORD.alias) && !snapshot.vocabulary.is(w, WORD.reviewed))
      .slice(0, 40);
    expect(importedOnly.length).toBeGreaterThan(10);
    for (let i = 0; i + 1 < importedOnly.length; i += 2) {
      const glued = `${importedOnly[i]}${importedOnly[i + 1]}`;
      if (snapshot.vocabulary.is(glued, WORD.whole)) continue;
      expect(normalize(glued.toUpperCase()).tokens, glued).toEqual([glued]);
    }
  });

  it('never splits an ordinary word cut by the field width (`COMMERC` is no `comm` + `erc`)', () => {
    expect(normalize('ABU DHABI COMMERC').tokens).toEqual(['abu', 'dhabi', 'commerc']);
    expect(snapshot.ordinaryWordPrefixes.beginsALonger('commerc')).toBe(true);
  });

  it('keeps the original letter case of split parts for display', () => {
    expect(normalize('Zyxwdiner Dubai').merchant().displayName).toBe('Zyxwdiner');
    expect(normalize('CareemDubai').merchant().displayName).toBe('Careem');
  });
});

describe('bank SMS sentences', () => {
  const sms = 'Purchase of AED 45.00 with Card ending 1234 at CARREFOUR, DUBAI on 12/03/2024';

  it('finds the merchant after "at" and before "on"', () => {
    expect(segmentTokens(sms)).toEqual(['carrefour', 'dubai']);
    expect(normalize(sms).merchant().displayName).toBe('Carrefour');
    const e = enrichOne(snapshot, { raw_description: sms });
    expect(slugOf(snapshot, e)).toBe('carrefour');
    expect(e.sub_category.id).toBe('6-1');
  });

  it('handles multi-line SMS text', () => {
    const multiLine = 'Purchase of AED 45.00 with Card ending 1234\nat CARREFOUR, DUBAI\non 12/03/2024';
    expect(segmentTokens(multiLine)).toEqual(['carrefour', 'dubai']);
    expect(slugOf(snapshot, enrichOne(snapshot, { raw_description: multiLine }))).toBe('carrefour');
  });

  it('cuts the available-balance tail of an unknown merchant', () => {
    const text =
      'Purchase of AED 45.00 with Card ending 1234 at JOES DINER, DUBAI on 12/03/2024. Avail Bal AED 1,234.00';
    expect(normalize(text).merchant().displayName).toBe('Joes Diner');
  });

  it('finds the merchant after لدى in an Arabic SMS', () => {
    const text = 'تم شراء بمبلغ 45.00 درهم لدى مطعم الزيتون في 12/03/2024';
    expect(segmentTokens(text)).toEqual(['مطعم', 'الزيتون']);
    expect(normalize(text).merchant().displayName).toBe('مطعم الزيتون');
    const carrefour = 'تم شراء بمبلغ 45.00 درهم لدى كارفور في 12/03/2024';
    expect(slugOf(snapshot, enrichOne(snapshot, { raw_description: carrefour }))).toBe('carrefour');
  });

  it('marks a merchant part made only of places as locationOnly (ATM texts)', () => {
    const atm = 'AED 500.00 debited from your Card ending 1234 at DUBAI MARINA, DUBAI on 12/03/2024';
    const words = normalize(atm).merchant();
    expect(words.locationOnly).toBe(true);
    expect(words.displayName).toBe('');
    expect(words.merchantKey).toBe('');
    expect(normalize('ABU DHABI AE').merchant().locationOnly).toBe(true);
    expect(normalize(sms).merchant().locationOnly).toBe(false);
    // A bank-supplied merchant name means the text is not location-only.
    expect(normalize('DUBAI MARINA', 'JOES DINER').merchant().locationOnly).toBe(false);

    const e = enrichOne(snapshot, { raw_description: atm });
    expect(e.sub_category.id).toBe('2-1');
    expect(e.rule).toBe('atm_withdrawal');
    expect(e.reasons.category).toBe('location-only:atm');
    expect(e.brand).toBeNull();
    // An alert that says it was a purchase was one, wherever the merchant's name went.
    const purchase = 'Purchase of AED 45.00 with Card ending 1234 at DUBAI MARINA, DUBAI on 12/03/2024';
    expect(normalize(purchase).merchant().locationOnly).toBe(true);
    expect(enrichOne(snapshot, { raw_description: purchase }).reasons.category).not.toBe('location-only:atm');
  });

  it('does not read initials as filler: C&A DUBAI names a merchant, A&W NEW YORK US is the chain', () => {
    // The letters of dotted filler (`A/C`, `W.L.L`) are filler words; two of them in a row are a name.
    expect(normalize('C&A DUBAI').merchant().locationOnly).toBe(false);
    expect(enrichOne(snapshot, { raw_description: 'C&A DUBAI' }).rule).toBeNull();
    const aw = enrichOne(snapshot, { raw_description: 'A&W NEW YORK US', country: 'US' });
    expect(aw.brand?.name).toBe('A&W');
    expect(normalize('A&W NEW YORK US').segment).toEqual([0, 5]);
    expect(normalize('AL FARES W.L.L MANAMA').merchant().displayName).toBe('Al Fares');
  });

  it('starts the merchant’s name at a filler word its name begins with: THE PERFUME SHOP', () => {
    expect(normalize('THE PERFUME SHOP 0231').segment[0]).toBe(0);
    expect(enrichOne(snapshot, { raw_description: 'THE PERFUME SHOP 0231', country: 'GB' }).brand?.name).toBe(
      'The Perfume Shop',
    );
    // Filler no name begins with is still skipped.
    expect(normalize('POS PURCHASE CARREFOUR').segment[0]).toBe(2);
  });

  it('a processor, wallet or marketplace before the places makes it a purchase, not a cash withdrawal', () => {
    for (const text of ['PAYPAL PAY IN 3', 'PAYPAL *DUBAI AE', 'WEBOOK*RIYADH']) {
      const e = enrichOne(snapshot, { raw_description: text, country: 'SA' });
      expect(e.category.id, text).not.toBe('2');
      expect(e.rule, text).toBeNull();
    }
    // A marketplace alone is its own merchant.
    expect(slugOf(snapshot, enrichOne(snapshot, { raw_description: 'WEBOOK*RIYADH', country: 'SA' }))).toBe(
      'webook',
    );
  });
});

describe('long tokens', () => {
  // Glued-word splitting once tried every split point of a token, each a fresh slice and hash: a
  // 100 KB token took 9 s and a 1 MB one minutes. Both halves of a split are known words, so a token
  // longer than twice the longest known word is never split and the search is bounded.
  it('a token longer than twice the longest known word is left whole', () => {
    const longest = snapshot.vocabulary.maxWordLength;
    expect(longest).toBeGreaterThan(3);
    const token = `careem${'x'.repeat(2 * longest)}`;
    expect(normalize(token).tokens).toEqual([token]);
  });

  it('a 1 MB token in the description or merchant name is enriched (as an unknown merchant)', () => {
    const huge = 'CAREEM'.repeat(180_000);
    const e = enrichOne(snapshot, { raw_description: huge, merchant_name: huge });
    expect(e.brand).toBeNull();
    // No brand matches a glued run; the merchant-type model reads its first characters (`careem…`,
    // a ride-hailing name) or declines: either way the category comes from the model's step.
    expect(e.reasons.category).toMatch(/^(model:|fallback:miscellaneous; model:)/);
  });
});

describe('how much text the engine reads', () => {
  it(`reads the first ${MAX_TEXT_CHARS} characters of each text and nothing after`, () => {
    const filler = 'REF '.repeat(Math.ceil(MAX_TEXT_CHARS / 4));
    expect(normalize(`${filler}CAREEM`).tokens).not.toContain('careem');
    expect(normalize(`CAREEM ${filler}`).tokens).toContain('careem');
    expect(normalize('POS', `${filler}CAREEM`).merchantTokens).not.toContain('careem');
  });
});
