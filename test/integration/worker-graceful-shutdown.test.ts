// Guarantee: SIGTERM under load stops the worker cleanly: it exits 0 within the shutdown deadline
// (finishing or aborting the transaction in flight, leaving the group), and a restarted worker goes
// on from where it stopped, with no record lost or doubled.
import { afterAll, describe, expect, it } from 'vitest';
import { createTopics, stackEnv, testKafka, uniqueName, sleep } from '../support/index.js';
import {
  exactlyOnceReport,
  produceAtRate,
  readCommitted,
  sampleMessages,
} from '../support/enriched-records.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';

const RECORDS = 15_000;
const DEADLINE_MS = 10_000;

describe('worker: graceful shutdown', () => {
  const env = stackEnv();
  const kafka = testKafka('worker-sigterm');
  const raw = uniqueName('term.raw');
  const output = uniqueName('term.out');
  const workerEnv = {
    INPUT_TOPICS: raw,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: uniqueName('term.dlq'),
    CONSUMER_GROUP: uniqueName('term-group'),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    KAFKA_REBALANCE_TIMEOUT_MS: '10000',
    SHUTDOWN_DEADLINE_MS: String(DEADLINE_MS),
  };
  let current: WorkerProcess | null = null;

  afterAll(async () => {
    current?.child.kill('SIGKILL');
  });

  it('exits 0 within the deadline on SIGTERM under load, and a restart produces no duplicates', async () => {
    await createTopics(kafka, [raw, output], { numPartitions: 3 });
    const messages = sampleMessages('term', RECORDS);
    const ids = messages.map((m) => JSON.parse(String(m.value)).transaction_id as string);

    current = await startWorkerProcess(workerEnv);
    await current.waitUntilReady();
    const producing = produceAtRate(kafka, raw, messages, 3_000);
    await sleep(2_500);

    const signalled = Date.now();
    current.child.kill('SIGTERM');
    const { code, signal } = await current.exit('the worker to exit after SIGTERM under load');
    const tookMs = Date.now() - signalled;
    expect(signal, current.logs()).toBeNull();
    expect(code, current.logs()).toBe(0);
    expect(tookMs).toBeLessThan(DEADLINE_MS + 3_000);
    expect(current.logs()).toMatch(/"worker stopped"/);

    current = await startWorkerProcess(workerEnv);
    await current.waitUntilReady();
    await producing;
    const reads = await readCommitted(kafka, env.schemaRegistryUrl, output, {
      expected: RECORDS,
      idleMs: 5_000,
      timeoutMs: 180_000,
    });
    const report = exactlyOnceReport(ids, reads);
    expect(report.missing.length, `missing, e.g. ${report.missing.slice(0, 5).join(', ')}`).toBe(0);
    expect(report.duplicates.length, `duplicated, e.g. ${report.duplicates.slice(0, 5).join(', ')}`).toBe(0);
    expect(reads).toHaveLength(RECORDS);

    current.child.kill('SIGTERM');
    expect((await current.exit('the restarted worker to exit after SIGTERM')).code).toBe(0);
    current = null;
  }, 300_000);
});
