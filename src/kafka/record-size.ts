/**
 * How many bytes a record takes in a produce request: what the broker compares with a topic's
 * `max.message.bytes`. An upper bound of Kafka's record format v2 (varint lengths counted at their
 * widest), so a record judged to fit does fit.
 */
import type { IHeaders, Message } from 'kafkajs';

/** Record batch header, once per batch (record format v2). */
export const BATCH_OVERHEAD_BYTES = 61;
/** Per record: length, attributes, timestamp and offset deltas, key and value lengths, header count. */
const RECORD_OVERHEAD_BYTES = 5 + 1 + 10 + 5 + 5 + 5 + 5;
/** Per header: the two varint lengths. */
const HEADER_OVERHEAD_BYTES = 10;

export function bytesOf(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (Buffer.isBuffer(value)) return value.length;
  return Buffer.byteLength(typeof value === 'string' ? value : String(value), 'utf8');
}

export function headerBytes(headers: IHeaders | undefined): number {
  if (headers === undefined) return 0;
  let n = 0;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) n += HEADER_OVERHEAD_BYTES + Buffer.byteLength(name, 'utf8') + bytesOf(v);
  }
  return n;
}

export function recordBytes(message: Message): number {
  return RECORD_OVERHEAD_BYTES + bytesOf(message.key) + bytesOf(message.value) + headerBytes(message.headers);
}

/** Whether a record, alone in its batch, fits under a topic's limit. */
export function fitsAlone(message: Message, maxMessageBytes: number): boolean {
  return BATCH_OVERHEAD_BYTES + recordBytes(message) <= maxMessageBytes;
}
