import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { alertSegment, alertWords, type AlertWords } from '../../../src/engine/alerts.js';
import { tokenize } from '../../../src/engine/text.js';
import { loadCorpusWords } from '../../../scripts/model/train.js';

let words: AlertWords;

beforeAll(() => {
  words = alertWords(loadReferenceData().alerts);
});

/** The merchant part of a text, as words. */
function merchantOf(text: string): string | null {
  const tokens = tokenize(text);
  const segment = alertSegment(tokens, words);
  return segment ? tokens.slice(segment[0], segment[1]).join(' ') : null;
}

describe('alertSegment: the card between the amount and the merchant', () => {
  it('reads past a card word and its digits (Alfa-Bank in Latin letters, Moroccan card alerts)', () => {
    expect(merchantOf('Alfa-Bank: Pokupka 560.00 RUR. Karta *1234. HIMCHISTKA. Ostatok 12000.00 RUR')).toBe(
      'himchistka',
    );
    expect(merchantOf('Achat TPE 120,00 MAD CARTE 1234 PHARMACIE DU CENTRE RABAT 01/11/26')).toBe(
      'pharmacie du centre rabat 01 11 26',
    );
  });

  it('takes neither the decimals of an amount nor a second purchase word for the merchant', () => {
    expect(merchantOf('Pokupka 560.00 RUR APTEKA NA LENINA Ostatok 100.00 RUR')).toBe('apteka na lenina');
    expect(merchantOf('Achat TPE 45,00 MAD CARTE 9876 EPICERIE EL HOUDA')).toBe('epicerie el houda');
  });

  it('a card word followed by a name is no card clause', () => {
    expect(merchantOf('Purchase of AED 45.00 at CARD FACTORY DUBAI MALL on 12/03/2024')).toBe(
      'card factory dubai mall',
    );
  });
});

describe('alertSegment', () => {
  it('finds the merchant after an introducer and before the date, card or balance clause', () => {
    expect(
      merchantOf('Purchase of AED 45.00 with Card ending 1234 at BLUE OASIS CAFE, DUBAI on 12/03/2024'),
    ).toBe('blue oasis cafe dubai');
    expect(merchantOf('تمت عملية شراء بمبلغ 50 درهم لدى مخبز الريف باستخدام بطاقتك المنتهية بـ 1234')).toBe(
      'مخبز الريف',
    );
    expect(merchantOf('Paiement par carte 1234 chez BOULANGERIE DU PORT le 12/03/2025 de 8,50 EUR')).toBe(
      'boulangerie du port',
    );
  });

  it('the merchant ends before the verb of an English alert and the card clause of a French one', () => {
    expect(merchantOf('Transaction of AED 55.00 at GOLDEN FORK GRILL was successful')).toBe(
      'golden fork grill',
    );
    expect(merchantOf('Achat de 45,000 TND effectue chez PHARMACIE DU LAC avec votre carte 1234')).toBe(
      'pharmacie du lac',
    );
  });

  it('an introducer before a time or date is not the merchant’s (`... on 12/03/24 at 14:22`)', () => {
    expect(
      merchantOf(
        'Your Credit Card ending with #1234 was charged for EGP 150.00 at BLUE OASIS CAFE on 12/03/24 at 14:22',
      ),
    ).toBe('blue oasis cafe');
  });

  it('a word for the day or time ends the merchant before a number, not before a word', () => {
    expect(
      merchantOf('تم خصم مبلغ 250.00 جنيه من بطاقتك المنتهية ب 1234 لدى مخبز الامل يوم 12/03/2025'),
    ).toBe('مخبز الامل');
    expect(merchantOf('عملية شراء بقيمة 50.00 ريال من كافيه الورد وقت 21:30')).toBe('كافيه الورد');
    expect(merchantOf('Оплата 500 RUB в ЦВЕТЫ НА ЛЕНИНА время 14:22 Доступно 900 RUB')).toBe(
      'tsvety na lenina',
    );
    // Before a word it may be part of the name.
    expect(merchantOf('تم خصم مبلغ 250.00 جنيه من بطاقتك لدى كل يوم ماركت المعادي')).toBe(
      'كل يوم ماركت المعادي',
    );
  });

  it('uses a weak introducer (من, в) only when no strong one is present', () => {
    expect(merchantOf('شراء إنترنت\nبطاقة: 1234\nمن: متجر الزهور\nمبلغ: SAR 35.00\nفي: 24-03-12')).toBe(
      'متجر الزهور',
    );
    expect(merchantOf('Оплата 500 RUB в ЦВЕТЫ НА ЛЕНИНА. Карта *1234. Доступно 900 RUB')).toBe(
      'tsvety na lenina',
    );
    expect(merchantOf('تم خصم 50 ريال من بطاقتك 1234 لدى مطعم السلام بتاريخ 2025')).toBe('مطعم السلام');
  });

  it('reads the payee of a Gulf debit alert after لصالح (in favour of)', () => {
    expect(merchantOf('تم خصم 12.500 د.ك من حسابك 1234 لصالح مكتبة المعرفة بتاريخ 05-12')).toBe(
      'مكتبه المعرفه',
    );
  });

  it('reads Uzbek alerts: a purchase word, the amount in sums, the merchant, the card', () => {
    expect(merchantOf('Xarid 50000 UZS SAVDO MARKAZI OLMA karta *1234 qoldiq 100000 UZS')).toBe(
      'savdo markazi olma',
    );
  });

  it('reads Spanish and Portuguese alerts: the merchant after en/em, before the amount, card or date', () => {
    expect(merchantOf('Compra con tarjeta terminada en 1234 en FARMACIA SAN JOSE por 45,00 EUR')).toBe(
      'farmacia san jose',
    );
    expect(merchantOf('Se ha realizado un cargo de 120,50 MXN en ABARROTES LUPITA el 12/03/2025')).toBe(
      'abarrotes lupita',
    );
    // `el` before a word is part of a name, not the date.
    expect(merchantOf('Compra de 80,00 EUR en EL RINCON DE PEPE con su tarjeta')).toBe('el rincon de pepe');
    expect(
      merchantOf(
        'Compra aprovada no cartao final 1234 em PADARIA BOA VISTA valor R$ 25,90 em 12/03 as 14:22',
      ),
    ).toBe('padaria boa vista');
  });

  it('reads Turkish alerts: the merchant before isyerinde, back to the clause before it', () => {
    expect(
      merchantOf(
        '1234 ile biten kartinizla 12.03.2025 tarihinde KARDESLER FIRINI isyerinde 150,00 TL harcama yapilmistir',
      ),
    ).toBe('kardesler firini');
    expect(
      merchantOf('Kartinizdan 85,00 TL tutarinda ESKI KITAPCI uye isyerinden alisveris yapilmistir'),
    ).toBe('eski kitapci');
  });

  it('a closer takes the name back to the start of the text, and at most six words of it', () => {
    expect(merchantOf('MIGROS KADIKOY isyerinde 150,00 TL harcama yapilmistir')).toBe('migros kadikoy');
    const clause = 'kartinizla 12.03.2025 tarihinde';
    const after = 'isyerinde 150,00 TL harcama yapilmistir';
    expect(merchantOf(`${clause} BIR IKI UC DORT BES ALTI ${after}`)).toBe('bir iki uc dort bes alti');
    // Seven words before a closer are a clause it does not end; no other rule reads this text either.
    expect(merchantOf(`${clause} BIR IKI UC DORT BES ALTI YEDI ${after}`)).toBeNull();
    // Nothing between the clause and the closer: no name, rather than the clause's words.
    expect(merchantOf(`${clause} ${after}`)).toBeNull();
  });

  it('takes the words after the amount of a purchase word when nothing introduces the merchant', () => {
    expect(merchantOf('Покупка 500 р ПРОДУКТЫ У ДОМА Баланс: 1000 р')).toBe('produkty u doma');
    expect(merchantOf('ECMC1234 12:34 покупка 750р APTEKA PLUS Баланс: 10000р')).toBe('apteka plus');
    expect(merchantOf('Сатып алу 2500 KZT ДӘРІХАНА Қолжетімді: 100 KZT')).toBe('darikhana');
  });

  it('takes the words after a purchase word that follows the amount', () => {
    expect(merchantOf('PrivatBank: 150.00UAH Оплата. KAVA NA ROZI. Бал. 1000.00UAH')).toBe('kava na rozi');
    expect(merchantOf('1200 RUB Покупка ZOOMAGAZIN Баланс 100 RUB')).toBe('zoomagazin');
  });

  it('reads a short SMS as a sentence when a purchase word, an amount and a currency open it', () => {
    expect(merchantOf("Оплата 120 грн КАВ'ЯРНЯ")).toBe('kavyarnya');
    expect(merchantOf('Pokupka 450 UAH AZS OKKO')).toBe('azs okko');
    // The currency may be glued to the amount.
    expect(merchantOf('Сбербанк Онлайн. Оплата 560р МТС')).toBe('mts');
    // Without a currency the number may be the name's own (`POS 7 ELEVEN`) or a terminal's.
    expect(merchantOf('POS 7 ELEVEN')).toBeNull();
    expect(merchantOf('PURCHASE 1104 SUBWAY')).toBeNull();
  });

  it('takes the words between a purchase word and its amount when the card or balance follows', () => {
    expect(merchantOf('Оплата услуг ЖКХ 3500р Карта*1234')).toBe('uslug zhkkh');
    expect(merchantOf('Оплата ЖКХ 3500р')).toBe('zhkkh');
    // Kopecks split the amount in two; the currency glued to the second number still counts.
    expect(merchantOf('Оплата ЖКХ 12.50р Карта*1234')).toBe('zhkkh');
    expect(merchantOf('Оплата ЖКХ 12.50 RUB Карта*1234')).toBe('zhkkh');
    expect(merchantOf('Purchase CARREFOUR MOE AED 45.00 on card 1234')).toBe('carrefour moe');
    // A name after the amount wins; a clause about the card before it is no merchant.
    expect(merchantOf('Оплата услуг 500 RUB MAGNIT Баланс 10 RUB')).toBe('magnit');
    expect(merchantOf('Покупка карта 1234 500 RUB')).toBeNull();
  });

  it('leaves short descriptors and texts without alert wording alone', () => {
    expect(merchantOf('EAT AT JOES 1234')).toBeNull();
    expect(merchantOf('CARREFOUR CITY CENTRE DEIRA DUBAI AE')).toBeNull();
    // Six words with an "at" but no amount, card, balance or purchase word: a name, not a sentence.
    expect(merchantOf('BURJ KHALIFA AT THE TOP DUBAI')).toBeNull();
  });

  it('extracts the merchant from every alert template the model is trained with', () => {
    for (const t of loadCorpusWords().alert_templates) {
      const text = t.template
        .replace('{m}', 'ZQX MERCHANT')
        .replaceAll(/\{(a|b)\}/g, '12.50')
        .replaceAll(/\{c(_ar|_ru)?\}/g, 'AED')
        .replaceAll('{card}', 'XXXX1234')
        .replaceAll('{d}', '12/03/2025')
        .replaceAll('{city}', 'DUBAI');
      const merchant = merchantOf(text);
      if (merchant === null) {
        // Not read as a sentence: then the merchant leads the text after a purchase word or two.
        expect(tokenize(text).indexOf('zqx'), t.template).toBeLessThanOrEqual(2);
      } else {
        expect(merchant.startsWith('zqx merchant'), `${t.template} -> ${merchant}`).toBe(true);
      }
    }
  });
});
