/**
 * Dead letters that always fit the dead-letter topic. A dead letter carries the original key, value
 * and headers plus the reason, so a record near the broker's size limit (accepted on the input
 * topic) becomes a dead letter over the limit: the broker refused it and the worker crashed at every
 * restart on the same record. Such a dead letter keeps the reason and its provenance whole and gives
 * up original bytes instead, saying exactly what was cut, in headers.
 */
import type { IHeaders, Message } from 'kafkajs';
import { BATCH_OVERHEAD_BYTES, headerBytes, recordBytes } from './record-size.js';

export const TRUNCATION_HEADER = {
  /** The original value's length in bytes when the value was cut to fit. */
  value: 'x-dlq-value-truncated',
  /** The original key's length in bytes when the key was cut to fit. */
  key: 'x-dlq-key-truncated',
  /** How many original headers were left out to fit. */
  headers: 'x-dlq-original-headers-dropped',
} as const;

/** Room kept below the limit for what an estimate may miss. */
const MARGIN_BYTES = 1024;
/** A cut key keeps this much: enough to recognise it. */
const KEY_KEPT_BYTES = 1024;

/**
 * The dead letter itself when it fits under `maxMessageBytes`; otherwise a copy that fits: the
 * original headers left out when they alone take half the room, the key cut to its first kilobyte
 * when it is longer, then the value cut to what remains. The reason and source headers (`ours`) are
 * always kept whole.
 */
export function fitDeadLetter(
  original: { readonly key: Buffer | null; readonly value: Buffer | null; readonly headers?: IHeaders },
  ours: IHeaders,
  maxMessageBytes: number,
): Message {
  const budget = maxMessageBytes - BATCH_OVERHEAD_BYTES - MARGIN_BYTES;
  let { key, value } = original;
  let headers: IHeaders = { ...original.headers, ...ours };
  const marks: IHeaders = {};
  const over = () => recordBytes({ key, value, headers: { ...headers, ...marks } }) > budget;
  if (!over()) return { key, value, headers };

  if (headerBytes(original.headers) > budget / 2) {
    marks[TRUNCATION_HEADER.headers] = String(Object.keys(original.headers ?? {}).length);
    headers = { ...ours };
  }
  if (key !== null && key.length > KEY_KEPT_BYTES && over()) {
    marks[TRUNCATION_HEADER.key] = String(key.length);
    key = key.subarray(0, KEY_KEPT_BYTES);
  }
  if (value !== null && over()) {
    marks[TRUNCATION_HEADER.value] = String(value.length);
    const room = budget - recordBytes({ key, value: null, headers: { ...headers, ...marks } });
    value = value.subarray(0, Math.max(0, room));
  }
  return { key, value, headers: { ...headers, ...marks } };
}
