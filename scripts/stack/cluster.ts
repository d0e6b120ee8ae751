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
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import {
  PROJECT_ROOT,
  StackError,
  commandLine,
  fetchArtifacts,
  findJava,
  findRegistryJar,
  freePort,
  isPortOpen,
  paths as singlePaths,
  probeKafka,
  probeRegistry,
  randomClusterId,
  registryJavaMajor,
  rotateLog,
  runLogged,
  stackOptions,
  type StackOptions,
} from '../stack.js';

export type NodeRole = 'controller' | 'broker' | 'registry';

export interface ClusterNode {
  /** controller-1, broker-2, registry. */
  readonly name: string;
  readonly role: NodeRole;
  /** Kafka node.id (brokers 1..N so that leader ids name brokers; controllers 101..103). */
  readonly nodeId: number;
  readonly port: number;
  readonly java: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly logFile: string;
  pid: number | null;
}

export interface ClusterState {
  readonly dir: string;
  readonly clusterId: string;
  readonly brokers: string;
  readonly registryUrl: string;
  readonly registryHealthUrl: string;
  /** Partitions of __consumer_offsets and __transaction_state (for finding coordinators). */
  readonly internalPartitions: number;
  readonly nodes: ClusterNode[];
}

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

const HOST = '127.0.0.1';
const CONTROLLERS = 3;
const INTERNAL_PARTITIONS = 50;

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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const stateFile = (dir: string) => join(dir, 'cluster.json');
const marker = (dir: string, name: string) => `-Dtxenrich.stack=${name}@${dir}`;

export function readClusterState(dir: string): ClusterState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}

function writeState(state: ClusterState): void {
  writeFileSync(stateFile(state.dir), `${JSON.stringify(state, null, 2)}\n`);
}

export function findNode(state: ClusterState, name: string): ClusterNode {
  const node = state.nodes.find((n) => n.name === name);
  if (node === undefined) throw new Error(`no node ${name} in the cluster at ${state.dir}`);
  return node;
}

/** Whether the node's recorded PID is alive (stopped counts as alive) and carries our marker. */
export function nodeAlive(state: ClusterState, node: ClusterNode): boolean {
  if (node.pid === null) return false;
  return commandLine(node.pid)?.includes(marker(state.dir, node.name)) ?? false;
}

function kafkaProperties(
  node: { role: 'controller' | 'broker'; nodeId: number; port: number },
  voters: string,
  dataDir: string,
): string {
  const common = [
    `# Written by scripts/stack/cluster.ts: ${node.role} ${node.nodeId} of a local KRaft cluster.`,
    `process.roles=${node.role}`,
    `node.id=${node.nodeId}`,
    `controller.quorum.voters=${voters}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${dataDir}`,
    // Small footprint: seven JVMs share a 2-core machine with the tests.
    'num.network.threads=2',
    'num.io.threads=2',
    'background.threads=2',
    'num.replica.fetchers=1',
    'log.cleaner.dedupe.buffer.size=8388608',
  ];
  if (node.role === 'controller')
    return [...common, `listeners=CONTROLLER://${HOST}:${node.port}`, ''].join('\n');
  return [
    ...common,
    `listeners=PLAINTEXT://${HOST}:${node.port}`,
    `advertised.listeners=PLAINTEXT://${HOST}:${node.port}`,
    'inter.broker.listener.name=PLAINTEXT',
    // What production runs: three copies, two must have every committed write, no unclean election.
    'num.partitions=6',
    'default.replication.factor=3',
    'min.insync.replicas=2',
    'offsets.topic.replication.factor=3',
    `offsets.topic.num.partitions=${INTERNAL_PARTITIONS}`,
    'transaction.state.log.replication.factor=3',
    'transaction.state.log.min.isr=2',
    `transaction.state.log.num.partitions=${INTERNAL_PARTITIONS}`,
    'unclean.leader.election.enable=false',
    'group.initial.rebalance.delay.ms=0',
    '',
  ].join('\n');
}

function jvmArgs(heap: string, classpath: string, config: string): string[] {
  return [
    '-Xms64m',
    `-Xmx${heap}`,
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true',
    '-Dorg.slf4j.simpleLogger.showDateTime=true',
    "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS",
    '-cp',
    classpath,
    'kafka.Kafka',
    config,
  ];
}

/** Starts the node's JVM (again) with its recorded command line; records the PID. */
export function spawnNode(state: ClusterState, node: ClusterNode): number {
  const fd = openSync(node.logFile, 'a');
  writeFileSync(fd, `\n=== ${new Date().toISOString()} starting ${node.name}\n`);
  const child = spawn(node.java, [marker(state.dir, node.name), ...node.args], {
    cwd: node.cwd,
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${node.name}`);
  child.unref();
  node.pid = child.pid;
  writeState(state);
  return child.pid;
}

/** Sends `signal` to the node if it is alive and ours; returns whether it was sent. */
export function signalNode(state: ClusterState, node: ClusterNode, signal: NodeJS.Signals): boolean {
  if (!nodeAlive(state, node) || node.pid === null) return false;
  process.kill(node.pid, signal);
  return true;
}

/** Waits until the node's process is gone (after a signal). */
export async function waitNodeGone(state: ClusterState, node: ClusterNode, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (nodeAlive(state, node)) {
    if (Date.now() > deadline)
      throw new Error(`${node.name} (pid ${node.pid}) still alive after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Starts a stopped node again on its port with its data; waits until the port answers. */
export async function restartNode(state: ClusterState, node: ClusterNode, timeoutMs = 60_000): Promise<void> {
  if (nodeAlive(state, node)) throw new Error(`${node.name} is still running (pid ${node.pid})`);
  spawnNode(state, node);
  const deadline = Date.now() + timeoutMs;
  while (!(await isPortOpen(HOST, node.port))) {
    if (!nodeAlive(state, node)) throw new Error(`${node.name} exited while starting (see ${node.logFile})`);
    if (Date.now() > deadline) throw new Error(`${node.name} not listening after ${timeoutMs} ms`);
    await sleep(200);
  }
}

async function stopNode(state: ClusterState, node: ClusterNode): Promise<string> {
  if (!nodeAlive(state, node) || node.pid === null) return `${node.name}: not running`;
  const pid = node.pid;
  process.kill(pid, 'SIGCONT'); // a paused JVM cannot handle SIGTERM
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && nodeAlive(state, node)) await sleep(200);
  let how = 'stopped';
  if (nodeAlive(state, node)) {
    process.kill(pid, 'SIGKILL');
    how = 'killed (no exit within 20 s of SIGTERM)';
    await waitNodeGone(state, node, 10_000);
  }
  node.pid = null;
  writeState(state);
  return `${node.name}: ${how} (pid ${pid})`;
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
    await clusterDown(o).catch(() => undefined);
    throw error;
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
