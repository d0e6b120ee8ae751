/** Readiness: when Kafka and the registry really answer, not just listen. */
import { Kafka, logLevel } from 'kafkajs';
import { paths, type Component, type StackOptions } from './options.js';
import { processState } from './processes.js';
import { StackError, sleep } from './util.js';

/**
 * Kafka is ready when the admin client sees the cluster, the group coordinator answers (creates
 * __consumer_offsets) and a transactional producer can initialise (creates __transaction_state).
 * Exported: the test global setup uses it for any broker.
 */
export async function probeKafka(brokers: readonly string[], timeoutMs = 15_000): Promise<void> {
  const kafka = new Kafka({
    clientId: 'tx-enrich-stack-probe',
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    requestTimeout: timeoutMs,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 2000 },
  });
  const admin = kafka.admin();
  const producer = kafka.producer({
    transactionalId: `tx-enrich-stack-probe-${process.pid}`,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  const work = (async () => {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length === 0) throw new Error('no brokers in metadata');
    await admin.describeGroups(['tx-enrich-stack-probe']);
    await producer.connect();
    const transaction = await producer.transaction();
    await transaction.abort();
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kafka probe timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

/** The registry is ready when /health/ready says UP and the ccompat API answers. */
export async function probeRegistry(ccompatUrl: string, healthUrl: string | undefined): Promise<void> {
  if (healthUrl !== undefined) {
    const health = await fetch(healthUrl, { signal: AbortSignal.timeout(3000) });
    const body = (await health.json().catch(() => ({}))) as { status?: string };
    if (!health.ok || body.status !== 'UP') throw new Error(`${healthUrl} answered ${health.status}`);
  }
  const subjects = await fetch(`${ccompatUrl.replace(/\/$/, '')}/subjects`, {
    signal: AbortSignal.timeout(3000),
  });
  if (!subjects.ok) throw new Error(`${ccompatUrl}/subjects answered ${subjects.status}`);
  if (!Array.isArray(await subjects.json())) throw new Error(`${ccompatUrl}/subjects did not return a list`);
}

export async function waitReady(o: StackOptions, c: Component, probe: () => Promise<void>): Promise<void> {
  const p = paths(o);
  const deadline = Date.now() + o.readyTimeoutMs;
  let last = 'not probed yet';
  while (Date.now() < deadline) {
    const state = processState(o, c);
    if (state.state !== 'running') {
      throw new StackError(`wait for ${c} ready`, c, `the ${c} process exited`, p.logFile(c));
    }
    try {
      await probe();
      return;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(500);
  }
  throw new StackError(
    `wait for ${c} ready`,
    c,
    `not ready after ${o.readyTimeoutMs} ms (last probe: ${last})`,
    p.logFile(c),
  );
}
