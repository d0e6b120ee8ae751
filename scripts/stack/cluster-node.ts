/**
 * One node of the local cluster (scripts/stack/cluster.ts): its Kafka properties, its JVM, and the
 * state file (cluster.json) that records every node's port, command line and PID, so that a node can
 * be signalled (only when alive and carrying our marker) and started again with its data.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaJvmArgs } from './java.js';
import { commandLine, isPortOpen } from './processes.js';
import { sleep } from './util.js';

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

export const HOST = '127.0.0.1';
export const CONTROLLERS = 3;
export const INTERNAL_PARTITIONS = 50;

const stateFile = (dir: string) => join(dir, 'cluster.json');
const marker = (dir: string, name: string) => `-Dtxenrich.stack=${name}@${dir}`;

export function readClusterState(dir: string): ClusterState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}

export function writeState(state: ClusterState): void {
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

export function kafkaProperties(
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

export function jvmArgs(heap: string, classpath: string, config: string): string[] {
  return kafkaJvmArgs(
    { min: '64m', max: heap },
    ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'],
    classpath,
    config,
  );
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

export async function stopNode(state: ClusterState, node: ClusterNode): Promise<string> {
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
