/**
 * The failure policy for one record of the feedback topic — every error classified once
 * (classifyError), never retried for ever unless a dependency is down:
 *
 * - infrastructure (broker, registry, database unavailable): retried with capped backoff, the loop
 *   reported on the RetryBoard as `feedback-consumer` while it fails; given up only on shutdown, the
 *   offset then stays uncommitted and the record is read again;
 * - data (the record's fault, including a value PostgreSQL refuses): dead-lettered with its catalog
 *   code and moved past;
 * - bug (anything unexpected): logged loudly, dead-lettered with PROCESSING_FAILED, moved past.
 *
 * If even the dead letter meets a data error or a bug, a letter without the original headers is
 * tried, and failing that the record is skipped with an error log: one record never stalls the topic.
 */
import { classifyError } from '../errors/classify.js';
import { withRetry, type RetryBoard } from '../errors/retry.js';
import type { Logger } from '../observability/logger.js';
import { decodeCorrection, type AvroDecoder } from './decode.js';
import {
  isDeadLetterCode,
  type ApplyContext,
  type ApplyOutcome,
  type DeadLetterReason,
  type FeedbackSource,
} from './outcome.js';
import { offsetKey, type RejectedIdentity } from './steps/record.js';
import { applyCorrection } from './use-cases/apply-correction.js';
import { checkRecord, rejectRecord, type RecordCheck } from './use-cases/apply-feedback-record.js';

export const FEEDBACK_LOOP = 'feedback-consumer';

export interface RecordHandlerOptions {
  readonly apply: ApplyContext;
  readonly codec: AvroDecoder;
  /** DEFAULT_TENANT: the tenant of a record without a tenant-id header. */
  readonly defaultTenant: string;
  readonly log: Logger;
  readonly board?: RetryBoard | undefined;
  readonly retryMaxDelayMs: number;
  readonly retryInitialDelayMs?: number;
  /** True once the consumer stops: retrying gives up and the record is left for the next owner. */
  readonly shouldStop: () => boolean;
}

/** Handles one record; null when it could not even be dead-lettered (skipped, logged). */
export async function handleFeedbackRecord(
  options: RecordHandlerOptions,
  source: FeedbackSource,
): Promise<ApplyOutcome | null> {
  const { apply, codec, log } = options;
  const where = { topic: source.topic, partition: source.partition, offset: source.offset };
  const retry = <T>(what: string, fn: () => Promise<T>): Promise<T> =>
    withRetry(what, fn, {
      maxDelayMs: options.retryMaxDelayMs,
      ...(options.retryInitialDelayMs !== undefined ? { initialDelayMs: options.retryInitialDelayMs } : {}),
      ...(options.board ? { board: options.board } : {}),
      loop: FEEDBACK_LOOP,
      shouldStop: options.shouldStop,
      onRetry: (attempt, delayMs, _error, failure) =>
        log.warn(
          { ...where, attempt, delayMs, code: failure.code, err: failure.message },
          `${what} failed: retrying`,
        ),
    });
  /** What an error means for this record; infrastructure errors (only left on shutdown) are rethrown. */
  const reasonOf = (error: unknown, step: string): DeadLetterReason => {
    const failure = classifyError(error);
    if (failure.kind === 'infrastructure') throw error;
    if (failure.kind === 'data' && isDeadLetterCode(failure.code)) {
      return { code: failure.code, field: '', message: failure.message };
    }
    log.error(
      { ...where, step, err: failure.message, stack: error instanceof Error ? error.stack : undefined },
      'BUG: a feedback record met an unexpected error; dead-lettering it with PROCESSING_FAILED',
    );
    return { code: 'PROCESSING_FAILED', field: '', message: `${step}: ${failure.message}` };
  };
  const byOffset: RejectedIdentity = { tenant: null, correctionId: offsetKey(source), correction: null };

  const deadLetter = async (
    identity: RejectedIdentity,
    reason: DeadLetterReason,
  ): Promise<ApplyOutcome | null> => {
    try {
      return await retry('dead-lettering a correction', () => rejectRecord(apply, source, identity, reason));
    } catch (error) {
      const why = reasonOf(error, 'dead-lettering');
      const bare: FeedbackSource = { ...source, headers: {} };
      try {
        return await retry('dead-lettering a correction without its headers', () =>
          rejectRecord(apply, bare, byOffset, {
            ...reason,
            message: `${reason.message} (original headers dropped: ${why.message})`,
          }),
        );
      } catch (again) {
        const last = reasonOf(again, 'dead-lettering without headers');
        log.error(
          { ...where, code: reason.code, err: last.message },
          'a feedback record could not be dead-lettered: skipped',
        );
        return null;
      }
    }
  };

  let checked: RecordCheck;
  try {
    const decoded = await retry('decoding a correction', () => decodeCorrection(source.value, codec));
    checked = checkRecord(decoded, source, options.defaultTenant);
  } catch (error) {
    return deadLetter(byOffset, reasonOf(error, 'decoding'));
  }
  if (!checked.ok) return deadLetter(checked.identity, checked.error);
  const c = checked.correction;
  try {
    return await retry('applying a correction', () =>
      applyCorrection(apply, c, { actor: 'customer', source }),
    );
  } catch (error) {
    return deadLetter(
      { tenant: c.tenant, correctionId: c.correction_id, correction: c },
      reasonOf(error, 'applying'),
    );
  }
}
