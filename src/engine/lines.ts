/**
 * Lines of business: a brand that also sells something else than its main trade (a supermarket's
 * fuel station, a ride app's food delivery, an airline's duty free) carries the other lines by id
 * (data/business-lines.json). The MCC, else a line word in the merchant's text, picks the line.
 */
import type { TokenAutomaton } from './automaton.js';
import type { NormalizedText } from './normalize.js';
import type { BusinessLineRef } from './snapshot.js';

export interface LineChoice {
  readonly line: BusinessLineRef;
  readonly reason: string;
}

/**
 * The brand's line this transaction belongs to, or null for its main trade. `words` finds line
 * words (valued by line id) in the text.
 */
export function chooseLine(
  lines: readonly BusinessLineRef[],
  mcc: string,
  text: NormalizedText,
  words: TokenAutomaton<string>,
): LineChoice | null {
  if (lines.length === 0) return null;
  if (mcc !== '') {
    for (const line of lines) if (line.mccs.has(mcc)) return { line, reason: `line:${line.id}+mcc:${mcc}` };
  }
  const found = [
    ...words.searchIds(text.merchantIds),
    ...words.searchIds(text.ids, text.segment[0], text.segment[1]),
  ];
  for (const m of found) {
    const line = lines.find((l) => l.id === m.value);
    if (line) return { line, reason: `line:${line.id}+word` };
  }
  return null;
}
