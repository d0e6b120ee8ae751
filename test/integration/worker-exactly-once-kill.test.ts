// Guarantee: exactly-once under SIGKILL. The worker runs as a child process; while 20,000 records
// stream in it is killed with SIGKILL at random moments at least five times and restarted each time.
// A read_committed verifier then finds every input transaction exactly once in the output: none lost,
// none doubled, none in the dead-letter topic.
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
const KILLS = 5;

describe('worker: exactly once across SIGKILL', () => {
  const env = stackEnv();
  const kafka = testKafka('worker-kill');
  const raw = uniqueName('kill.raw');
  const output = uniqueName('kill.out');
  const dlq = uniqueName('kill.dlq');
  const group = uniqueName('kill-group');
  const workerEnv = {
    INPUT_TOPICS: raw,
    OUTPUT_TOPIC: output,
    DLQ_TOPIC: dlq,
    CONSUMER_GROUP: group,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    KAFKA_REBALANCE_TIMEOUT_MS: '10000',
    BATCH_MAX_RECORDS: '500',
  };
  let current: WorkerProcess | null = null;

  afterAll(async () => {
    current?.child.kill('SIGKILL');
  });

  it(`delivers ${RECORDS} records exactly once while the worker is killed ${KILLS} times`, async () => {
    await createTopics(kafka, [raw, output, { topic: dlq, numPartitions: 1 }], { numPartitions: 3 });
    const messages = sampleMessages('kill', RECORDS);
    const ids = messages.map((m) => JSON.parse(String(m.value)).transaction_id as string);

    current = await startWorkerProcess(workerEnv);
    await current.waitUntilReady();
    const producing = produceAtRate(kafka, raw, messages, 1_000);

    const kills: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      // A random moment while records stream: mid-batch, mid-commit or idle.
      await sleep(1_000 + Math.floor(Math.random() * 2_000));
      current.child.kill('SIGKILL');
      const { signal } = await current.exit('the worker to die of SIGKILL');
      expect(signal).toBe('SIGKILL');
      kills.push(Date.now());
      current = await startWorkerProcess(workerEnv);
      await current.waitUntilReady();
    }
    await producing;

    const reads = await readCommitted(kafka, env.schemaRegistryUrl, output, {
      expected: RECORDS,
      idleMs: 5_000,
      timeoutMs: 240_000,
    });
    const report = exactlyOnceReport(ids, reads);
    expect(kills).toHaveLength(KILLS);
    expect(
      report.missing.length,
      `missing ids, e.g. ${report.missing.slice(0, 5).join(', ')}\n${current.logs()}`,
    ).toBe(0);
    expect(report.duplicates.length, `duplicated ids, e.g. ${report.duplicates.slice(0, 5).join(', ')}`).toBe(
      0,
    );
    expect(report.unexpected).toEqual([]);
    expect(reads).toHaveLength(RECORDS);

    const letters = await readCommitted(kafka, env.schemaRegistryUrl, dlq, {
      expected: 0,
      idleMs: 1_000,
      timeoutMs: 10_000,
    });
    expect(letters).toHaveLength(0);

    current.child.kill('SIGTERM');
    expect((await current.exit('the last worker to exit after SIGTERM')).code).toBe(0);
    current = null;
  }, 600_000);
});
