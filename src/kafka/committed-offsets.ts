/**
 * A consumer group's committed offset for one partition, read as a transactional reader must: with
 * `require_stable` (KIP-447), waiting while a transaction that carries the partition's offset is
 * still settling.
 *
 * Why: the floor of a transactional session (transactional-sink.ts) is the committed offset read
 * after the session's producer started. When a commit's answer is lost (a coordinator's broker died
 * under it), the transaction may still have committed; the new producer's start waits until the
 * coordinator has settled it, but the group coordinator can apply that settlement to the offsets it
 * serves later (a new leader of the offsets partition knows them only up to its high watermark, which
 * stays behind while fewer than min.insync.replicas replicas are in sync). A plain OffsetFetch then
 * answers the offset from before the transaction, and the micro-batch whose records were just
 * committed is written again. With `require_stable` the coordinator answers UNSTABLE_OFFSET_COMMIT
 * instead, and this reader asks again until the answer is stable or its time is up.
 */
import { InfrastructureError } from '../errors/catalog.js';
import { withDeadline } from '../errors/deadline.js';
import { sleep } from '../errors/retry.js';
import { clusterOf, protocolError, requestBody, type Kafka, type KafkaCluster } from './kafkajs.js';
import {
  decodeOffsetFetchResponse,
  encodeOffsetFetchRequest,
  ERROR,
  OFFSET_FETCH_API_KEY,
  OFFSET_FETCH_STABLE_VERSION,
  type OffsetFetchResponse,
} from './offset-fetch.js';

/** Answers that mean "ask again shortly": the coordinator is moving, loading, or settling offsets. */
const ASK_AGAIN: ReadonlyMap<number, string> = new Map([
  [ERROR.UNSTABLE_OFFSET_COMMIT, 'a transaction carrying it is still settling'],
  [ERROR.COORDINATOR_LOAD_IN_PROGRESS, 'the group coordinator is loading'],
  [ERROR.COORDINATOR_NOT_AVAILABLE, 'no group coordinator'],
  [ERROR.NOT_COORDINATOR, 'the group coordinator moved'],
]);

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 1_000;

export class CommittedOffsets {
  private cluster: Promise<KafkaCluster> | null = null;

  constructor(private readonly client: Kafka) {}

  /**
   * The committed offset of `topic[partition]` in `groupId` (-1 when there is none), once stable.
   * Throws an infrastructure error when no stable answer came within `timeoutMs`.
   */
  async read(groupId: string, topic: string, partition: number, timeoutMs: number): Promise<bigint> {
    const what = `reading the committed offset of ${topic}[${partition}]`;
    const until = Date.now() + timeoutMs;
    let delay = FIRST_DELAY_MS;
    for (;;) {
      const left = until - Date.now();
      const answer = await withDeadline(
        this.fetch(groupId, topic, partition),
        Math.max(1, left),
        'KAFKA_UNAVAILABLE',
        what,
      );
      if (typeof answer === 'bigint') return answer;
      if (until - Date.now() < delay) {
        throw new InfrastructureError('KAFKA_UNAVAILABLE', `${what}: ${answer} for ${timeoutMs} ms`);
      }
      await sleep(delay);
      delay = Math.min(MAX_DELAY_MS, delay * 2);
    }
  }

  async close(): Promise<void> {
    const cluster = this.cluster;
    this.cluster = null;
    if (cluster !== null) await (await cluster.catch(() => null))?.disconnect();
  }

  /** One OffsetFetch: the offset, or why to ask again. */
  private async fetch(groupId: string, topic: string, partition: number): Promise<bigint | string> {
    const cluster = await this.connected();
    const broker = await cluster.findGroupCoordinator({ groupId });
    const speaks = broker.versions?.[OFFSET_FETCH_API_KEY]?.maxVersion;
    if (speaks !== undefined && speaks < OFFSET_FETCH_STABLE_VERSION) {
      // Brokers before Kafka 2.5 cannot tell a settled offset from one in flight.
      throw new InfrastructureError(
        'KAFKA_UNAVAILABLE',
        `broker ${broker.nodeId} speaks OffsetFetch up to v${speaks}; exactly-once output needs ` +
          `v${OFFSET_FETCH_STABLE_VERSION} (Kafka 2.5 or later)`,
      );
    }
    const bytes = encodeOffsetFetchRequest(groupId, [{ topic, partitions: [partition] }], true);
    const response = await broker.connectionPool.send<OffsetFetchResponse>({
      request: {
        apiKey: OFFSET_FETCH_API_KEY,
        apiVersion: OFFSET_FETCH_STABLE_VERSION,
        apiName: 'OffsetFetch',
        encode: () => Promise.resolve(requestBody(bytes)),
      },
      response: {
        decode: (payload) => Promise.resolve(decodeOffsetFetchResponse(payload)),
        parse: (decoded) => Promise.resolve(decoded),
      },
    });
    return outcomeOf(response, topic, partition);
  }

  private connected(): Promise<KafkaCluster> {
    if (this.cluster === null) {
      const cluster = clusterOf(this.client);
      const connecting = cluster.connect().then(() => cluster);
      // A failed connect must not stay: the next read connects again.
      connecting.catch(() => {
        if (this.cluster === connecting) this.cluster = null;
      });
      this.cluster = connecting;
    }
    return this.cluster;
  }
}

/** The partition's offset, why to ask again, or (for any other error) kafkajs' error thrown. */
export function outcomeOf(response: OffsetFetchResponse, topic: string, partition: number): bigint | string {
  const again = ASK_AGAIN.get(response.errorCode);
  if (again !== undefined) return again;
  if (response.errorCode !== ERROR.NONE) throw protocolError(response.errorCode);
  const found = response.topics
    .find((t) => t.topic === topic)
    ?.partitions.find((p) => p.partition === partition);
  // Never read as "no offset": that would send the partition back to its start.
  if (found === undefined) {
    throw new InfrastructureError('KAFKA_UNAVAILABLE', `OffsetFetch answered without ${topic}[${partition}]`);
  }
  const partitionAgain = ASK_AGAIN.get(found.errorCode);
  if (partitionAgain !== undefined) return partitionAgain;
  if (found.errorCode !== ERROR.NONE) throw protocolError(found.errorCode);
  return found.offset;
}
