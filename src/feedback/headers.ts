/**
 * Header names the feedback pipeline adds to what it publishes (besides src/pipeline/headers.ts).
 */
export const FEEDBACK_HEADER = {
  /** The outbox row a published record came from: consumers can de-duplicate on it. */
  outboxId: 'x-outbox-id',
  /** Why a record was enriched again: correction:transaction|merchant|global, brand-update. */
  reenrichReason: 'x-reenrich-reason',
  correctionId: 'x-correction-id',
  previousRevision: 'x-previous-revision',
  changeType: 'x-change-type',
} as const;
