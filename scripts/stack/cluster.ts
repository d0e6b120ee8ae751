/**
 * Cluster mode of the local stack: 3 KRaft controllers and N brokers (default 3) as separate JVMs on
 * 127.0.0.1, with production-like replication (RF 3, min ISR 2, no unclean election), plus an Apicurio
 * Registry. For the broker fault tests (test/faults) and for trying the worker against leader loss:
 *
 *   tsx scripts/stack.ts up --brokers 3      start it (or reuse it), write .env.cluster
 *   tsx scripts/stack.ts down --brokers 3    stop it
 *
 * Its state lives in its own directory (STACK_CLUSTER_DIR, default .stack/cluster) and it takes free
 * ports, so it never collides with the single-node stack or another checkout's. The state file
 * (cluster.json) holds every node's ports, command line and PID, so a test can kill, pause and restart
 * one broker with its data intact ({@link signalNode}, {@link restartNode}). Like the single-node stack,
 * nothing is killed by name: each JVM carries a marker (-Dtxenrich.stack=<node>@<dir>) that is checked
 * against /proc before any signal.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { fetchArtifacts, findRegistryJar } from './artifacts.js';
import {
  CONTROLLERS,
  HOST,
  INTERNAL_PARTITIONS,
  jvmArgs,
  kafkaProperties,
  nodeAlive,
  readClusterState,
  spawnNode,
  stopNode,
  writeState,
  type ClusterNode,
  type ClusterState,
  type NodeRole,
} from './cluster-node.js';
import { findJava, registryJavaMajor } from './java.js';
import { randomClusterId } from './kafka-node.js';
import { PROJECT_ROOT, paths as singlePaths, stackOptions, type StackOptions } from './options.js';
import { freePort } from './processes.js';
import { probeKafka, probeRegistry } from './probes.js';
import { StackError, rotateLog, runLogged, sleep } from './util.js';

export {
  findNode,
  nodeAlive,
  readClusterState,
  restartNode,
  signalNode,
  waitNodeGone,
  type ClusterNode,
  type ClusterState,
  type NodeRole,
} from './cluster-node.js';

export interface ClusterOptions {
  readonly dir: string;
  readonly envFile: string;
  readonly brokers: number;
  readonly brokerHeap: string;
  readonly controllerHeap: string;
  readonly readyTimeoutMs: number;
  readonly log: (line: string) => void;
  /** Where the Kafka jars and the registry come from (the single-node stack's downloads). */
  readonly single: StackOptions;
}

export function clusterOptions(env: NodeJS.ProcessEnv = process.env, brokers = 3): ClusterOptions {
  const single = stackOptions(env);
  return {
    dir: resolve(PROJECT_ROOT, env.STACK_CLUSTER_DIR?.trim() || join('.stack', 'cluster')),
    envFile: resolve(PROJECT_ROOT, env.STACK_CLUSTER_ENV_FILE?.trim() || '.env.cluster'),
    brokers,
    brokerHeap: env.STACK_CLUSTER_BROKER_HEAP?.trim() || '384m',
    controllerHeap: env.STACK_CLUSTER_CONTROLLER_HEAP?.trim() || '256m',
    readyTimeoutMs: single.readyTimeoutMs,
    log: single.log,
    single,
  };
}

/** Every partition of every topic (internal ones too) has all its replicas in sync. */
export async function fullIsr(brokers: readonly string[]): Promise<{ ok: boolean; detail: string }> {
  const kafka = new Kafka({
    clientId: 'tx-enrich-stack-isr',
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length < brokers.length) {
      return { ok: false, detail: `${cluster.brokers.length} of ${brokers.length} brokers registered` };
    }
    const { topics } = await admin.fetchTopicMetadata();
    const short = topics.flatMap((t) =>
      t.partitions
        .filter((p) => p.leader < 0 || p.isr.length < p.replicas.length)
        .map((p) => `${t.name}[${p.partitionId}] isr ${p.isr.join(',')} of ${p.replicas.join(',')}`),
    );
    return short.length === 0
      ? { ok: true, detail: `${topics.length} topics in full ISR` }
      : { ok: false, detail: `${short.length} partitions short, e.g. ${short.slice(0, 3).join('; ')}` };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

export async function waitFullIsr(
  brokers: readonly string[],
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'not probed';
  while (Date.now() < deadline) {
    const result = await fullIsr(brokers).catch((e: Error) => ({ ok: false, detail: e.message }));
    if (result.ok) return;
    last = result.detail;
    await sleep(1000);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${last}`);
}

/** Starts the cluster (a fresh one: data formatted anew) unless it runs; writes the env file. */
export async function clusterUp(o: ClusterOptions): Promise<ClusterState> {
  const existing = readClusterState(o.dir);
  if (existing !== undefined && existing.nodes.every((n) => nodeAlive(existing, n))) {
    o.log(`cluster already running (${existing.brokers})`);
    await waitClusterReady(o, existing);
    writeEnv(o, existing);
    return existing;
  }
  if (existing !== undefined) await clusterDown(o);
  await fetchArtifacts(o.single, ['kafka', 'registry']);
  const sp = singlePaths(o.single);
  rmSync(o.dir, { recursive: true, force: true });
  mkdirSync(o.dir, { recursive: true });
  const kafkaJava = findJava(o.single.kafkaJava, 17, 'Kafka 4.x');
  const registryJava = findJava(
    o.single.registryJava,
    registryJavaMajor(o.single.apicurioVersion),
    `Apicurio Registry ${o.single.apicurioVersion}`,
  );
  const classpath = `${sp.kafkaLib}/*`;
  const clusterId = randomClusterId();
  const controllerPorts = await Promise.all(Array.from({ length: CONTROLLERS }, () => freePort(HOST)));
  const brokerPorts = await Promise.all(Array.from({ length: o.brokers }, () => freePort(HOST)));
  const [registryPort, managementPort] = [await freePort(HOST), await freePort(HOST)];
  const voters = controllerPorts.map((p, i) => `${101 + i}@${HOST}:${p}`).join(',');
  const nodes: ClusterNode[] = [];
  const kafkaNode = (role: 'controller' | 'broker', nodeId: number, port: number, name: string) => {
    const home = join(o.dir, name);
    const data = join(home, 'data');
    const config = join(home, 'server.properties');
    mkdirSync(data, { recursive: true });
    writeFileSync(config, kafkaProperties({ role, nodeId, port }, voters, data));
    const logFile = join(o.dir, `${name}.log`);
    runLogged(
      kafkaJava,
      ['-Xmx256m', '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', config],
      logFile,
    );
    const heap = role === 'controller' ? o.controllerHeap : o.brokerHeap;
    nodes.push({
      name,
      role,
      nodeId,
      port,
      java: kafkaJava,
      args: jvmArgs(heap, classpath, config),
      cwd: home,
      logFile,
      pid: null,
    });
  };
  controllerPorts.forEach((p, i) => kafkaNode('controller', 101 + i, p, `controller-${i + 1}`));
  brokerPorts.forEach((p, i) => kafkaNode('broker', i + 1, p, `broker-${i + 1}`));
  const jar = findRegistryJar(sp.registryHome);
  if (jar === undefined)
    throw new StackError('start registry', 'registry', 'quarkus-run.jar not found', undefined);
  nodes.push({
    name: 'registry',
    role: 'registry',
    nodeId: 0,
    port: registryPort,
    java: registryJava,
    args: [
      '-Xms64m',
      `-Xmx${o.single.registryHeap}`,
      '-XX:+UseSerialGC',
      '-XX:+ExitOnOutOfMemoryError',
      `-Dquarkus.http.host=${HOST}`,
      `-Dquarkus.http.port=${registryPort}`,
      `-Dquarkus.management.host=${HOST}`,
      `-Dquarkus.management.port=${managementPort}`,
      '-jar',
      jar,
    ],
    cwd: dirname(jar),
    logFile: join(o.dir, 'registry.log'),
    pid: null,
  });
  const state: ClusterState = {
    dir: o.dir,
    clusterId,
    brokers: brokerPorts.map((p) => `${HOST}:${p}`).join(','),
    registryUrl: `http://${HOST}:${registryPort}/apis/ccompat/v7`,
    registryHealthUrl: `http://${HOST}:${managementPort}/health/ready`,
    internalPartitions: INTERNAL_PARTITIONS,
    nodes,
  };
  writeState(state);
  try {
    o.log(`starting ${CONTROLLERS} controllers, ${o.brokers} brokers and a registry in ${o.dir}`);
    for (const node of nodes) {
      rotateLog(node.logFile);
      spawnNode(state, node);
    }
    await waitClusterReady(o, state);
  } catch (error) {
    // Taking the cluster down deletes its folder and the nodes' logs in it: keep the failing
    // node's last lines first.
    const kept = error instanceof StackError ? error.withLogTail() : error;
    await clusterDown(o).catch(() => undefined);
    throw kept;
  }
  writeEnv(o, state);
  o.log(`cluster ready: KAFKA_BROKERS=${state.brokers} SCHEMA_REGISTRY_URL=${state.registryUrl}`);
  return state;
}

async function waitClusterReady(o: ClusterOptions, state: ClusterState): Promise<void> {
  const brokers = state.brokers.split(',');
  const deadline = Date.now() + o.readyTimeoutMs;
  let last = 'not probed';
  for (;;) {
    const dead = state.nodes.filter((n) => !nodeAlive(state, n));
    if (dead.length > 0) {
      throw new StackError(
        'wait for cluster',
        'kafka',
        `${dead.map((n) => n.name).join(', ')} exited`,
        dead[0]?.logFile,
      );
    }
    try {
      await probeKafka(brokers, 15_000);
      await probeRegistry(state.registryUrl, state.registryHealthUrl);
      const isr = await fullIsr(brokers);
      if (isr.ok) return;
      last = isr.detail;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) {
      throw new StackError(
        'wait for cluster',
        'kafka',
        `not ready after ${o.readyTimeoutMs} ms (${last})`,
        undefined,
      );
    }
    await sleep(1000);
  }
}

function writeEnv(o: ClusterOptions, state: ClusterState): void {
  writeFileSync(
    o.envFile,
    [
      '# Written by scripts/stack.ts up --brokers N; removed by down --brokers N.',
      `KAFKA_BROKERS=${state.brokers}`,
      `SCHEMA_REGISTRY_URL=${state.registryUrl}`,
      '',
    ].join('\n'),
  );
}

/** Stops every node of the cluster that is alive and ours, and removes its data. */
export async function clusterDown(o: ClusterOptions): Promise<void> {
  const state = readClusterState(o.dir);
  if (state === undefined) {
    o.log('cluster: not running');
    return;
  }
  // Brokers before controllers, so that they can shut down cleanly.
  const order = [...state.nodes].sort((a, b) => rank(a.role) - rank(b.role));
  for (const node of order) o.log(await stopNode(state, node));
  rmSync(o.envFile, { force: true });
  rmSync(o.dir, { recursive: true, force: true });
}

function rank(role: NodeRole): number {
  return role === 'broker' ? 0 : role === 'registry' ? 1 : 2;
}

export function clusterStatus(o: ClusterOptions): string[] {
  const state = readClusterState(o.dir);
  if (state === undefined) return ['cluster: not running'];
  return state.nodes.map(
    (n) =>
      `${n.name.padEnd(13)}${nodeAlive(state, n) ? `running pid ${n.pid}` : 'stopped'} ${HOST}:${n.port}` +
      (existsSync(n.logFile) ? '' : ' (no log)'),
  );
}
