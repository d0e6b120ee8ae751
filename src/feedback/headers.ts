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
  /**
   * On a dead letter whose original value (or key) was cut to DEAD_LETTER_MAX_BYTES: the original
   * size in bytes. Without the cut, a record near the broker's limit plus our headers would exceed
   * the dead-letter topic's limit, and the relay could never publish it.
   */
  truncated: 'x-dlq-truncated',
} as const;
