/**
 * The produce step that replaces kafkajs' own (src/kafka/send-messages.ts), against a scripted
 * cluster: leaders that move between attempts, requests that fail while others are in flight,
 * and the coordinator's CONCURRENT_TRANSACTIONS right after a commit. kafkajs' real retrier and
 * error classes drive it, as in production.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  createSendMessages,
  type Cluster,
  type EosManager,
  type KafkaErrors,
} from '../../../src/kafka/send-messages.js';

const load = createRequire(import.meta.url);
const errors = load('kafkajs/src/errors.js') as KafkaErrors & {
  KafkaJSProtocolError: new (e: unknown) => Error;
};
const { createErrorFromCode } = load('kafkajs/src/protocol/error.js') as {
  createErrorFromCode: (code: number) => Error;
};
const createRetry = load('kafkajs/src/retry/index.js') as (options: object) => never;

const NOT_LEADER = 6;
const CONCURRENT_TRANSACTIONS = 51;
const protocolError = (code: number) => new errors.KafkaJSProtocolError(createErrorFromCode(code));

interface Sent {
  readonly broker: number;
  readonly topic: string;
  readonly partition: number;
  readonly firstSequence: number | undefined;
  readonly count: number;
}

type Behaviour = (attempt: number) => { fail?: Error; delayMs?: number };

/** A cluster whose leaders and broker behaviours a test scripts; records every produce request. */
function scriptedCluster(leaders: () => Record<number, number>, brokers: Record<number, Behaviour>) {
  const sent: Sent[] = [];
  const calls = new Map<number, number>();
  let offset = 0;
  const cluster: Cluster = {
    addMultipleTargetTopics: async () => {},
    refreshMetadataIfNecessary: async () => {},
    refreshMetadata: async () => {},
    isConnected: () => true,
    connect: async () => {},
    removeBroker: () => {},
    findTopicPartitionMetadata: () =>
      Object.entries(leaders()).map(([partitionId, leader]) => ({
        partitionId: Number(partitionId),
        leader,
      })),
    findBroker: async ({ nodeId }) => ({
      nodeId: Number(nodeId),
      produce: async ({ topicData }) => {
        const n = Number(nodeId);
        const attempt = (calls.get(n) ?? 0) + 1;
        calls.set(n, attempt);
        const behaviour: Behaviour = brokers[n] ?? (() => ({}));
        const { fail, delayMs } = behaviour(attempt);
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        for (const { topic, partitions } of topicData)
          for (const p of partitions)
            sent.push({
              broker: n,
              topic,
              partition: p.partition,
              firstSequence: p.firstSequence,
              count: p.messages.length,
            });
        if (fail) throw fail;
        return {
          topics: topicData.map(({ topic, partitions }) => ({
            topicName: topic,
            partitions: partitions.map((p) => ({
              partition: p.partition,
              errorCode: 0,
              baseOffset: String((offset += p.messages.length)),
              logAppendTime: '-1',
            })),
          })),
        };
      },
    }),
  };
  return { cluster, sent };
}

function eosManager(options: { concurrentTransactions?: number } = {}) {
  const sequences = new Map<string, number>();
  let concurrent = options.concurrentTransactions ?? 0;
  const added: number[] = [];
  const manager: EosManager = {
    isTransactional: () => true,
    getTransactionalId: () => 'tx',
    getProducerId: () => 7,
    getProducerEpoch: () => 1,
    getSequence: (topic, partition) => sequences.get(`${topic}:${partition}`) ?? 0,
    updateSequence: (topic, partition, increment) =>
      sequences.set(`${topic}:${partition}`, (sequences.get(`${topic}:${partition}`) ?? 0) + increment),
    addPartitionsToTransaction: async (topicData) => {
      if (concurrent > 0) {
        concurrent--;
        throw protocolError(CONCURRENT_TRANSACTIONS);
      }
      for (const t of topicData) for (const p of t.partitions) added.push(p.partition);
    },
    acquireBrokerLock: async () => {},
    releaseBrokerLock: () => {},
  };
  return { manager, sequences, added };
}

/** Messages carry their partition; the partitioner just reads it. */
const partitioner = ({ message }: { message: { partition?: number } }) => message.partition as number;
const quiet = { debug: () => {}, error: () => {} };
const messagesFor = (partitions: Record<number, number>) =>
  Object.entries(partitions).flatMap(([p, n]) => Array.from({ length: n }, () => ({ partition: Number(p) })));

function send(cluster: Cluster, manager: EosManager, partitions: Record<number, number>) {
  const sendMessages = createSendMessages(errors)({
    logger: quiet,
    cluster,
    partitioner,
    eosManager: manager,
    retrier: createRetry({ retries: 5, initialRetryTime: 1, maxRetryTime: 5 }),
  });
  return sendMessages({ topicMessages: [{ topic: 'out', messages: messagesFor(partitions) }] });
}

describe('send-messages', () => {
  it('sends a partition whose leadership moved to a broker that had already answered', async () => {
    // p0 on broker 1, p1 on broker 2; broker 2 is no longer leader and p1 moves to broker 1.
    let moved = false;
    const { cluster, sent } = scriptedCluster(() => ({ 0: 1, 1: moved ? 1 : 2 }), {
      2: () => {
        moved = true;
        return { fail: protocolError(NOT_LEADER) };
      },
    });
    const { manager } = eosManager();
    const result = await send(cluster, manager, { 0: 3, 1: 2 });
    expect(result.map((r) => r.partition).sort()).toEqual([0, 1]);
    // p0 went once (to broker 1); p1 twice: refused by broker 2, then written by broker 1.
    expect(sent.filter((s) => s.partition === 0)).toHaveLength(1);
    expect(sent.filter((s) => s.partition === 1).map((s) => s.broker)).toEqual([2, 1]);
  });

  it('never sends a batch again while its first request is in flight, and re-sends a failed one with the same sequence numbers', async () => {
    // Broker 1 fails at once; broker 2 answers slowly. kafkajs retried broker 2's batch too, with
    // new sequence numbers: a duplicate the broker could not recognise.
    const { cluster, sent } = scriptedCluster(() => ({ 0: 1, 1: 2 }), {
      1: (attempt) => (attempt === 1 ? { fail: protocolError(NOT_LEADER) } : {}),
      2: () => ({ delayMs: 30 }),
    });
    const { manager, sequences } = eosManager();
    await send(cluster, manager, { 0: 4, 1: 5 });
    expect(sent.filter((s) => s.partition === 1)).toHaveLength(1);
    const p0 = sent.filter((s) => s.partition === 0);
    expect(p0.map((s) => s.firstSequence)).toEqual([0, 0]);
    expect(sequences.get('out:0')).toBe(4);
    expect(sequences.get('out:1')).toBe(5);
  });

  it('waits out CONCURRENT_TRANSACTIONS from the coordinator without failing the request', async () => {
    const { cluster, sent } = scriptedCluster(() => ({ 0: 1 }), {});
    const { manager, added } = eosManager({ concurrentTransactions: 3 });
    await send(cluster, manager, { 0: 2 });
    expect(added).toEqual([0]);
    expect(sent).toHaveLength(1);
  });

  it('fails rather than resolve without every partition answered', async () => {
    // Broker 2 never accepts: the send must reject (so the transaction aborts), never resolve.
    const { cluster } = scriptedCluster(() => ({ 0: 1, 1: 2 }), {
      2: () => ({ fail: protocolError(NOT_LEADER) }),
    });
    const { manager } = eosManager();
    await expect(send(cluster, manager, { 0: 1, 1: 1 })).rejects.toThrow();
  });

  it('groups a large batch per partition in one pass, keeping each partition in input order', async () => {
    const { cluster, sent } = scriptedCluster(() => ({ 0: 1, 1: 1, 2: 2 }), {});
    const { manager } = eosManager();
    const result = await send(cluster, manager, { 0: 20_000, 1: 20_000, 2: 20_000 });
    expect(result).toHaveLength(3);
    expect(sent.map((s) => s.count)).toEqual([20_000, 20_000, 20_000]);
  });
});
