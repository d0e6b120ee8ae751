/**
 * The transactional outbox: a change and what it must emit commit in one database transaction;
 * the relay (src/feedback/relay.ts) publishes the rows to Kafka afterwards and marks them sent.
 *
 * Rows are one of three kinds, each bound for one topic: `reenriched` (REENRICHED_TOPIC, the v3
 * record kept as JSON and Avro-encoded by the relay, so a registry outage never blocks a
 * correction), `brand-change` (BRAND_CHANGES_TOPIC, JSON) and `dead-letter` (DLQ_TOPIC, the
 * original bytes of a rejected correction). A row Kafka will never take is marked failed with its
 * reason (`markFailed`) and left out of the pending rows, so it cannot hold back the ones after it.
 */
import type { IHeaders } from 'kafkajs';
import type { Queryable } from './db.js';

export type OutboxKind = 'reenriched' | 'brand-change' | 'dead-letter';

export interface OutboxMessage {
  readonly kind: OutboxKind;
  readonly key: Buffer | string | null;
  /** The value bytes (brand-change, dead-letter). */
  readonly value?: Buffer | string | null;
  /** The record to Avro-encode (reenriched). */
  readonly record?: Record<string, unknown>;
  readonly headers: IHeaders;
  readonly correctionId: string | null;
}

export interface OutboxRow {
  /** bigint as a decimal string (ids can outgrow 2^53 in theory; compared as BigInt). */
  readonly id: string;
  readonly kind: OutboxKind;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly record: Record<string, unknown> | null;
  readonly headers: [string, Buffer][];
  readonly correctionId: string | null;
}

const CHUNK = 1000;

function b64(value: Buffer | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? Buffer.from(value, 'utf8') : value).toString('base64');
}

function headerList(headers: IHeaders): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined) continue;
      // jsonb cannot hold U+0000: a header name carrying one (only a hostile record's would) keeps
      // U+FFFD in its place, so that the dead letter of that record can still be written.
      out.push([
        name.replaceAll('\u0000', '\ufffd'),
        (Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'utf8')).toString('base64'),
      ]);
    }
  }
  return out;
}

/** Inserts messages in order (ids ascend in the order given), in multi-row statements. */
export async function enqueue(q: Queryable, messages: readonly OutboxMessage[]): Promise<void> {
  for (let start = 0; start < messages.length; start += CHUNK) {
    const rows = messages.slice(start, start + CHUNK).map((m, i) => ({
      n: i,
      kind: m.kind,
      key: b64(m.key),
      value: b64(m.value),
      record: m.record ?? null,
      headers: headerList(m.headers),
      correction_id: m.correctionId,
    }));
    await q.query(
      `INSERT INTO outbox (kind, msg_key, msg_value, record, headers, correction_id)
       SELECT r.kind, decode(r.key, 'base64'), decode(r.value, 'base64'), r.record, r.headers, r.correction_id
       FROM jsonb_to_recordset($1::jsonb) AS r(n integer, kind text, key text, value text, record jsonb, headers jsonb,
            correction_id text)
       ORDER BY r.n`,
      [JSON.stringify(rows)],
    );
  }
}

/** Rows neither sent nor set aside as failed, in id order. */
export async function pendingOutbox(q: Queryable, limit: number): Promise<OutboxRow[]> {
  const { rows } = await q.query<{
    id: string;
    kind: OutboxKind;
    k: string | null;
    v: string | null;
    record: Record<string, unknown> | null;
    headers: [string, string][];
    correction_id: string | null;
  }>(
    `SELECT id::text AS id, kind, encode(msg_key, 'base64') AS k, encode(msg_value, 'base64') AS v, record, headers,
            correction_id
     FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL ORDER BY outbox.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind,
    key: r.k === null ? null : Buffer.from(r.k, 'base64'),
    value: r.v === null ? null : Buffer.from(r.v, 'base64'),
    record: r.record,
    headers: (r.headers ?? []).map(
      ([name, value]) => [name, Buffer.from(value, 'base64')] as [string, Buffer],
    ),
    correctionId: r.correction_id,
  }));
}

/** Marks every unsent row up to and including `id` as sent (failed rows stay failed); returns how many. */
export async function markSent(q: Queryable, id: string): Promise<number> {
  const { rowCount } = await q.query(
    'UPDATE outbox SET sent_at = now() WHERE sent_at IS NULL AND failed_at IS NULL AND id <= $1::bigint',
    [id],
  );
  return rowCount;
}

/** Sets a row Kafka will never take aside, with the catalog code and the reason; true if it was pending. */
export async function markFailed(q: Queryable, id: string, code: string, reason: string): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE outbox SET failed_at = now(), failure_code = $2, failure_reason = $3
     WHERE id = $1::bigint AND sent_at IS NULL AND failed_at IS NULL`,
    [id, code, reason.slice(0, 2_000)],
  );
  return rowCount > 0;
}

export interface OutboxCounts {
  readonly pending: number;
  readonly sent: number;
  /** Rows set aside because Kafka would not take them (see markFailed). */
  readonly failed: number;
}

export async function outboxCounts(q: Queryable): Promise<OutboxCounts> {
  const { rows } = await q.query<{ pending: string; sent: string; failed: string }>(
    `SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL)::text AS pending,
            count(*) FILTER (WHERE sent_at IS NOT NULL)::text AS sent,
            count(*) FILTER (WHERE failed_at IS NOT NULL)::text AS failed FROM outbox`,
  );
  return {
    pending: Number(rows[0]?.pending ?? 0),
    sent: Number(rows[0]?.sent ?? 0),
    failed: Number(rows[0]?.failed ?? 0),
  };
}
