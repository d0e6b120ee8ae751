/**
 * A record's way through the worker, as one chain of named steps over a micro-batch (the messages of
 * one input partition committed in one Kafka transaction):
 *
 *   decode → validate → enrich → index → encode → produce + commit
 *
 * Every message ends in exactly one outcome per transaction it holds: an enriched record on the
 * output topic, or a dead letter (the original bytes, the reason in headers) on the dead-letter topic.
 * Bad data is a value (a DataError) from the step that found it, never an exception.
 *
 * This runs for every record of the stream on the thread that also drives Kafka, so it avoids work
 * per record where it can: no promise per record (schemas are fetched once, then decoding is
 * synchronous), output values encoded into shared buffers.
 */
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { finishBatch, historyKeys, prepareBatch } from '../engine/enrich.js';
import { toV3Record, type V3Record } from '../engine/records.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { EngineTransaction, Enrichment, HistoryEntry, HistoryKey } from '../engine/types.js';
import { dataError, type DataError, type DeadLetterCode } from '../errors/catalog.js';
import { fitDeadLetter } from '../kafka/dead-letter.js';
import { HEADER, deadLetterHeaders, enrichHeader, sourceHeaderOf } from '../kafka/headers.js';
import { fitsAlone } from '../kafka/record-size.js';
import type { TopicMessages } from '../kafka/transactional-sink.js';
import type { AvroCodec } from '../schema-registry/codec.js';
import { decodeMessage } from './decode.js';

/** The brand store, as the worker sees it: one port for the snapshot, history and the index. */
export interface BrandStorePort {
  /** The current brand snapshot (it changes while running, e.g. after a correction). */
  snapshot(): Snapshot;
  /** Earlier transactions of these customers at these merchants, for recurring detection. */
  history?(keys: readonly HistoryKey[]): Promise<readonly HistoryEntry[]>;
  /** Records the enrichments before the Kafka commit; must be idempotent (a retry repeats it). */
  index?(items: readonly { transaction: EngineTransaction; enrichment: Enrichment }[]): Promise<void>;
}

export interface StepContext {
  readonly topic: string;
  readonly partition: number;
  readonly codec: AvroCodec;
  readonly store: BrandStorePort;
  readonly outputTopic: string;
  readonly dlqTopic: string;
  readonly outputSchemaId: number;
  /** `max.message.bytes` of the output and dead-letter topics. */
  readonly outputMaxBytes: number;
  readonly dlqMaxBytes: number;
  readonly defaultTenant: string;
  readonly logoBaseUrl: string;
  /** An unexpected error while decoding one message: dead-letter it, or stop the worker. */
  readonly onDecodeBug: 'dead-letter' | 'stop';
  /** Wall-clock time stamped on the records as `enriched_at` (the engine itself has no clock). */
  readonly now: number;
}

/** What a micro-batch produces: its output, its dead letters and their codes (for metrics). */
export interface StepOutput {
  readonly enriched: Message[];
  readonly deadLetters: Message[];
  readonly deadLetterCodes: DeadLetterCode[];
}

/** One transaction of a message, and where it stands. */
interface Item {
  readonly message: KafkaMessage;
  /** Position in a `transactions` envelope, or null for a single record. */
  readonly index: number | null;
  readonly transaction: EngineTransaction;
}

/** A bug met while decoding with ON_BUG_DECODE=stop: the worker stops. */
export class StopWorker extends Error {
  readonly code = 'PROCESSING_FAILED' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StopWorker';
  }
}

/** decode → validate → enrich → index → encode, for one micro-batch. */
export async function processMicroBatch(
  messages: readonly KafkaMessage[],
  ctx: StepContext,
): Promise<StepOutput> {
  const output: StepOutput = { enriched: [], deadLetters: [], deadLetterCodes: [] };
  const items = await decodeAndValidate(messages, ctx, output);
  if (items.length === 0) return output;
  const enrichments = await enrich(items, ctx);
  await ctx.store.index?.(
    items.map((item, i) => ({ transaction: item.transaction, enrichment: enrichments[i] as Enrichment })),
  );
  await encode(items, enrichments, ctx, output);
  return output;
}

/** Steps 1-2: bytes → validated transactions; the rest become dead letters here. */
async function decodeAndValidate(
  messages: readonly KafkaMessage[],
  ctx: StepContext,
  output: StepOutput,
): Promise<Item[]> {
  const items: Item[] = [];
  for (const message of messages) {
    let decoded;
    try {
      decoded = decodeMessage(message, ctx.codec, ctx.defaultTenant);
      if (decoded === undefined) {
        // A schema id this process has not seen yet: fetch it once, then decode.
        await ctx.codec.load(message.value as Buffer);
        decoded = decodeMessage(message, ctx.codec, ctx.defaultTenant);
      }
    } catch (error) {
      if ((error as { kind?: string }).kind === 'infrastructure') throw error;
      if (ctx.onDecodeBug === 'stop') {
        throw new StopWorker(
          `decoding ${ctx.topic}[${ctx.partition}] offset ${message.offset} failed unexpectedly`,
          {
            cause: error,
          },
        );
      }
      deadLetter(message, null, dataBug(error), ctx, output);
      continue;
    }
    if (decoded === undefined) {
      deadLetter(message, null, dataBug(new Error('the schema could not be loaded')), ctx, output);
      continue;
    }
    for (const item of decoded.items) {
      const index = decoded.envelope ? item.index : null;
      if (item.ok) items.push({ message, index, transaction: item.transaction });
      else deadLetter(message, index, item.error, ctx, output);
    }
  }
  return items;
}

/** Step 3: the pure engine, with the recurring history the brand store keeps. */
async function enrich(items: readonly Item[], ctx: StepContext): Promise<Enrichment[]> {
  const prepared = prepareBatch(
    items.map((item) => item.transaction),
    ctx.store.snapshot(),
  );
  const keys = ctx.store.history ? historyKeys(prepared) : [];
  const history = ctx.store.history && keys.length > 0 ? await ctx.store.history(keys) : [];
  return finishBatch(prepared, history);
}

/** Step 5: v3 records, Avro-encoded with their headers; a record too large becomes a dead letter. */
async function encode(
  items: readonly Item[],
  enrichments: readonly Enrichment[],
  ctx: StepContext,
  output: StepOutput,
): Promise<void> {
  await ctx.codec.prepare(ctx.outputSchemaId);
  const write = ctx.codec.batchEncoder(ctx.outputSchemaId);
  const source = sourceHeaderOf(ctx.topic, ctx.partition);
  const v3Options = { logoBaseUrl: ctx.logoBaseUrl };
  for (let i = 0; i < items.length; i++) {
    const { message, index, transaction: txn } = items[i] as Item;
    const e = enrichments[i] as Enrichment;
    const v3 = toV3Record(e, txn.ref_id, v3Options);
    const headers: IHeaders = {
      [HEADER.tenant]: e.tenant,
      [HEADER.enrich]: enrichHeader(e),
      [HEADER.source]: source(message.offset, index),
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
    const record: Message = { key: txn.customer_id, value: write(value), headers };
    if (fitsAlone(record, ctx.outputMaxBytes)) {
      output.enriched.push(record);
    } else {
      const limit = `over the ${ctx.outputTopic} limit of ${ctx.outputMaxBytes} bytes`;
      deadLetter(
        message,
        index,
        dataError('RECORD_TOO_LARGE', '', `the enriched record would be ${limit}`),
        ctx,
        output,
      );
    }
  }
}

/**
 * Step 6's input, split into produce requests far below the broker's request limit: a large
 * micro-batch goes out in several sends of the same transaction.
 */
export function produceRequests(
  output: StepOutput,
  ctx: Pick<StepContext, 'outputTopic' | 'dlqTopic'>,
): TopicMessages[][] {
  return [...requestsOf(ctx.outputTopic, output.enriched, ctx.dlqTopic, output.deadLetters)];
}

/**
 * The dead letter of one message (or one item of an envelope): the original bytes and headers with
 * the reason, cut to fit the dead-letter topic if it must be.
 */
export function deadLetter(
  message: KafkaMessage,
  index: number | null,
  error: DataError | { code: 'PROCESSING_FAILED'; field: string; message: string },
  ctx: Pick<StepContext, 'topic' | 'partition' | 'dlqMaxBytes'>,
  output: StepOutput,
): void {
  const ours = deadLetterHeaders(undefined, error, {
    topic: ctx.topic,
    partition: ctx.partition,
    offset: message.offset,
    item: index,
  });
  output.deadLetters.push(fitDeadLetter(message, ours, ctx.dlqMaxBytes));
  output.deadLetterCodes.push(error.code);
}

/** An unexpected error as a dead letter's reason. */
export function dataBug(error: unknown): { code: 'PROCESSING_FAILED'; field: string; message: string } {
  return {
    code: 'PROCESSING_FAILED',
    field: '',
    message: error instanceof Error ? error.message : String(error),
  };
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

/** Bytes of records per produce request; far below the broker's default 1 MiB limit. */
const MAX_REQUEST_BYTES = 512 * 1024;

function* requestsOf(
  outputTopic: string,
  enriched: readonly Message[],
  dlqTopic: string,
  deadLetters: readonly Message[],
): Generator<TopicMessages[]> {
  let request: TopicMessages[] = [];
  let bytes = 0;
  for (const [topic, messages] of [
    [outputTopic, enriched],
    [dlqTopic, deadLetters],
  ] as const) {
    let current: Message[] = [];
    for (const m of messages) {
      const size = approximateSize(m);
      if (bytes + size > MAX_REQUEST_BYTES && bytes > 0) {
        if (current.length > 0) request.push({ topic, messages: current });
        yield request;
        request = [];
        current = [];
        bytes = 0;
      }
      current.push(m);
      bytes += size;
    }
    if (current.length > 0) request.push({ topic, messages: current });
  }
  if (request.length > 0) yield request;
}

/** Estimated bytes of a record in a produce request (per record of the stream: no allocation). */
function approximateSize(m: Message): number {
  let n = 64 + (m.key?.length ?? 0) + (m.value ? (m.value as Buffer | string).length : 0);
  const headers = m.headers;
  if (headers === undefined) return n;
  for (const name in headers) {
    const value = headers[name];
    n +=
      name.length +
      8 +
      (typeof value === 'string' || Buffer.isBuffer(value) ? value.length : String(value ?? '').length);
  }
  return n;
}
