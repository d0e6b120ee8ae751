/**
 * A logo for every brand: its initials on a colour derived from its id, as SVG. The same brand
 * always gets the same image; Arabic initials when the tenant reads Arabic.
 */
const SIZE = 128;

/** Up to two initials: the first letter of the first two words (`Careem Food` → `CF`). */
export function initials(name: string): string {
  const words = name
    .normalize('NFKD')
    // Marks and apostrophes belong to the word they sit in (`McDonald's` is one word).
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u0640'’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !/^(al|the|ال)$/i.test(w));
  const letters = words.slice(0, 2).map((w) => [...w][0] as string);
  // Arabic letters keep apart (a non-joiner), so the two initials do not read as one word.
  return letters.map((l) => l.toLocaleUpperCase('en')).join(/\p{Script=Arabic}/u.test(name) ? '\u200c' : '');
}

/** A hue from the id (FNV-1a), at a saturation and lightness where white text stays readable. */
export function colourOf(id: number): string {
  let h = 0x811c9dc5;
  for (const ch of String(id)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return `hsl(${(h >>> 0) % 360}, 55%, 36%)`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface LogoSubject {
  readonly id: number;
  readonly name: string;
  readonly name_ar: string;
}

export function generatedLogo(brand: LogoSubject, arabic: boolean): string {
  const text = (arabic && brand.name_ar ? initials(brand.name_ar) : '') || initials(brand.name) || '?';
  const rtl = /\p{Script=Arabic}/u.test(text);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-label="${escapeXml(brand.name)}">` +
    `<rect width="${SIZE}" height="${SIZE}" rx="24" fill="${colourOf(brand.id)}"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle"${rtl ? ' direction="rtl"' : ''} font-family="Arial, Helvetica, sans-serif" font-size="${[...text].length > 2 ? 44 : 52}" font-weight="700" fill="#ffffff">${escapeXml(text)}</text>` +
    `</svg>\n`
  );
}
