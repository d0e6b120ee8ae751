/**
 * The produce step of a kafkajs producer, written again so that a send inside a Kafka transaction
 * can neither lose nor duplicate records when brokers fail. kafkajs 2.2.4's own
 * (`src/producer/sendMessages.js`) has two faults that an independent test on a 3-broker cluster
 * hit (docs/pipeline.md, "Broker faults"):
 *
 * - **Loss.** It remembers answers per *broker* and on a retry skips brokers that already answered.
 *   A partition whose leadership moved to such a broker is never sent, yet the send resolves and the
 *   transaction commits the input offsets of records that were never written.
 * - **Duplicates.** It sends to all brokers with `Promise.all`: the first failure starts a retry
 *   while other requests are still in flight, and the retry sends those batches again with *new*
 *   sequence numbers, which the broker cannot recognise as the same batch.
 *
 * Here answers are kept per *partition*, every request of an attempt is settled before the next
 * attempt starts, a failed request's sequence numbers are given back before its batches are sent
 * again (so a batch that did reach the broker is recognised as a duplicate, as the protocol intends),
 * and a send resolves only when every partition has an answer with an offset. Messages are grouped
 * per partition once, in linear time (kafkajs copies the partition's list for every message).
 *
 * It plugs into kafkajs in place of its module (kafkajs.ts), with kafkajs' own collaborators: the
 * cluster (metadata, brokers), the partitioner, the EOS manager (producer id, epoch, sequences,
 * transaction partitions) and the retrier built from the producer's `retry` option.
 */

/** One record as kafkajs takes it (`Message`); only `partition` is read here. */
interface OutMessage {
  readonly partition?: number;
}

interface TopicMessages {
  readonly topic: string;
  readonly messages: readonly OutMessage[];
}

interface PartitionMetadata {
  readonly partitionId: number;
  readonly leader: number;
}

interface Broker {
  readonly nodeId: number;
  produce(request: {
    transactionalId: string | undefined;
    producerId: number;
    producerEpoch: number;
    acks: number;
    timeout: number | undefined;
    compression: number | undefined;
    topicData: TopicData[];
  }): Promise<{ topics: { topicName: string; partitions: PartitionResponse[] }[] }>;
}

interface PartitionResponse {
  readonly partition: number;
  readonly errorCode: number;
  readonly baseOffset: string;
  readonly logAppendTime: string;
  readonly logStartOffset?: string;
}

/** What a send resolves to: one entry per partition written (kafkajs' `RecordMetadata`). */
export interface RecordMetadata extends PartitionResponse {
  readonly topicName: string;
}

interface TopicData {
  topic: string;
  partitions: { partition: number; firstSequence?: number; messages: readonly OutMessage[] }[];
}

/** The parts of kafkajs' Cluster this uses. */
export interface Cluster {
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  refreshMetadataIfNecessary(): Promise<void>;
  refreshMetadata(): Promise<void>;
  findTopicPartitionMetadata(topic: string): readonly PartitionMetadata[];
  findBroker(query: { nodeId: number | string }): Promise<Broker>;
  removeBroker(address: { host: string; port: number }): void;
  isConnected(): boolean;
  connect(): Promise<void>;
}

/** The parts of kafkajs' EOS manager this uses. */
export interface EosManager {
  isTransactional(): boolean;
  getTransactionalId(): string;
  getProducerId(): number;
  getProducerEpoch(): number;
  getSequence(topic: string, partition: number): number;
  updateSequence(topic: string, partition: number, increment: number): void;
  addPartitionsToTransaction(
    topicData: { topic: string; partitions: { partition: number }[] }[],
  ): Promise<void>;
  acquireBrokerLock(broker: Broker): Promise<void>;
  releaseBrokerLock(broker: Broker): void;
}

type Partitioner = (args: {
  topic: string;
  partitionMetadata: readonly PartitionMetadata[];
  message: OutMessage;
}) => number;

type Retrier = <T>(
  fn: (bail: (error: Error) => void, retryCount: number, retryTime: number) => Promise<T>,
) => Promise<T>;

interface Logger {
  debug(message: string, extra?: object): void;
  error(message: string, extra?: object): void;
}

export interface SendMessagesDependencies {
  readonly logger: Logger;
  readonly cluster: Cluster;
  readonly partitioner: Partitioner;
  readonly eosManager: EosManager;
  readonly retrier: Retrier;
}

export interface SendRequest {
  readonly acks?: number;
  readonly timeout?: number;
  readonly compression?: number;
  readonly topicMessages: readonly TopicMessages[];
}

/** kafkajs errors this module raises or inspects. */
export interface KafkaErrors {
  readonly KafkaJSMetadataNotLoaded: new (message: string) => Error;
  readonly KafkaJSError: new (message: string, options?: { retriable?: boolean }) => Error;
}

interface FailedRequest {
  readonly name?: string;
  readonly type?: string;
  readonly retriable?: boolean;
  readonly host?: string;
  readonly port?: number;
  readonly message: string;
}

/** Kafka errors after which the client's view of partition leaders is out of date. */
const STALE_METADATA = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
]);

const CONCURRENT_TRANSACTIONS = 'CONCURRENT_TRANSACTIONS';
/**
 * Right after a commit the coordinator answers CONCURRENT_TRANSACTIONS until the previous
 * transaction's markers are written (a few milliseconds): wait that long here rather than fail the
 * whole request into the producer's backoff (200 ms and more), as the Java client does.
 */
const ADD_PARTITIONS_RETRIES = 20;
const ADD_PARTITIONS_DELAY_MS = 10;

export function createSendMessages(errors: KafkaErrors) {
  return ({ logger, cluster, partitioner, eosManager, retrier }: SendMessagesDependencies) =>
    async ({ acks = -1, timeout, compression, topicMessages }: SendRequest): Promise<RecordMetadata[]> => {
      const topics = topicMessages.map(({ topic }) => topic);
      /** Messages per partition, per topic: decided once, so a retry sends exactly the same batches. */
      let grouped: Map<string, Map<number, OutMessage[]>> | null = null;
      /** Answers per `topic\0partition`: a partition that has one is never sent again. */
      const answered = new Map<string, RecordMetadata>();

      const sendOnce = async (): Promise<RecordMetadata[]> => {
        await cluster.refreshMetadataIfNecessary();
        grouped ??= groupPerPartition(topicMessages, cluster, partitioner, errors);
        const perLeader = pendingPerLeader(grouped, answered, cluster, errors);
        const requests = [...perLeader].map(async ([nodeId, topicData]) => {
          const broker = await cluster.findBroker({ nodeId });
          await eosManager.acquireBrokerLock(broker);
          try {
            if (eosManager.isTransactional()) await addPartitions(eosManager, topicData);
            for (const { topic, partitions } of topicData) {
              for (const entry of partitions) {
                entry.firstSequence = eosManager.getSequence(topic, entry.partition);
                eosManager.updateSequence(topic, entry.partition, entry.messages.length);
              }
            }
            let response: Awaited<ReturnType<Broker['produce']>>;
            try {
              response = await broker.produce({
                transactionalId: eosManager.isTransactional() ? eosManager.getTransactionalId() : undefined,
                producerId: eosManager.getProducerId(),
                producerEpoch: eosManager.getProducerEpoch(),
                acks,
                timeout,
                compression,
                topicData,
              });
            } catch (error) {
              // Not answered: give the sequence numbers back, so that the same batch goes out with
              // the same numbers next time (a broker that did write it then answers "duplicate").
              for (const { topic, partitions } of topicData) {
                for (const entry of partitions)
                  eosManager.updateSequence(topic, entry.partition, -entry.messages.length);
              }
              throw error;
            }
            if (acks === 0) {
              for (const { topic, partitions } of topicData)
                for (const { partition } of partitions)
                  answered.set(key(topic, partition), noAnswer(topic, partition));
              return;
            }
            for (const { topicName, partitions } of response.topics)
              for (const p of partitions) answered.set(key(topicName, p.partition), { topicName, ...p });
          } finally {
            eosManager.releaseBrokerLock(broker);
          }
        });
        // Every request settles before anything is retried: nothing is ever in flight twice.
        const settled = await Promise.allSettled(requests);
        const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failure) throw failure.reason;
        return collect(grouped, answered, errors);
      };

      return retrier(async (bail, retryCount, retryTime) => {
        await cluster.addMultipleTargetTopics(topics);
        try {
          return await sendOnce();
        } catch (caught) {
          const e = caught as FailedRequest;
          if (e.name === 'KafkaJSConnectionClosedError' && e.host !== undefined && e.port !== undefined) {
            cluster.removeBroker({ host: e.host, port: e.port });
          }
          if (!cluster.isConnected()) {
            logger.debug(`Cluster has disconnected, reconnecting: ${e.message}`, { retryCount, retryTime });
            await cluster.connect();
            await cluster.refreshMetadata();
            throw caught;
          }
          if (
            STALE_METADATA.has(e.type ?? '') ||
            e.name === 'KafkaJSMetadataNotLoaded' ||
            e.name === 'KafkaJSConnectionError' ||
            e.name === 'KafkaJSConnectionClosedError' ||
            (e.name === 'KafkaJSProtocolError' && e.retriable === true)
          ) {
            logger.error(`Failed to send messages: ${e.message}`, { retryCount, retryTime });
            await cluster.refreshMetadata();
            throw caught;
          }
          logger.error(e.message, { retryCount, retryTime });
          if (e.retriable === true) throw caught;
          bail(caught as Error);
          throw caught;
        }
      });
    };
}

function key(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

function noAnswer(topicName: string, partition: number): RecordMetadata {
  return { topicName, partition, errorCode: 0, baseOffset: '-1', logAppendTime: '-1' };
}

function groupPerPartition(
  topicMessages: readonly TopicMessages[],
  cluster: Cluster,
  partitioner: Partitioner,
  errors: KafkaErrors,
): Map<string, Map<number, OutMessage[]>> {
  const grouped = new Map<string, Map<number, OutMessage[]>>();
  for (const { topic, messages } of topicMessages) {
    const partitionMetadata = cluster.findTopicPartitionMetadata(topic);
    if (partitionMetadata.length === 0) {
      throw new errors.KafkaJSMetadataNotLoaded('Producing to topic without metadata');
    }
    const perPartition = grouped.get(topic) ?? new Map<number, OutMessage[]>();
    grouped.set(topic, perPartition);
    for (const message of messages) {
      const partition = partitioner({ topic, partitionMetadata, message });
      const list = perPartition.get(partition);
      if (list) list.push(message);
      else perPartition.set(partition, [message]);
    }
  }
  return grouped;
}

/** The partitions still without an answer, as produce request data per current leader. */
function pendingPerLeader(
  grouped: Map<string, Map<number, OutMessage[]>>,
  answered: ReadonlyMap<string, RecordMetadata>,
  cluster: Cluster,
  errors: KafkaErrors,
): Map<number, TopicData[]> {
  const perLeader = new Map<number, TopicData[]>();
  for (const [topic, perPartition] of grouped) {
    const metadata = cluster.findTopicPartitionMetadata(topic);
    for (const [partition, messages] of perPartition) {
      if (answered.has(key(topic, partition))) continue;
      const leader = metadata.find((p) => p.partitionId === partition)?.leader;
      if (leader === undefined || leader === null || leader < 0) {
        throw new errors.KafkaJSError(`No leader for ${topic}[${partition}]`, { retriable: true });
      }
      const data = perLeader.get(leader) ?? [];
      perLeader.set(leader, data);
      let topicData = data.find((t) => t.topic === topic);
      if (!topicData) {
        topicData = { topic, partitions: [] };
        data.push(topicData);
      }
      topicData.partitions.push({ partition, messages });
    }
  }
  return perLeader;
}

async function addPartitions(eosManager: EosManager, topicData: TopicData[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await eosManager.addPartitionsToTransaction(topicData);
      return;
    } catch (error) {
      const type = (error as FailedRequest).type;
      if (type !== CONCURRENT_TRANSACTIONS || attempt >= ADD_PARTITIONS_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, ADD_PARTITIONS_DELAY_MS));
    }
  }
}

/** One answer per partition sent, in the order of the request; a missing one fails the send. */
function collect(
  grouped: Map<string, Map<number, OutMessage[]>>,
  answered: ReadonlyMap<string, RecordMetadata>,
  errors: KafkaErrors,
): RecordMetadata[] {
  const out: RecordMetadata[] = [];
  for (const [topic, perPartition] of grouped) {
    for (const partition of perPartition.keys()) {
      const answer = answered.get(key(topic, partition));
      if (!answer) {
        throw new errors.KafkaJSError(`no produce answer for ${topic}[${partition}]`, { retriable: true });
      }
      out.push(answer);
    }
  }
  return out;
}
