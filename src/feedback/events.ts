/**
 * Brand-change events: what the relay publishes on BRAND_CHANGES_TOPIC (compacted, one partition)
 * after a committed change, so that every worker refreshes its snapshot. They are signals; the store
 * is the truth (a worker reloads what changed since its change number), so a lost event costs time,
 * not correctness.
 */
import type { MappingRow } from '../store/mappings.js';
import type { OutboxMessage } from '../store/outbox.js';
import { FEEDBACK_HEADER } from './headers.js';

/** A learned mapping changed: keyed `mapping/<tenant>/<kind>/<key>` (compaction keeps the latest). */
export function mappingEvent(m: MappingRow, correctionId: string): OutboxMessage {
  return {
    kind: 'brand-change',
    key: `mapping/${m.tenant}/${m.kind}/${m.key}`,
    value: JSON.stringify({
      type: 'mapping',
      version: m.version,
      tenant: m.tenant,
      kind: m.kind,
      key: m.key,
      brand_id: m.brand_id,
      sub_category_id: m.sub_category_id,
      correction_id: correctionId,
    }),
    correctionId,
    headers: { [FEEDBACK_HEADER.changeType]: 'mapping', [FEEDBACK_HEADER.correctionId]: correctionId },
  };
}

export type BrandChange = 'added' | 'updated' | 'promoted';

/** A brand or product line was added, edited or promoted: keyed `brand/<id>`. */
export function brandEvent(
  brandId: number,
  version: number,
  correctionId: string,
  change: BrandChange,
): OutboxMessage {
  return {
    kind: 'brand-change',
    key: `brand/${brandId}`,
    value: JSON.stringify({ type: 'brand', change, version, brand_id: brandId, correction_id: correctionId }),
    correctionId,
    headers: { [FEEDBACK_HEADER.changeType]: 'brand', [FEEDBACK_HEADER.correctionId]: correctionId },
  };
}
