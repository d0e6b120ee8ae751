/**
 * Links curated catalog brands to name-suggestion-index items: the same name in an overlapping
 * country, or the same website domain. A link gives the brand its Wikidata id, a website when it
 * had none, and the Commons file of its logo. Ambiguous names (two Wikidata items) link nothing.
 */
import type { Brand } from '../../src/data/schemas.js';
import { tokenize } from '../../src/engine/text.js';
import type { NsiIndex, NsiItem } from './index-data.js';

export interface Link {
  readonly wikidata_id: string;
  readonly website: string | null;
  readonly logo_source: string | null;
  readonly how: 'name+country' | 'website';
}

export function folded(text: string): string {
  return tokenize(text).join(' ');
}

/** `https://www.careem.com/en-ae/` → `careem.com`. */
export function domainOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\d?\./, '').toLowerCase();
  } catch {
    return null;
  }
}

function isRoot(url: string | null | undefined): boolean {
  try {
    return url ? new URL(url).pathname.replace(/^\/([a-z]{2}(-[a-z]{2})?\/?)?/i, '') === '' : false;
  } catch {
    return false;
  }
}

/** Every name an item goes by, folded: display name, brand and name tags in any language, match names. */
export function namesOf(item: NsiItem, label: string | null): Set<string> {
  const names = [item.displayName, ...item.matchNames, ...(label ? [label] : [])];
  for (const [k, v] of Object.entries(item.tags)) {
    if (/^(brand|name|operator)(:(en|fr|ar))?$/.test(k)) names.push(v);
  }
  return new Set(names.map(folded).filter((n) => n !== ''));
}

function countriesOverlap(brand: Brand, item: NsiItem): boolean {
  if (item.worldwide) return true;
  if (brand.countries.includes('*')) return false;
  return item.countries.some((c) => brand.countries.includes(c));
}

export function linkBrands(brands: readonly Brand[], index: NsiIndex): Map<number, Link> {
  const byName = new Map<string, NsiItem[]>();
  const byDomain = new Map<string, NsiItem[]>();
  for (const item of index.items) {
    // Operators run infrastructure (power lines, post boxes): a brand's Wikidata item is its brand's.
    if (!item.wikidata || item.kind !== 'brands') continue;
    const facts = index.wikidata(item.wikidata);
    for (const n of namesOf(item, facts?.label ?? null)) byName.set(n, [...(byName.get(n) ?? []), item]);
    // A site's root is the brand's; a page on it may be another business's (First Charge on First Bus's).
    const domain = isRoot(facts?.website) ? domainOf(facts?.website) : null;
    if (domain) byDomain.set(domain, [...(byDomain.get(domain) ?? []), item]);
  }
  const links = new Map<number, Link>();
  for (const brand of brands) {
    const domain = domainOf(brand.website);
    const viaDomain = new Set((domain ? byDomain.get(domain) : undefined)?.map((i) => i.wikidata) ?? []);
    const names = new Set([brand.name, ...brand.aliases, ...brand.weak_aliases].map(folded));
    const viaName = new Set<string>();
    for (const n of names) {
      for (const item of byName.get(n) ?? []) {
        if (item.wikidata && countriesOverlap(brand, item)) viaName.add(item.wikidata);
      }
    }
    // Both kinds of evidence agreeing beats either alone; one Wikidata item or none.
    const both = [...viaName].filter((q) => viaDomain.has(q));
    const pick = both.length === 1 ? both : viaDomain.size === 1 ? [...viaDomain] : [...viaName];
    if (pick.length !== 1) continue;
    const q = pick[0] as string;
    const facts = index.wikidata(q);
    links.set(brand.id, {
      wikidata_id: q,
      website: facts?.website ?? null,
      logo_source: facts?.logoFile ?? null,
      how: viaDomain.has(q) ? 'website' : 'name+country',
    });
  }
  // An item whose website is one brand's is not another's by name: `HP` is the name Hindustan
  // Petroleum's stations go by in India, and HP the computer maker sells there too.
  const byWebsite = new Map<string, number>();
  for (const [id, link] of links) if (link.how === 'website') byWebsite.set(link.wikidata_id, id);
  for (const [id, link] of links) {
    const owner = byWebsite.get(link.wikidata_id);
    if (link.how === 'name+country' && owner !== undefined && owner !== id) links.delete(id);
  }
  return links;
}
