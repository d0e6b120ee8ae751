/**
 * What fits in one of the relay's Kafka transactions. The broker checks `max.message.bytes` against
 * each record batch — all of a transaction's records for one partition — so a transaction's records
 * for a topic are kept under that topic's limit, and a single record over it can never be published:
 * the relay sets it aside instead of retrying it for ever. Sizes are Kafka's record format v2,
 * counted high (every varint at its widest) so that an estimate never passes what the broker refuses.
 */
import type { IHeaders, Message } from 'kafkajs';

/** The broker's default `max.message.bytes`, when a topic's cannot be read. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;
/** A record batch's fixed header. */
const BATCH_HEADER_BYTES = 61;
/** Length, attributes, timestamp and offset deltas, key and value lengths, header count: at their widest. */
const RECORD_OVERHEAD_BYTES = 5 + 1 + 10 + 5 + 5 + 5 + 5;
/** A header's two lengths at their widest. */
const HEADER_OVERHEAD_BYTES = 10;

function bytesOf(value: Buffer | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
}

/** An upper bound of one record's bytes inside a record batch. */
export function recordBytes(message: Pick<Message, 'key' | 'value' | 'headers'>): number {
  let size = RECORD_OVERHEAD_BYTES + bytesOf(message.key) + bytesOf(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) size += HEADER_OVERHEAD_BYTES + Buffer.byteLength(name, 'utf8') + bytesOf(v);
  }
  return size;
}

/** Whether one record alone fits a topic whose `max.message.bytes` is `limit`. */
export function fitsAlone(bytes: number, limit: number): boolean {
  return BATCH_HEADER_BYTES + bytes <= limit;
}

/**
 * How many of `items` (in order) one transaction takes: as many as keep every topic's total under
 * its limit, and at least one (a record that fits alone always goes out, even by itself).
 */
export function takeWhileFits(
  items: readonly { readonly topic: string; readonly bytes: number }[],
  limitOf: (topic: string) => number,
): number {
  const used = new Map<string, number>();
  let n = 0;
  for (const item of items) {
    const total = (used.get(item.topic) ?? BATCH_HEADER_BYTES) + item.bytes;
    if (n > 0 && total > limitOf(item.topic)) break;
    used.set(item.topic, total);
    n++;
  }
  return n;
}

/** A stored row's header list as kafkajs headers (a name given twice becomes a list). */
export function toHeaders(list: readonly [string, Buffer][]): IHeaders {
  const headers: IHeaders = {};
  for (const [name, value] of list) {
    const existing = headers[name];
    if (existing === undefined) headers[name] = value;
    else headers[name] = [...(Array.isArray(existing) ? existing : [existing]), value] as Buffer[];
  }
  return headers;
}
