/**
 * One micro-batch of one input partition, from raw messages to the records to produce: decode,
 * validate, enrich (the pure engine), encode. Every input ends in exactly one outcome per item:
 * an enriched record, or a dead letter carrying the original bytes and the reason.
 *
 * This runs for every record of the stream on the thread that also drives Kafka, so it avoids work
 * per record where it can: no promise per record (schemas are fetched once, then decoding is
 * synchronous), no object copies, output values encoded into shared buffers.
 */
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { finishBatch, historyKeys, prepareBatch } from '../engine/enrich.js';
import { toV3Record, type V3Record } from '../engine/records.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry, HistoryKey } from '../engine/types.js';
import type { DataError } from '../errors/catalog.js';
import { decodeMessageCached, type DecodedMessage } from './decode.js';
import { HEADER, deadLetterHeaders, enrichHeader, headerText, sourceHeaderOf } from './headers.js';
import type { RegistryCodec } from './schema-registry.js';

export interface ChunkContext {
  readonly topic: string;
  readonly partition: number;
  readonly codec: RegistryCodec;
  readonly snapshot: Snapshot;
  readonly outputSchemaId: number;
  readonly defaultTenant: string;
  readonly logoBaseUrl: string;
  /**
   * Earlier transactions of these customers at these merchants (from the brand store), for
   * recurring detection.
   */
  readonly historyFor?: (keys: readonly HistoryKey[]) => Promise<readonly HistoryEntry[]>;
  /** Wall-clock time stamped on the records as `enriched_at` (the engine itself has no clock). */
  readonly now: number;
  /**
   * Whether the caller wants `enrichments` (for the brand store's index). Without a store nobody
   * reads them, and keeping every transaction and result of a chunk alive until the chunk is
   * committed makes each young-generation collection copy them.
   */
  readonly keepEnrichments?: boolean;
}

export interface ChunkResult {
  readonly enriched: Message[];
  readonly deadLetters: Message[];
  readonly deadLetterCodes: string[];
  /** The engine's results, for the brand store's index (empty unless `keepEnrichments`). */
  readonly enrichments: { readonly transaction: EngineTransaction; readonly enrichment: Enrichment }[];
}

export async function processChunk(
  messages: readonly KafkaMessage[],
  ctx: ChunkContext,
): Promise<ChunkResult> {
  const sources: KafkaMessage[] = [];
  /** Position in a `transactions` envelope, or null for a single record. */
  const items: (number | null)[] = [];
  const transactions: EngineTransaction[] = [];
  const deadLetters: Message[] = [];
  const deadLetterCodes: string[] = [];
  for (const message of messages) {
    let decoded: DecodedMessage | undefined = decodeMessageCached(message.value, ctx.codec);
    if (decoded === undefined) {
      // A schema id this process has not seen yet: fetch it once, then decode.
      await ctx.codec.load(message.value as Buffer);
      decoded = decodeMessageCached(message.value, ctx.codec) as DecodedMessage;
    }
    const { envelope } = decoded;
    let tenant: string | undefined;
    for (const item of decoded.items) {
      if (item.ok) {
        tenant ??= headerText(message.headers, HEADER.tenant) ?? ctx.defaultTenant;
        // The validated value is a fresh object, ours alone: the tenant goes onto it, no copy.
        const txn = item.transaction as { tenant?: string } & EngineTransaction;
        txn.tenant = tenant;
        sources.push(message);
        items.push(envelope ? item.index : null);
        transactions.push(txn);
      } else {
        deadLetters.push(deadLetter(message, item.error, envelope ? item.index : null, ctx));
        deadLetterCodes.push(item.error.code);
      }
    }
  }

  const prepared = prepareBatch(transactions, ctx.snapshot);
  const keys = ctx.historyFor ? historyKeys(prepared) : [];
  const history = ctx.historyFor && keys.length > 0 ? await ctx.historyFor(keys) : [];
  const results = finishBatch(prepared, history);
  const enriched: Message[] = [];
  const enrichments: ChunkResult['enrichments'] = [];
  if (transactions.length === 0) return { enriched, deadLetters, deadLetterCodes, enrichments };

  await ctx.codec.prepare(ctx.outputSchemaId);
  const encode = ctx.codec.batchEncoder(ctx.outputSchemaId);
  const source = sourceHeaderOf(ctx.topic, ctx.partition);
  const v3Options = { logoBaseUrl: ctx.logoBaseUrl };
  for (let i = 0; i < transactions.length; i++) {
    const txn = transactions[i] as EngineTransaction;
    const e = results[i] as Enrichment;
    const v3 = toV3Record(e, txn.ref_id, v3Options);
    const headers: IHeaders = {
      [HEADER.tenant]: e.tenant,
      [HEADER.enrich]: enrichHeader(e),
      [HEADER.source]: source((sources[i] as KafkaMessage).offset, items[i] as number | null),
    };
    const value: EnrichedValue = {
      transaction_id: txn.transaction_id,
      customer_id: txn.customer_id,
      brand_id: v3.brand_id,
      brand_name: v3.brand_name,
      brand_logo: v3.brand_logo,
      brand_name_ar: v3.brand_name_ar,
      brand_url: v3.brand_url,
      category_id: v3.category_id,
      category_name: v3.category_name,
      category_name_ar: v3.category_name_ar,
      sub_category_id: v3.sub_category_id,
      sub_category_name: v3.sub_category_name,
      sub_category_name_ar: v3.sub_category_name_ar,
      recurring: v3.recurring,
      ref_id: v3.ref_id,
      revision: 1,
      enriched_at: ctx.now,
    };
    enriched.push({ key: txn.customer_id, value: encode(value), headers });
    if (ctx.keepEnrichments) enrichments.push({ transaction: txn, enrichment: e });
  }
  return { enriched, deadLetters, deadLetterCodes, enrichments };
}

/**
 * The value of an enriched record (schemas/enriched-transaction.avsc). Spelled out field by field
 * rather than spread from the V3Record: typed like this, a field added to V3Record fails the build
 * until it is added here too.
 */
type EnrichedValue = { transaction_id: string; customer_id: string } & V3Record & {
    revision: number;
    enriched_at: number;
  };

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
