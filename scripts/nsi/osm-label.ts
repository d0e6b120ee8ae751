/**
 * The sub-category an OpenStreetMap item is filed under (data/osm-tags.json): its primary tag's, or a
 * refinement's where a secondary tag names another trade of the same category (a coffee chain that
 * OpenStreetMap files as `amenity=fast_food` with `cuisine=coffee_shop`). Shared by the index import
 * and the model's corpus, so a brand and its name in the corpus get the same answer.
 *
 * @returns undefined when the map does not know the tag, null when the tag is no merchant.
 */
import type { OsmTagMap } from '../../src/data/schemas.js';

export function osmLabel(
  map: Pick<OsmTagMap, 'tags' | 'refinements'>,
  tag: string,
  tags: Readonly<Record<string, string>>,
): string | null | undefined {
  const base = map.tags[tag];
  if (base === undefined || base === null) return base;
  for (const [key, byValue] of Object.entries(map.refinements[tag] ?? {})) {
    // `cuisine=coffee_shop;donut`: the first value is the place's main one.
    const first = (tags[key] ?? '').split(';')[0]?.trim() ?? '';
    const refined = byValue[first];
    if (refined !== undefined) return refined;
  }
  return base;
}
