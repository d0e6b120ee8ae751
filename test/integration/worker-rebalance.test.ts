// Guarantee: a rebalance loses and doubles nothing. While records stream in, a second worker joins the
// group (partitions move to it) and later leaves (they move back); a read_committed verifier finds
// every input exactly once, and for each customer the enriched records keep the order of their
// inputs within each input partition.
import { afterAll, describe, expect, it } from 'vitest';
import { createTopics, stackEnv, testKafka, uniqueName, sleep } from '../support/index.js';
import {
  exactlyOnceReport,
  produceAtRate,
  readCommitted,
  sampleMessages,
} from '../support/enriched-records.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

const RECORDS = 20_000;

describe('worker: rebalance', () => {
  const env = stackEnv();
  const kafka = testKafka('worker-rebalance');
  const raw = uniqueName('reb.raw');
  const output = uniqueName('reb.out');
  const dlq = uniqueName('reb.dlq');
  const workerEnv = {
    INPUT_TOPICS: raw,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: dlq,
    CONSUMER_GROUP: uniqueName('reb-group'),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    KAFKA_REBALANCE_TIMEOUT_MS: '10000',
  };
  const running: WorkerProcess[] = [];

  afterAll(async () => {
    for (const w of running) w.child.kill('SIGKILL');
  });

  it('keeps exactly-once and per-customer order when a worker joins and leaves', async () => {
    await createTopics(kafka, [raw, output], { numPartitions: 4 });
    const messages = sampleMessages('reb', RECORDS, 150);
    const ids = messages.map((m) => JSON.parse(String(m.value)).transaction_id as string);

    const first = await startWorkerProcess(workerEnv);
    running.push(first);
    await first.waitUntilReady();
    const producing = produceAtRate(kafka, raw, messages, 1_000);

    await sleep(4_000);
    const second = await startWorkerProcess(workerEnv);
    running.push(second);
    await second.waitUntilReady();
    await sleep(6_000);
    // The second worker really took partitions over before leaving.
    expect(second.logs()).toMatch(new RegExp(`"assignment":\\{"${raw.replace(/\./g, '\\.')}":\\[\\d`));
    second.child.kill('SIGTERM');
    expect((await second.exit('the second worker to exit after SIGTERM')).code).toBe(0);
    await producing;

    const reads = await readCommitted(kafka, env.schemaRegistryUrl, output, {
      expected: RECORDS,
      idleMs: 5_000,
      timeoutMs: 240_000,
    });
    const report = exactlyOnceReport(ids, reads);
    expect(
      report.missing.length,
      `missing, e.g. ${report.missing.slice(0, 5).join(', ')}\n${first.logs()}`,
    ).toBe(0);
    expect(report.duplicates.length, `duplicated, e.g. ${report.duplicates.slice(0, 5).join(', ')}`).toBe(0);
    expect(reads).toHaveLength(RECORDS);

    // Per customer, within each input partition, output order = input order.
    const lastSeen = new Map<string, bigint>();
    const outOfOrder: string[] = [];
    const ordered = [...reads].sort((a, b) => a.partition - b.partition || Number(a.offset - b.offset));
    for (const r of ordered) {
      const key = `${r.customerId}\u0000${r.sourcePartition}`;
      const previous = lastSeen.get(key);
      if (previous !== undefined && r.sourceOffset <= previous) outOfOrder.push(r.transactionId);
      lastSeen.set(key, r.sourceOffset);
    }
    expect(outOfOrder, 'records of one customer out of input order').toEqual([]);
    // Every customer's records share one output partition (keyed by customer_id).
    const partitionsByCustomer = new Map<string, Set<number>>();
    for (const r of reads) {
      const set = partitionsByCustomer.get(r.customerId) ?? new Set<number>();
      set.add(r.partition);
      partitionsByCustomer.set(r.customerId, set);
    }
    expect([...partitionsByCustomer.values()].every((s) => s.size === 1)).toBe(true);

    first.child.kill('SIGTERM');
    expect((await first.exit('the first worker to exit after SIGTERM')).code).toBe(0);
  }, 600_000);
});
