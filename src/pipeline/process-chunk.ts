/**
 * One micro-batch of one input partition, from raw messages to the records to produce: decode,
 * validate, enrich (the pure engine), encode. Every input ends in exactly one outcome per item:
 * an enriched record, or a dead letter carrying the original bytes and the reason.
 */
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { enrichBatch } from '../engine/enrich.js';
import { toV3Record } from '../engine/records.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry } from '../engine/types.js';
import type { DataError } from '../errors.js';
import { decodeMessage } from './decode.js';
import { HEADER, deadLetterHeaders, enrichHeader, headerText, sourceHeader } from './headers.js';
import type { RegistryCodec } from './schema-registry.js';

export interface ChunkContext {
  readonly topic: string;
  readonly partition: number;
  readonly codec: RegistryCodec;
  readonly snapshot: Snapshot;
  readonly outputSchemaId: number;
  readonly defaultTenant: string;
  readonly logoBaseUrl: string;
  /** Earlier transactions of these customers (from the brand store), for recurring detection. */
  readonly historyFor?: (customerIds: readonly string[]) => Promise<readonly HistoryEntry[]>;
  /** Wall-clock time stamped on the records as `enriched_at` (the engine itself has no clock). */
  readonly now: number;
}

export interface ChunkResult {
  readonly enriched: Message[];
  readonly deadLetters: Message[];
  readonly deadLetterCodes: string[];
  /** The engine's results, for the brand store's index. */
  readonly enrichments: { readonly transaction: EngineTransaction; readonly enrichment: Enrichment }[];
}

export async function processChunk(
  messages: readonly KafkaMessage[],
  ctx: ChunkContext,
): Promise<ChunkResult> {
  const pending: { message: KafkaMessage; index: number; envelope: boolean; txn: EngineTransaction }[] = [];
  const deadLetters: Message[] = [];
  const deadLetterCodes: string[] = [];
  for (const message of messages) {
    const { envelope, items } = await decodeMessage(message.value, ctx.codec);
    const tenant = headerText(message.headers, HEADER.tenant) ?? ctx.defaultTenant;
    for (const item of items) {
      if (item.ok) {
        pending.push({ message, index: item.index, envelope, txn: { ...item.transaction, tenant } });
      } else {
        deadLetters.push(deadLetter(message, item.error, envelope ? item.index : null, ctx));
        deadLetterCodes.push(item.error.code);
      }
    }
  }

  const history =
    ctx.historyFor && pending.length > 0
      ? await ctx.historyFor([...new Set(pending.map((p) => p.txn.customer_id))])
      : [];
  const results = enrichBatch(
    pending.map((p) => p.txn),
    ctx.snapshot,
    history,
  );
  if (pending.length > 0) await ctx.codec.prepare(ctx.outputSchemaId);
  const enriched: Message[] = [];
  const enrichments: ChunkResult['enrichments'] = [];
  for (let i = 0; i < pending.length; i++) {
    const p = pending[i] as (typeof pending)[number];
    const e = results[i] as Enrichment;
    const record = {
      transaction_id: p.txn.transaction_id,
      customer_id: p.txn.customer_id,
      ...toV3Record(e, p.txn.ref_id, { logoBaseUrl: ctx.logoBaseUrl }),
      revision: 1,
      enriched_at: ctx.now,
    };
    enriched.push({
      key: p.txn.customer_id,
      value: ctx.codec.encodeCached(ctx.outputSchemaId, record),
      headers: outputHeaders(e, p.message, p.envelope ? p.index : null, ctx),
    });
    enrichments.push({ transaction: p.txn, enrichment: e });
  }
  return { enriched, deadLetters, deadLetterCodes, enrichments };
}

function outputHeaders(
  e: Enrichment,
  source: KafkaMessage,
  item: number | null,
  ctx: ChunkContext,
): IHeaders {
  return {
    [HEADER.tenant]: e.tenant,
    [HEADER.enrich]: enrichHeader(e),
    [HEADER.source]: sourceHeader(ctx.topic, ctx.partition, source.offset, item),
  };
}

/** The original key, value and headers, untouched, plus the reason and where it came from. */
function deadLetter(
  message: KafkaMessage,
  error: DataError,
  item: number | null,
  ctx: ChunkContext,
): Message {
  const headers = deadLetterHeaders(message.headers, error, {
    topic: ctx.topic,
    partition: ctx.partition,
    offset: message.offset,
    item,
  });
  return { key: message.key, value: message.value, headers };
}
