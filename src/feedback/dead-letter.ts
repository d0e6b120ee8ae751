/**
 * The dead letter of a rejected feedback record: its original key, value and headers, plus the
 * reason (the pipeline's `x-dlq-*` headers) — published through the outbox, so exactly once.
 *
 * A value or key over DEAD_LETTER_MAX_BYTES is cut to that size, with the worker's truncation headers
 * (`x-dlq-value-truncated`, `x-dlq-key-truncated`: the original size): a record close to the broker's limit plus our headers would otherwise exceed the
 * dead-letter topic's limit, and no dead letter of it could ever be published. No valid correction
 * comes anywhere near the cut (its fields are limited to a few hundred bytes).
 */
import type { IHeaders } from 'kafkajs';
import { TRUNCATION_HEADER } from '../kafka/dead-letter.js';
import { HEADER } from '../kafka/headers.js';
import type { OutboxMessage } from '../store/outbox.js';
import type { DeadLetterReason, FeedbackSource } from './outcome.js';

export const DEAD_LETTER_MAX_BYTES = 64 * 1024;
const MESSAGE_MAX_CHARS = 1_000;

export function feedbackDeadLetter(
  source: FeedbackSource,
  reason: DeadLetterReason,
  correctionId: string,
): OutboxMessage {
  const key = cut(source.key);
  const value = cut(source.value);
  // The pipeline's dead-letter convention (src/pipeline/headers.ts): the original headers, then ours.
  const headers: IHeaders = {
    ...source.headers,
    [HEADER.errorCode]: reason.code,
    [HEADER.errorField]: reason.field,
    // Error texts can quote the input (a JSON parser's does): a bounded header keeps the letter small.
    [HEADER.errorMessage]: reason.message.slice(0, MESSAGE_MAX_CHARS),
    [HEADER.sourceTopic]: source.topic,
    [HEADER.sourcePartition]: String(source.partition),
    [HEADER.sourceOffset]: source.offset,
  };
  if (key.original > DEAD_LETTER_MAX_BYTES) headers[TRUNCATION_HEADER.key] = String(key.original);
  if (value.original > DEAD_LETTER_MAX_BYTES) headers[TRUNCATION_HEADER.value] = String(value.original);
  return { kind: 'dead-letter', key: key.bytes, value: value.bytes, correctionId, headers };
}

function cut(bytes: Buffer | null): { bytes: Buffer | null; original: number } {
  if (bytes === null) return { bytes, original: 0 };
  return {
    bytes: bytes.length > DEAD_LETTER_MAX_BYTES ? bytes.subarray(0, DEAD_LETTER_MAX_BYTES) : bytes,
    original: bytes.length,
  };
}
