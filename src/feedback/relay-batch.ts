/**
 * What fits in one of the relay's Kafka transactions. The broker checks `max.message.bytes` against
 * each record batch — all of a transaction's records for one partition — so a transaction's records
 * for a topic are kept under that topic's limit (sizes: src/kafka/record-size.ts, an upper bound).
 */
import type { IHeaders } from 'kafkajs';
import { BATCH_OVERHEAD_BYTES } from '../kafka/record-size.js';

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
    const total = (used.get(item.topic) ?? BATCH_OVERHEAD_BYTES) + item.bytes;
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
