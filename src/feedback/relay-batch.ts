/**
 * What fits in one of the relay's Kafka transactions. The broker checks `max.message.bytes` against
 * each record batch — all of a transaction's records for one partition — so a transaction's records
 * for a topic are kept under that topic's limit (sizes: src/kafka/record-size.ts, an upper bound).
 */
import type { IHeaders, Message } from 'kafkajs';
import { classifyError, type Classified } from '../errors/classify.js';
import { BATCH_OVERHEAD_BYTES, fitsAlone, recordBytes } from '../kafka/record-size.js';
import type { OutboxRow } from '../store/outbox.js';
import { FEEDBACK_HEADER } from './headers.js';

/** A row ready to send, or why it can never be. */
export type Prepared =
  | { readonly row: OutboxRow; readonly topic: string; readonly message: Message; readonly bytes: number }
  | { readonly row: OutboxRow; readonly failure: Classified };

/**
 * Encodes a row (a re-enriched record through the registry) and checks it fits its topic alone. A
 * bug while encoding or a record over the limit is that row's failure; an unavailable registry throws.
 */
export async function prepareRow(
  row: OutboxRow,
  target: {
    readonly topic: string;
    readonly limitOf: (topic: string) => number;
    readonly encode: (record: Record<string, unknown> | null) => Promise<Buffer>;
  },
): Promise<Prepared> {
  const { topic } = target;
  let value: Buffer | null;
  try {
    value = row.kind === 'reenriched' ? await target.encode(row.record) : row.value;
  } catch (error) {
    const failure = classifyError(error);
    if (failure.kind === 'infrastructure') throw error;
    return { row, failure };
  }
  const message: Message = {
    key: row.key,
    value,
    headers: { ...toHeaders(row.headers), [FEEDBACK_HEADER.outboxId]: row.id },
  };
  const bytes = recordBytes(message);
  const limit = target.limitOf(topic);
  if (!fitsAlone(message, limit)) {
    return {
      row,
      failure: {
        code: 'RECORD_TOO_LARGE',
        kind: 'data',
        message: `the record has about ${bytes} bytes; ${topic} accepts at most ${limit} (max.message.bytes)`,
      },
    };
  }
  return { row, topic, message, bytes };
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
