/**
 * Greek, Georgian and Armenian written in Latin letters, the way their banks' card processors and
 * the catalog spell the same names (`ΣΚΛΑΒΕΝΙΤΗΣ` = `SKLAVENITIS`, `ნიკორა` = `NIKORA`, `ԵՐԵՎԱՆ` =
 * `YEREVAN`). Without it a descriptor in these scripts has no token at all: the tokenizer keeps
 * Latin, Arabic and digits only. Greek follows ELOT 743, Georgian the national system of 2002,
 * Armenian the common Eastern Armenian romanization; accents are already gone (NFKD) when this runs.
 */

const GREEK: Readonly<Record<string, string>> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

const GEORGIAN: Readonly<Record<string, string>> = {
  ა: 'a',
  ბ: 'b',
  გ: 'g',
  დ: 'd',
  ე: 'e',
  ვ: 'v',
  ზ: 'z',
  თ: 't',
  ი: 'i',
  კ: 'k',
  ლ: 'l',
  მ: 'm',
  ნ: 'n',
  ო: 'o',
  პ: 'p',
  ჟ: 'zh',
  რ: 'r',
  ს: 's',
  ტ: 't',
  უ: 'u',
  ფ: 'p',
  ქ: 'k',
  ღ: 'gh',
  ყ: 'q',
  შ: 'sh',
  ჩ: 'ch',
  ც: 'ts',
  ძ: 'dz',
  წ: 'ts',
  ჭ: 'ch',
  ხ: 'kh',
  ჯ: 'j',
  ჰ: 'h',
};

const ARMENIAN: Readonly<Record<string, string>> = {
  ա: 'a',
  բ: 'b',
  գ: 'g',
  դ: 'd',
  ե: 'e',
  զ: 'z',
  է: 'e',
  ը: 'y',
  թ: 't',
  ժ: 'zh',
  ի: 'i',
  լ: 'l',
  խ: 'kh',
  ծ: 'ts',
  կ: 'k',
  հ: 'h',
  ձ: 'dz',
  ղ: 'gh',
  ճ: 'ch',
  մ: 'm',
  յ: 'y',
  ն: 'n',
  շ: 'sh',
  ո: 'o',
  չ: 'ch',
  պ: 'p',
  ջ: 'j',
  ռ: 'r',
  ս: 's',
  վ: 'v',
  տ: 't',
  ր: 'r',
  ց: 'ts',
  ւ: 'v',
  փ: 'p',
  ք: 'k',
  օ: 'o',
  ֆ: 'f',
};

const LETTERS: Readonly<Record<string, string>> = { ...GREEK, ...GEORGIAN, ...ARMENIAN };

/** Greek, Armenian, Georgian (Mkhedruli, Asomtavruli and Mtavruli capitals). */
export const OTHER_SCRIPT = /[\u0370-\u03ff\u0530-\u058f\u10a0-\u10ff\u1c90-\u1cbf]/;

/**
 * Spellings that depend on the neighbouring letter: Greek `ου` is `ou` and `αυ`/`ευ` are `av`/`ev`;
 * `γ` before a velar is `n` (`γγ` = `ng`); Armenian `ու` is `u`, and a word-initial `ե` and `ո` are
 * `ye` and `vo` (`ԵՐԵՎԱՆ` = `YEREVAN`).
 */
function inContext(lower: string, previous: string, next: string): string | undefined {
  if (lower === 'υ') {
    if (previous === 'ο') return 'u';
    if (previous === 'α' || previous === 'ε') return 'v';
  }
  if (lower === 'γ' && (next === 'γ' || next === 'κ' || next === 'ξ' || next === 'χ')) return 'n';
  if (lower === 'ւ' && previous === 'ո') return '';
  if (lower === 'ո' && next === 'ւ') return 'u';
  if (previous === '' && lower === 'ե') return 'ye';
  if (previous === '' && lower === 'ո') return 'vo';
  return undefined;
}

/** `text` with its Greek, Georgian and Armenian letters in Latin; every other character unchanged. */
export function otherScriptsToLatin(text: string): string {
  let out = '';
  let previous = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const lower = ch.toLowerCase();
    const next = (chars[i + 1] ?? '').toLowerCase();
    const latin =
      LETTERS[lower] === undefined ? undefined : (inContext(lower, previous, next) ?? LETTERS[lower]);
    if (latin === undefined) {
      out += ch;
      previous = '';
      continue;
    }
    // A capital gives capitals in an all-caps word (`ΘΕΣΣΑΛΟΝΙΚΗ` = `THESSALONIKI`) and an initial
    // capital before small letters (`Θεσσαλονίκη` = `Thessaloniki`).
    const nextChar = chars[i + 1] ?? '';
    const beforeSmall = nextChar !== '' && nextChar === next && next !== next.toUpperCase();
    if (lower === ch) out += latin;
    else out += beforeSmall ? latin.charAt(0).toUpperCase() + latin.slice(1) : latin.toUpperCase();
    previous = lower;
  }
  return out;
}
