/**
 * One micro-batch, from its messages to its commit, with the failure policy read from the error:
 *
 * - **infrastructure** (broker, registry, database unavailable): thrown to the caller, which ends
 *   the partition's producer session and retries the micro-batch from its floor;
 * - **data** that a dependency found (PostgreSQL refusing a value, the broker refusing a record) and
 *   **bugs** (an exception nobody expected): the micro-batch is split in halves, each committed on
 *   its own, until the one message to blame is alone; that message is dead-lettered with the code
 *   (`PROCESSING_FAILED` for a bug) and the rest go through. A bug stops the worker instead when
 *   ON_BUG_PROCESS / ON_BUG_PRODUCE say `stop`.
 *
 * So no single record can stall a partition: it ends as a dead letter in at most log2(n) extra
 * transactions, and records before and after it are committed in order.
 */
import type { KafkaMessage } from 'kafkajs';
import type { DeadLetterCode } from '../errors/catalog.js';
import { classifyError, type Classified } from '../errors/classify.js';
import type { Sink } from '../kafka/transactional-sink.js';
import {
  StopWorker,
  dataBug,
  deadLetter,
  processMicroBatch,
  produceRequests,
  type StepContext,
  type StepOutput,
} from './steps.js';

export interface MicroBatchContext extends StepContext {
  readonly sink: Sink;
  readonly onProcessBug: 'dead-letter' | 'stop';
  readonly onProduceBug: 'dead-letter' | 'stop';
  /** Replaces decode → … → encode (the end-to-end benchmark's passthrough). */
  readonly process?: (messages: readonly KafkaMessage[], ctx: StepContext) => Promise<StepOutput>;
  /** Told about a message dead-lettered because a dependency or a bug failed on it. */
  readonly onIsolated?: (
    where: { topic: string; partition: number; offset: string },
    failure: Classified,
  ) => void;
}

/** What the commits of a micro-batch carried, for metrics and the dead-letter guard. */
export interface Committed {
  enriched: number;
  deadLetterCodes: DeadLetterCode[];
  transactions: number;
}

/**
 * Commits `messages` (offset order, all at or above the partition's floor) with `lastOffset + 1`, or
 * `nextOffset` when given (the fetched batch's end, past trailing control records), as the input
 * offset.
 */
export async function commitMicroBatch(
  messages: readonly KafkaMessage[],
  ctx: MicroBatchContext,
  nextOffset?: bigint,
): Promise<Committed> {
  const committed: Committed = { enriched: 0, deadLetterCodes: [], transactions: 0 };
  await commitIsolating(messages, ctx, nextOffset, committed);
  return committed;
}

async function commitIsolating(
  messages: readonly KafkaMessage[],
  ctx: MicroBatchContext,
  nextOffset: bigint | undefined,
  committed: Committed,
): Promise<void> {
  const last = messages[messages.length - 1] as KafkaMessage;
  const end = nextOffset ?? BigInt(last.offset) + 1n;
  let point: 'process' | 'produce' = 'process';
  try {
    const output = await (ctx.process ?? processMicroBatch)(messages, ctx);
    point = 'produce';
    await ctx.sink.commit(ctx.topic, ctx.partition, produceRequests(output, ctx), end);
    count(committed, output);
    return;
  } catch (error) {
    if (error instanceof StopWorker) throw error;
    const failure = classifyError(error);
    if (failure.kind === 'infrastructure') throw error;
    const policy = point === 'process' ? ctx.onProcessBug : ctx.onProduceBug;
    if (failure.kind === 'bug' && policy === 'stop') {
      throw new StopWorker(
        `${point} failed unexpectedly on ${ctx.topic}[${ctx.partition}] (ON_BUG_${point.toUpperCase()}=stop)`,
        {
          cause: error,
        },
      );
    }
    if (messages.length > 1) {
      const middle = Math.ceil(messages.length / 2);
      await commitIsolating(messages.slice(0, middle), ctx, undefined, committed);
      await commitIsolating(messages.slice(middle), ctx, nextOffset, committed);
      return;
    }
    await commitAlone(last, failure, ctx, end, committed);
  }
}

/** The one message a dependency or a bug failed on: its dead letter alone, with the failure's code. */
async function commitAlone(
  message: KafkaMessage,
  failure: Classified,
  ctx: MicroBatchContext,
  end: bigint,
  committed: Committed,
): Promise<void> {
  ctx.onIsolated?.({ topic: ctx.topic, partition: ctx.partition, offset: message.offset }, failure);
  const output: StepOutput = { enriched: [], deadLetters: [], deadLetterCodes: [] };
  const reason =
    failure.kind === 'data' && failure.code !== 'PROCESSING_FAILED'
      ? { code: failure.code, field: '', message: failure.message }
      : dataBug(new Error(failure.message));
  deadLetter(message, null, reason as Parameters<typeof deadLetter>[2], ctx, output);
  try {
    await ctx.sink.commit(ctx.topic, ctx.partition, produceRequests(output, ctx), end);
  } catch (error) {
    const again = classifyError(error);
    if (again.kind === 'infrastructure') throw error;
    // The dead-letter topic itself refuses the record: going on would lose it.
    throw new StopWorker(
      `the dead letter of ${ctx.topic}[${ctx.partition}] offset ${message.offset} was refused`,
      {
        cause: error,
      },
    );
  }
  count(committed, output);
}

function count(committed: Committed, output: StepOutput): void {
  committed.enriched += output.enriched.length;
  committed.deadLetterCodes.push(...output.deadLetterCodes);
  committed.transactions++;
}
