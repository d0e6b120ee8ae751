/**
 * One broker-fault scenario end to end (test/faults/*.test.ts): a worker process reads a raw topic
 * (6 partitions, RF 3) of a 3-broker cluster while a producer writes JSON transactions at a steady
 * rate; the scenario injects its fault mid-stream and says when the cluster was healthy again. Then
 * every input record (by partition and offset) must be in the output or the dead letters exactly
 * once (read_committed), the worker must not have exited on its own, and output must have resumed
 * within 60 s of the cluster being healthy.
 *
 * Recorded per run, printed and appended to .faults/results.jsonl (not asserted): the longest silence
 * (largest gap between output records, by their log-append time) and the catch-up time (healthy →
 * the last record that was produced before healthy is in the output).
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kafka, logLevel, type IHeaders } from 'kafkajs';
import { PROJECT_ROOT } from '../../scripts/stack.js';
import { HEADER, jsonHeader, type SourceHeader } from '../../src/kafka/headers.js';
import { TransactionalSink } from '../../src/kafka/transactional-sink.js';
import { TestCluster } from './cluster.js';
import { produceAtRate, readTopic, sampleMessages, type ReadUntil } from './enriched-records.js';
import { uniqueName } from './names.js';
import { sleep, waitFor, withTimeout } from './wait.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

export const RESUME_BOUND_MS = 60_000;
const FAULTS_DIR = join(PROJECT_ROOT, '.faults');

export interface ScenarioContext {
  readonly cluster: TestCluster;
  readonly group: string;
  readonly raw: string;
  /** The worker running now (scenario (e) replaces it). */
  worker(): WorkerProcess;
  /** Kills the current worker with SIGKILL and starts a new one (not waiting for it to be ready). */
  replaceWorker(): Promise<void>;
  log(line: string): void;
}

export interface ScenarioOptions {
  readonly name: string;
  readonly records: number;
  /** Records per second. */
  readonly rate: number;
  /** When to inject the fault, after production started. */
  readonly faultAfterMs: number;
  /** Injects the fault, undoes it, waits for full ISR; resolves with the time the cluster was healthy. */
  readonly inject: (ctx: ScenarioContext) => Promise<number>;
}

export interface ScenarioResult {
  readonly scenario: string;
  readonly at: string;
  readonly records: number;
  readonly inputRecords: number;
  readonly output: number;
  readonly deadLetters: number;
  readonly missing: number;
  readonly duplicated: number;
  readonly workerExits: number;
  /** How the worker exited on SIGTERM at the end (null: it did not within 60 s, or by a signal). */
  readonly stopExitCode: number | null;
  readonly longestSilenceMs: number;
  readonly resumeMs: number;
  readonly catchUpMs: number;
  readonly notes: readonly string[];
  readonly workerLog: string;
}

interface Seen {
  readonly key: string;
  readonly ts: number;
}

function kafkaFor(cluster: TestCluster, clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers: [...cluster.brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 2000 },
  });
}

/** Every data record of `topic` from the beginning, keyed by its source (partition:offset). */
function readAll(
  kafka: Kafka,
  topic: string,
  key: (m: { partition: number; offset: string; headers: IHeaders }) => string,
  until: ReadUntil,
): Promise<Seen[]> {
  return readTopic(kafka, topic, until, (m, partition) => ({
    key: key({ partition, offset: m.offset, headers: m.headers ?? {} }),
    ts: Number(m.timestamp),
  }));
}

function sourceKey(m: { partition: number; offset: string; headers: IHeaders }): string {
  const headers = m.headers;
  const source = jsonHeader<SourceHeader>(headers, HEADER.source);
  if (source !== undefined) return `${source.partition}:${source.offset}`;
  const partition = headers[HEADER.sourcePartition];
  const offset = headers[HEADER.sourceOffset];
  return `${String(partition)}:${String(offset)}`;
}

/** Waits until the group's committed offsets reach the input's high watermarks. */
async function waitCaughtUp(kafka: Kafka, group: string, topic: string, timeoutMs: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await waitFor(
      async () => {
        const [high, committed] = await Promise.all([
          admin.fetchTopicOffsets(topic),
          admin.fetchOffsets({ groupId: group, topics: [topic] }),
        ]);
        const done = committed[0]?.partitions ?? [];
        return high.every(
          (h) => BigInt(done.find((c) => c.partition === h.partition)?.offset ?? '-1') >= BigInt(h.high),
        );
      },
      { timeoutMs, intervalMs: 1000, description: `group ${group} committed up to the input's end` },
    );
  } finally {
    await admin.disconnect();
  }
}

export class FaultScenario {
  private cluster: TestCluster | null = null;
  private workers: WorkerProcess[] = [];

  constructor(private readonly options: ScenarioOptions) {}

  async setup(): Promise<TestCluster> {
    this.cluster = await TestCluster.start((line) => process.stderr.write(`[cluster] ${line}\n`));
    return this.cluster;
  }

  async teardown(): Promise<void> {
    for (const w of this.workers) w.child.kill('SIGKILL');
    await this.cluster?.stop();
  }

  /**
   * Copies every cluster node's log beside the worker's log (the cluster's directory is removed at
   * teardown): a failed run's evidence is in the brokers' logs as much as in the worker's.
   */
  keepClusterLogs(workerLog: string): string {
    const dir = workerLog.replace(/\.worker\.log$/, '.cluster');
    mkdirSync(dir, { recursive: true });
    for (const node of this.cluster?.state.nodes ?? []) {
      if (existsSync(node.logFile)) copyFileSync(node.logFile, join(dir, basename(node.logFile)));
    }
    return dir;
  }

  async run(): Promise<ScenarioResult> {
    const cluster = this.cluster;
    if (cluster === null) throw new Error('setup() first');
    const { name, records, rate } = this.options;
    mkdirSync(FAULTS_DIR, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const workerLog = join(FAULTS_DIR, `${name}-${stamp}.worker.log`);
    const notes: string[] = [];
    const log = (line: string) => {
      notes.push(`${new Date().toISOString()} ${line}`);
      process.stderr.write(`[${name}] ${line}\n`);
    };
    const kafka = kafkaFor(cluster, `faults-${name}`);
    const raw = uniqueName(`${name}.raw`);
    const output = uniqueName(`${name}.out`);
    const dlq = uniqueName(`${name}.dlq`);
    const group = uniqueName(`${name}-group`);
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        { topic: raw, numPartitions: 6, replicationFactor: 3 },
        // Log-append time: each output record carries when the broker took it, for the silence figures.
        {
          topic: output,
          numPartitions: 6,
          replicationFactor: 3,
          configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
        },
        {
          topic: dlq,
          numPartitions: 1,
          replicationFactor: 3,
          configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
        },
      ],
    });
    await admin.disconnect();
    await cluster.waitFullIsr(60_000, 'full ISR after creating the topics');

    const env: Record<string, string> = {
      KAFKA_BROKERS: cluster.brokers.join(','),
      SCHEMA_REGISTRY_URL: cluster.registryUrl,
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      INPUT_TOPICS: raw,
      OUTPUT_TOPIC: output,
      DLQ_TOPIC: dlq,
      CONSUMER_GROUP: group,
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      KAFKA_REBALANCE_TIMEOUT_MS: '20000',
      ...faultWorkerEnv(),
    };
    let exits = 0;
    let deliberate = 0;
    const start = async (): Promise<WorkerProcess> => {
      const w = await startWorkerProcess(env, workerLog);
      this.workers.push(w);
      void w.exited.then(({ code, signal }) => {
        exits++;
        log(`worker pid ${w.child.pid} exited (code ${code}, signal ${signal})`);
      });
      return w;
    };
    let current = await start();
    await current.waitUntilReady(120_000);
    const txnCoordinators = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((p) =>
        cluster.transactionCoordinator(TransactionalSink.transactionalId(group, raw, p)),
      ),
    );
    log(
      `worker ready; group coordinator: broker ${await cluster.groupCoordinator(group)}; ` +
        `transaction coordinators of partitions 0-5: brokers ${txnCoordinators.join(',')}`,
    );

    const messages = sampleMessages(name, records);
    // A send that fails while brokers are down is tried again until it goes through.
    const producing = produceAtRate(kafka, raw, messages, rate, { retryFailedSends: 200 }).then(
      (failures) => {
        if (failures > 0) notes.push(`producer: ${failures} failed sends retried`);
      },
    );
    producing.catch(() => undefined);
    await sleep(this.options.faultAfterMs);

    const ctx: ScenarioContext = {
      cluster,
      group,
      raw,
      worker: () => current,
      replaceWorker: async () => {
        deliberate++;
        current.child.kill('SIGKILL');
        await current.exited;
        current = await start();
      },
      log,
    };
    const healthyAt = await this.options.inject(ctx);
    log(`cluster healthy again`);
    await producing;
    log('all input produced');
    await waitCaughtUp(kafka, group, raw, 300_000);
    log('worker caught up (committed offsets at the input high watermarks)');

    const input = await readAll(kafka, raw, (m) => `${m.partition}:${m.offset}`, {
      readUncommitted: true,
      expected: records,
      idleMs: 2_000,
      timeoutMs: 120_000,
    });
    const out = await readAll(kafka, output, sourceKey, {
      readUncommitted: false,
      expected: input.length,
      idleMs: 3_000,
      timeoutMs: 180_000,
    });
    const letters = await readAll(kafka, dlq, sourceKey, {
      readUncommitted: false,
      expected: 0,
      idleMs: 2_000,
      timeoutMs: 30_000,
    });

    const counts = new Map<string, number>();
    for (const r of [...out, ...letters]) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
    const inputKeys = new Set(input.map((r) => r.key));
    const missing = [...inputKeys].filter((k) => !counts.has(k));
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
    const unexpected = [...counts.keys()].filter((k) => !inputKeys.has(k));
    if (missing.length > 0) log(`missing, e.g. ${missing.slice(0, 10).join(' ')}`);
    if (duplicated.length > 0) log(`duplicated, e.g. ${duplicated.slice(0, 10).join(' ')}`);
    if (unexpected.length > 0) log(`unexpected sources, e.g. ${unexpected.slice(0, 10).join(' ')}`);

    const times = [...out, ...letters].map((r) => r.ts).sort((a, b) => a - b);
    let longestSilenceMs = 0;
    for (let i = 1; i < times.length; i++) {
      longestSilenceMs = Math.max(longestSilenceMs, (times[i] as number) - (times[i - 1] as number));
    }
    const firstAfter = times.find((t) => t >= healthyAt);
    const resumeMs = firstAfter === undefined ? 0 : firstAfter - healthyAt;
    const outputAt = new Map([...out, ...letters].map((r) => [r.key, r.ts]));
    const backlog = input.filter((r) => r.ts < healthyAt).map((r) => outputAt.get(r.key) ?? healthyAt);
    const catchUpMs = Math.max(0, Math.max(healthyAt, ...backlog) - healthyAt);

    // A worker that outlived the outage must still stop when told to (its supervisor waits for it).
    deliberate++;
    current.child.kill('SIGTERM');
    const stopped = await withTimeout(current.exited, 60_000, 'the worker exiting after SIGTERM').catch(
      (error: Error) => {
        log(error.message);
        return { code: null, signal: null };
      },
    );
    const result: ScenarioResult = {
      scenario: name,
      at: new Date().toISOString(),
      records,
      inputRecords: input.length,
      output: out.length,
      deadLetters: letters.length,
      missing: missing.length,
      duplicated: duplicated.length + unexpected.length,
      workerExits: exits - deliberate,
      stopExitCode: stopped.code,
      longestSilenceMs,
      resumeMs,
      catchUpMs,
      notes,
      workerLog,
    };
    appendFileSync(join(FAULTS_DIR, 'results.jsonl'), `${JSON.stringify(result)}\n`);
    process.stdout.write(
      `[faults] ${name}: input ${input.length}, output ${out.length}, dead letters ${letters.length}, ` +
        `missing ${result.missing}, duplicated ${result.duplicated}, worker exits ${result.workerExits}, ` +
        `exit code on SIGTERM ${result.stopExitCode}, ` +
        `longest silence ${(longestSilenceMs / 1000).toFixed(1)} s, resume ${(resumeMs / 1000).toFixed(1)} s, ` +
        `catch-up ${(catchUpMs / 1000).toFixed(1)} s\n`,
    );
    return result;
  }
}

/** Worker settings of the fault runs (FAULTS_WORKER_ENV='{"K":"v"}' adds or overrides). */
function faultWorkerEnv(): Record<string, string> {
  const raw = process.env.FAULTS_WORKER_ENV;
  return raw === undefined || raw.trim() === '' ? {} : (JSON.parse(raw) as Record<string, string>);
}

/**
 * The test of one scenario file: a fresh cluster, one run, and the guarantee: nothing lost, nothing
 * doubled, no exit of the worker on its own, output resumed within 60 s of the cluster being healthy.
 */
export function faultTest(title: string, options: Omit<ScenarioOptions, 'records' | 'rate'>): void {
  const scenario = new FaultScenario({
    records: Number(process.env.FAULTS_RECORDS ?? 24_000),
    rate: Number(process.env.FAULTS_RATE ?? 400),
    ...options,
  });
  describe(title, () => {
    beforeAll(async () => {
      await scenario.setup();
    });
    afterAll(async () => {
      await scenario.teardown();
    });
    it('loses nothing, doubles nothing, needs no restart, resumes within 60 s', async () => {
      const r = await scenario.run();
      const failed = r.missing > 0 || r.duplicated > 0 || r.workerExits > 0 || r.stopExitCode !== 0;
      const clusterLogs = failed ? `\ncluster logs: ${scenario.keepClusterLogs(r.workerLog)}` : '';
      const evidence = `\nnotes:\n${r.notes.join('\n')}\nworker log: ${r.workerLog}${clusterLogs}`;
      expect(r.missing, `lost records${evidence}`).toBe(0);
      expect(r.duplicated, `duplicated records${evidence}`).toBe(0);
      expect(r.workerExits, `the worker exited on its own${evidence}`).toBe(0);
      expect(r.resumeMs, `output resumed late${evidence}`).toBeLessThanOrEqual(RESUME_BOUND_MS);
      expect(r.stopExitCode, `the worker did not exit 0 on SIGTERM${evidence}`).toBe(0);
    });
  });
}
