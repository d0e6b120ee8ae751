/**
 * Local development stack without Docker: a single-node KRaft Apache Kafka broker (broker + controller
 * in one JVM) and an Apicurio Registry (Confluent-compatible API), both from Maven Central.
 *
 *   tsx scripts/stack.ts up        fetch (cached), start, wait until really ready, write .env.stack
 *   tsx scripts/stack.ts down      stop exactly the processes `up` started (PID files), remove .env.stack
 *   tsx scripts/stack.ts status    show what runs, where
 *   tsx scripts/stack.ts logs [kafka|registry] [-n LINES] [-f]
 *
 * npm scripts: stack:up, stack:down, stack:status, stack:logs. The vitest global setup imports
 * {@link stackUp} / {@link stackDown} from here.
 *
 * Nothing is ever killed by name: each JVM gets a marker system property
 * (-Dtxenrich.stack=<component>@<stack dir>) and a PID file; a PID is only signalled when the process
 * is alive and its command line carries our marker. The stack is ephemeral: each start formats a fresh
 * broker (the registry keeps schemas in memory, so old topic data would point at unknown schema ids).
 *
 * Environment (all optional): STACK_DIR, STACK_ENV_FILE, STACK_KAFKA_VERSION, STACK_APICURIO_VERSION,
 * STACK_KAFKA_PORT, STACK_KAFKA_CONTROLLER_PORT, STACK_REGISTRY_PORT, STACK_REGISTRY_MANAGEMENT_PORT,
 * STACK_KAFKA_HEAP, STACK_REGISTRY_HEAP, STACK_KAFKA_JAVA, STACK_REGISTRY_JAVA, STACK_READY_TIMEOUT_MS,
 * STACK_MVN.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export type Component = 'kafka' | 'registry';
export const COMPONENTS: readonly Component[] = ['kafka', 'registry'];

export interface StackOptions {
  readonly stackDir: string;
  readonly envFile: string;
  readonly host: string;
  readonly kafkaVersion: string;
  readonly apicurioVersion: string;
  readonly kafkaPort: number;
  readonly controllerPort: number;
  readonly registryPort: number;
  readonly registryManagementPort: number;
  readonly kafkaHeap: string;
  readonly registryHeap: string;
  readonly kafkaJava: string | undefined;
  readonly registryJava: string | undefined;
  readonly readyTimeoutMs: number;
  readonly mvn: string;
  /**
   * When a port is taken by someone else: false (the CLI) fails and names the variable to change;
   * true (the test set-up, which does not care which port) picks a free port instead.
   */
  readonly portFallback: boolean;
  /** Progress lines; defaults to stderr. */
  readonly log: (line: string) => void;
}

/** What `.env.stack` holds and what clients need. */
export interface StackAddresses {
  readonly KAFKA_BROKERS: string;
  readonly SCHEMA_REGISTRY_URL: string;
}

export interface StackUpResult {
  readonly addresses: StackAddresses;
  /** Components this call started (empty when everything was already running). */
  readonly started: readonly Component[];
}

/** A failed step: names the step and carries the tail of the component's log. */
export class StackError extends Error {
  constructor(
    readonly step: string,
    readonly component: Component | 'maven',
    message: string,
    readonly logFile: string | undefined,
  ) {
    super(`step "${step}" failed: ${message}`);
    this.name = 'StackError';
  }

  /** The message plus the last lines of the log, ready to print. */
  report(lines = 40): string {
    if (this.logFile === undefined || !existsSync(this.logFile)) return this.message;
    return `${this.message}\n--- last ${lines} lines of ${relative(process.cwd(), this.logFile)} ---\n${tail(this.logFile, lines)}`;
  }
}

// ---------------------------------------------------------------------------------------------------
// Options and paths

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535 * 10_000) {
    throw new Error(`${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  }
  return value;
}

function envStr(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

export function stackOptions(env: NodeJS.ProcessEnv = process.env): StackOptions {
  const stackDir = resolve(PROJECT_ROOT, envStr(env, 'STACK_DIR') ?? '.stack');
  return {
    stackDir,
    envFile: resolve(PROJECT_ROOT, envStr(env, 'STACK_ENV_FILE') ?? '.env.stack'),
    host: '127.0.0.1',
    kafkaVersion: envStr(env, 'STACK_KAFKA_VERSION') ?? '4.1.1',
    apicurioVersion: envStr(env, 'STACK_APICURIO_VERSION') ?? '3.3.3',
    kafkaPort: envInt(env, 'STACK_KAFKA_PORT', 19092),
    controllerPort: envInt(env, 'STACK_KAFKA_CONTROLLER_PORT', 19093),
    registryPort: envInt(env, 'STACK_REGISTRY_PORT', 18081),
    registryManagementPort: envInt(env, 'STACK_REGISTRY_MANAGEMENT_PORT', 18082),
    kafkaHeap: envStr(env, 'STACK_KAFKA_HEAP') ?? '512m',
    registryHeap: envStr(env, 'STACK_REGISTRY_HEAP') ?? '512m',
    kafkaJava: envStr(env, 'STACK_KAFKA_JAVA'),
    registryJava: envStr(env, 'STACK_REGISTRY_JAVA'),
    readyTimeoutMs: envInt(env, 'STACK_READY_TIMEOUT_MS', 120_000),
    mvn: envStr(env, 'STACK_MVN') ?? 'mvn',
    portFallback: false,
    log: (line) => process.stderr.write(`[stack] ${line}\n`),
  };
}

export function paths(o: StackOptions) {
  const run = join(o.stackDir, 'run');
  const downloads = join(o.stackDir, 'downloads');
  return {
    run,
    downloads,
    lock: join(run, 'lock'),
    mavenLog: join(run, 'maven.log'),
    kafkaLib: join(downloads, `kafka-${o.kafkaVersion}`),
    registryArchive: join(downloads, `apicurio-registry-app-${o.apicurioVersion}-all.tar.gz`),
    registryHome: join(o.stackDir, `apicurio-registry-${o.apicurioVersion}`),
    kafkaConfig: join(run, 'kafka', 'server.properties'),
    kafkaData: join(run, 'kafka', 'data'),
    pidFile: (c: Component) => join(run, `${c}.pid`),
    logFile: (c: Component) => join(run, `${c}.log`),
  };
}

function registryHealthUrl(o: StackOptions): string {
  return `http://${o.host}:${o.registryManagementPort}/health/ready`;
}

export function stackAddresses(o: StackOptions): StackAddresses {
  return {
    KAFKA_BROKERS: `${o.host}:${o.kafkaPort}`,
    SCHEMA_REGISTRY_URL: `http://${o.host}:${o.registryPort}/apis/ccompat/v7`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Small utilities

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function tail(file: string, lines: number): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((res) => {
    const socket = createConnection({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      res(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The process's command line, or undefined if it is gone (or a zombie). */
export function commandLine(pid: number): string[] | undefined {
  if (existsSync('/proc')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') return undefined;
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      return undefined;
    }
  }
  const ps = spawnSync('ps', ['-ww', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 && ps.stdout.trim() !== '' ? ps.stdout.trim().split(/\s+/) : undefined;
}

function marker(o: StackOptions, c: Component): string {
  return `-Dtxenrich.stack=${c}@${o.stackDir}`;
}

interface PidRecord {
  readonly pid: number;
  readonly component: Component;
  readonly marker: string;
  readonly startedAt: string;
  readonly addresses: Partial<StackAddresses>;
  /** The registry's readiness endpoint (on Quarkus' management interface). */
  readonly healthUrl?: string;
}

function readPid(o: StackOptions, c: Component): PidRecord | undefined {
  const file = paths(o).pidFile(c);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return undefined;
  }
}

type ProcessState =
  | { state: 'running'; record: PidRecord }
  | { state: 'stopped' }
  | { state: 'stale'; record: PidRecord | undefined; why: string };

/** Whether the component's PID file points at a live process that is ours. */
function processState(o: StackOptions, c: Component): ProcessState {
  const file = paths(o).pidFile(c);
  if (!existsSync(file)) return { state: 'stopped' };
  const record = readPid(o, c);
  if (record === undefined || !Number.isInteger(record.pid)) {
    return { state: 'stale', record, why: 'unreadable PID file' };
  }
  const args = commandLine(record.pid);
  if (args === undefined) return { state: 'stale', record, why: `process ${record.pid} is gone` };
  if (!args.includes(marker(o, c))) {
    return { state: 'stale', record, why: `process ${record.pid} is not ours (PID reused)` };
  }
  return { state: 'running', record };
}

/** A lock so that two `up`/`down` (a developer and a test run) do not race. */
async function withLock<T>(o: StackOptions, fn: () => Promise<T>): Promise<T> {
  const p = paths(o);
  mkdirSync(p.run, { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(p.lock, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(p.lock, 'utf8').trim());
      const alive = Number.isInteger(holder) && holder > 0 && commandLine(holder) !== undefined;
      if (!alive) {
        rmSync(p.lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`stack lock ${p.lock} held by process ${holder}`);
      if (!announced) o.log(`waiting for another stack command (process ${holder})...`);
      announced = true;
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(p.lock, { force: true });
  }
}

function javaMajor(java: string): number | undefined {
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (result.status !== 0) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (match === null) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

/** First java among the candidates with at least `minMajor`. */
export function findJava(explicit: string | undefined, minMajor: number, purpose: string): string {
  const candidates: string[] = [];
  if (explicit !== undefined) candidates.push(explicit);
  else {
    if (process.env.JAVA_HOME) candidates.push(join(process.env.JAVA_HOME, 'bin', 'java'));
    candidates.push('java');
    if (existsSync('/usr/lib/jvm')) {
      const jvms = readdirSync('/usr/lib/jvm')
        .map((d) => join('/usr/lib/jvm', d, 'bin', 'java'))
        .filter((j) => existsSync(j));
      candidates.push(...jvms);
    }
  }
  const seen: string[] = [];
  for (const java of candidates) {
    const major = javaMajor(java);
    seen.push(`${java}: ${major ?? 'not runnable'}`);
    if (major !== undefined && major >= minMajor) return java;
  }
  throw new Error(
    `${purpose} needs Java ${minMajor}+; none found (${seen.join('; ')}). Set ${
      purpose.startsWith('Kafka') ? 'STACK_KAFKA_JAVA' : 'STACK_REGISTRY_JAVA'
    } to a java binary.`,
  );
}

/** Apicurio Registry 3.2+ is built for Java 21; earlier 3.x run on 17. */
export function registryJavaMajor(version: string): number {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 3 || (major === 3 && minor >= 2) ? 21 : 17;
}

// ---------------------------------------------------------------------------------------------------
// Steps

export async function runStep<T>(
  step: string,
  component: Component | 'maven',
  logFile: string | undefined,
  fn: () => Promise<T> | T,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StackError) throw error;
    throw new StackError(step, component, (error as Error).message, logFile);
  }
}

export function runLogged(command: string, args: readonly string[], logFile: string, cwd?: string): void {
  const fd = openSync(logFile, 'a');
  try {
    writeFileSync(fd, `\n$ ${command} ${args.join(' ')}\n`);
    const result = spawnSync(command, args, { stdio: ['ignore', fd, fd], cwd });
    if (result.error) throw result.error;
    if (result.status !== 0)
      throw new Error(`${command} exited with status ${result.status ?? result.signal}`);
  } finally {
    closeSync(fd);
  }
}

/** Maven copies the Kafka jars and the registry archive into .stack/downloads (cached in ~/.m2). */
export async function fetchArtifacts(o: StackOptions, need: readonly Component[]): Promise<void> {
  const p = paths(o);
  const kafkaDone = join(p.kafkaLib, '.complete');
  const registryDone = join(p.registryHome, '.complete');
  const goals: string[] = [];
  if (need.includes('kafka') && !existsSync(kafkaDone)) goals.push('dependency:copy-dependencies@kafka');
  if (need.includes('registry') && !existsSync(registryDone) && !existsSync(p.registryArchive)) {
    goals.push('dependency:copy@registry');
  }
  if (goals.length > 0) {
    o.log(`fetching ${goals.map((g) => g.split('@')[1]).join(' and ')} with Maven (log: ${p.mavenLog})`);
    await runStep('fetch artifacts with Maven', 'maven', p.mavenLog, () =>
      runLogged(
        o.mvn,
        [
          '-B',
          '-q',
          '-Dstyle.color=never',
          '-f',
          join(PROJECT_ROOT, 'scripts', 'stack', 'pom.xml'),
          ...goals,
          `-Dkafka.version=${o.kafkaVersion}`,
          `-Dapicurio.version=${o.apicurioVersion}`,
          `-Dstack.kafka.dir=${p.kafkaLib}`,
          `-Dstack.registry.dir=${p.downloads}`,
        ],
        p.mavenLog,
      ),
    );
    if (goals.some((g) => g.endsWith('@kafka'))) writeFileSync(kafkaDone, new Date().toISOString());
  }
  if (need.includes('registry') && !existsSync(registryDone)) {
    o.log(`unpacking Apicurio Registry ${o.apicurioVersion}`);
    await runStep('unpack registry archive', 'maven', p.mavenLog, () => {
      rmSync(p.registryHome, { recursive: true, force: true });
      mkdirSync(p.registryHome, { recursive: true });
      runLogged('tar', ['-xzf', p.registryArchive, '-C', p.registryHome], p.mavenLog);
      if (findRegistryJar(p.registryHome) === undefined) throw new Error('no quarkus-run.jar in the archive');
      writeFileSync(registryDone, new Date().toISOString());
      rmSync(p.registryArchive, { force: true });
    });
  }
}

export function findRegistryJar(dir: string): string | undefined {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    for (const entry of readdirSync(current)) {
      const full = join(current, entry);
      if (entry === 'quarkus-run.jar' || entry.endsWith('-runner.jar')) return full;
      if (statSync(full).isDirectory()) stack.push(full);
    }
  }
  return undefined;
}

/** Each start gets a fresh log; the previous one is kept as <component>.previous.log. */
export function rotateLog(logFile: string): void {
  if (existsSync(logFile)) renameSync(logFile, logFile.replace(/\.log$/, '.previous.log'));
}

/**
 * A cluster id: 16 random bytes, base64url without padding (what StorageTool random-uuid prints).
 * Like Kafka's own Uuid.randomUuid, never one that starts with '-': StorageTool's argument parser
 * reads `-t -XBT...` as a missing value followed by an unknown option (1 start in 64 failed so).
 */
export function randomClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function kafkaProperties(o: StackOptions, dataDir: string): string {
  const h = o.host;
  return [
    '# Written by scripts/stack.ts: one node that is broker and controller (KRaft).',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@${h}:${o.controllerPort}`,
    `listeners=PLAINTEXT://${h}:${o.kafkaPort},CONTROLLER://${h}:${o.controllerPort}`,
    `advertised.listeners=PLAINTEXT://${h}:${o.kafkaPort}`,
    'inter.broker.listener.name=PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=1',
    'default.replication.factor=1',
    'min.insync.replicas=1',
    // One node: internal topics must not ask for three replicas, or groups and transactions hang.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    // Small footprint: the stack shares a 2-core machine with the tests.
    'num.network.threads=2',
    'num.io.threads=4',
    'background.threads=4',
    'log.cleaner.dedupe.buffer.size=16777216',
    '',
  ].join('\n');
}

function spawnJava(
  o: StackOptions,
  c: Component,
  java: string,
  args: readonly string[],
  cwd: string,
): number {
  const p = paths(o);
  const logFile = p.logFile(c);
  const fd = openSync(logFile, 'a');
  writeFileSync(fd, `\n=== ${new Date().toISOString()} starting ${c}: ${java} ${args.join(' ')}\n`);
  const child = spawn(java, [marker(o, c), ...args], { cwd, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${java}`);
  child.unref();
  const addresses = stackAddresses(o);
  const record: PidRecord = {
    pid: child.pid,
    component: c,
    marker: marker(o, c),
    startedAt: new Date().toISOString(),
    addresses:
      c === 'kafka'
        ? { KAFKA_BROKERS: addresses.KAFKA_BROKERS }
        : { SCHEMA_REGISTRY_URL: addresses.SCHEMA_REGISTRY_URL },
    ...(c === 'registry' ? { healthUrl: registryHealthUrl(o) } : {}),
  };
  writeFileSync(p.pidFile(c), `${JSON.stringify(record, null, 2)}\n`);
  return child.pid;
}

async function startKafka(o: StackOptions): Promise<void> {
  const p = paths(o);
  const logFile = p.logFile('kafka');
  const java = await runStep('find Java for Kafka', 'kafka', undefined, () =>
    findJava(o.kafkaJava, 17, 'Kafka 4.x'),
  );
  const classpath = `${p.kafkaLib}/*`;
  rotateLog(logFile);
  await runStep('format Kafka storage', 'kafka', logFile, () => {
    rmSync(join(p.run, 'kafka'), { recursive: true, force: true });
    mkdirSync(p.kafkaData, { recursive: true });
    writeFileSync(p.kafkaConfig, kafkaProperties(o, p.kafkaData));
    const clusterId = randomClusterId();
    runLogged(
      java,
      [
        '-Xmx256m',
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
        '-cp',
        classpath,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        clusterId,
        '-c',
        p.kafkaConfig,
      ],
      logFile,
    );
  });
  await runStep('start Kafka', 'kafka', logFile, () =>
    spawnJava(
      o,
      'kafka',
      java,
      [
        `-Xms128m`,
        `-Xmx${o.kafkaHeap}`,
        '-XX:+UseG1GC',
        '-XX:MaxGCPauseMillis=20',
        '-XX:+ExitOnOutOfMemoryError',
        '-Djava.awt.headless=true',
        '-Dorg.slf4j.simpleLogger.showDateTime=true',
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS",
        '-cp',
        classpath,
        'kafka.Kafka',
        p.kafkaConfig,
      ],
      join(p.run, 'kafka'),
    ),
  );
}

async function startRegistry(o: StackOptions): Promise<void> {
  const p = paths(o);
  const logFile = p.logFile('registry');
  const java = await runStep('find Java for the registry', 'registry', undefined, () =>
    findJava(o.registryJava, registryJavaMajor(o.apicurioVersion), `Apicurio Registry ${o.apicurioVersion}`),
  );
  rotateLog(logFile);
  const jar = findRegistryJar(p.registryHome);
  if (jar === undefined)
    throw new StackError('start registry', 'registry', 'quarkus-run.jar not found', logFile);
  await runStep('start registry', 'registry', logFile, () =>
    spawnJava(
      o,
      'registry',
      java,
      [
        '-Xms64m',
        `-Xmx${o.registryHeap}`,
        '-XX:+UseSerialGC',
        '-XX:+ExitOnOutOfMemoryError',
        `-Dquarkus.http.host=${o.host}`,
        `-Dquarkus.http.port=${o.registryPort}`,
        // Health lives on Quarkus' management interface, by default 0.0.0.0:9000: keep it local and ours.
        `-Dquarkus.management.host=${o.host}`,
        `-Dquarkus.management.port=${o.registryManagementPort}`,
        // So tests can clean up after themselves.
        '-Dapicurio.rest.deletion.group.enabled=true',
        '-Dapicurio.rest.deletion.artifact.enabled=true',
        '-Dapicurio.rest.deletion.artifact-version.enabled=true',
        '-jar',
        jar,
      ],
      dirname(jar),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------
// Readiness

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

async function waitReady(o: StackOptions, c: Component, probe: () => Promise<void>): Promise<void> {
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

// ---------------------------------------------------------------------------------------------------
// Commands

function writeEnvFile(o: StackOptions, addresses: StackAddresses): void {
  const lines = [
    '# Written by scripts/stack.ts (npm run stack:up); removed by npm run stack:down.',
    `KAFKA_BROKERS=${addresses.KAFKA_BROKERS}`,
    `SCHEMA_REGISTRY_URL=${addresses.SCHEMA_REGISTRY_URL}`,
    '',
  ];
  writeFileSync(o.envFile, lines.join('\n'));
}

/** Addresses of the running stack (from its PID files, which may differ from the current options). */
function runningAddresses(o: StackOptions): StackAddresses {
  const defaults = stackAddresses(o);
  return {
    KAFKA_BROKERS: readPid(o, 'kafka')?.addresses.KAFKA_BROKERS ?? defaults.KAFKA_BROKERS,
    SCHEMA_REGISTRY_URL:
      readPid(o, 'registry')?.addresses.SCHEMA_REGISTRY_URL ?? defaults.SCHEMA_REGISTRY_URL,
  };
}

async function stopComponent(o: StackOptions, c: Component): Promise<string> {
  const p = paths(o);
  const state = processState(o, c);
  if (state.state === 'stopped') return `${c}: not running`;
  if (state.state === 'stale') {
    rmSync(p.pidFile(c), { force: true });
    return `${c}: not running (removed stale PID file: ${state.why})`;
  }
  const { pid } = state.record;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && commandLine(pid) !== undefined) await sleep(200);
  let how = 'stopped';
  if (commandLine(pid) !== undefined && processState(o, c).state === 'running') {
    process.kill(pid, 'SIGKILL');
    how = 'killed (did not stop within 30 s of SIGTERM)';
    while (commandLine(pid) !== undefined) await sleep(100);
  }
  rmSync(p.pidFile(c), { force: true });
  return `${c}: ${how} (pid ${pid})`;
}

export function freePort(host: string): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.once('error', rej);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? res(address.port) : rej()));
    });
  });
}

/** Fails on a taken port, or (portFallback) swaps it for a free one. */
async function checkPorts(o: StackOptions, toStart: readonly Component[]): Promise<StackOptions> {
  type PortKey = 'kafkaPort' | 'controllerPort' | 'registryPort' | 'registryManagementPort';
  const ports: [Component, PortKey, string][] = [];
  if (toStart.includes('kafka')) {
    ports.push(
      ['kafka', 'kafkaPort', 'STACK_KAFKA_PORT'],
      ['kafka', 'controllerPort', 'STACK_KAFKA_CONTROLLER_PORT'],
    );
  }
  if (toStart.includes('registry')) {
    ports.push(
      ['registry', 'registryPort', 'STACK_REGISTRY_PORT'],
      ['registry', 'registryManagementPort', 'STACK_REGISTRY_MANAGEMENT_PORT'],
    );
  }
  let result = o;
  for (const [c, key, variable] of ports) {
    const port = o[key];
    if (!(await isPortOpen(o.host, port))) continue;
    if (!o.portFallback) {
      throw new StackError(
        'check ports',
        c,
        `${o.host}:${port} is already in use by another process; choose another port with ${variable}`,
        undefined,
      );
    }
    const replacement = await freePort(o.host);
    o.log(`${o.host}:${port} is taken (${variable}); using ${replacement} instead`);
    result = { ...result, [key]: replacement };
  }
  return result;
}

/**
 * Starts whatever part of the stack is not running, waits until it is really ready and writes
 * .env.stack. Running processes (alive and ours) are reused, never started twice. On failure, stops
 * what this call started and throws a {@link StackError}.
 */
export async function stackUp(options: StackOptions = stackOptions()): Promise<StackUpResult> {
  return withLock(options, async () => {
    let o = options;
    const p = paths(o);
    const toStart: Component[] = [];
    for (const c of COMPONENTS) {
      const state = processState(o, c);
      if (state.state === 'running') {
        o.log(`${c} already running (pid ${state.record.pid})`);
        continue;
      }
      if (state.state === 'stale') {
        o.log(`${c}: ignoring stale PID file (${state.why})`);
        rmSync(p.pidFile(c), { force: true });
      }
      toStart.push(c);
    }
    const running = runningAddresses(o);
    const probes: Record<Component, () => Promise<void>> = {
      kafka: () => probeKafka([running.KAFKA_BROKERS], 10_000),
      registry: () =>
        probeRegistry(running.SCHEMA_REGISTRY_URL, readPid(o, 'registry')?.healthUrl ?? registryHealthUrl(o)),
    };
    if (toStart.length === 0) {
      // Alive and ours: make sure they also answer (a no-op when they do).
      await Promise.all(COMPONENTS.map((c) => waitReady(o, c, probes[c])));
      writeEnvFile(o, running);
      return { addresses: running, started: [] };
    }

    o = await checkPorts(o, toStart);
    await fetchArtifacts(o, toStart);
    const started: Component[] = [];
    try {
      // Start both JVMs first, then wait for both: they boot in parallel.
      if (toStart.includes('kafka')) {
        o.log(`starting Kafka ${o.kafkaVersion} on ${o.host}:${o.kafkaPort}`);
        started.push('kafka');
        await startKafka(o);
      }
      if (toStart.includes('registry')) {
        o.log(`starting Apicurio Registry ${o.apicurioVersion} on ${o.host}:${o.registryPort}`);
        started.push('registry');
        await startRegistry(o);
      }
      const addresses = stackAddresses(o);
      const fresh: Record<Component, () => Promise<void>> = {
        kafka: () => probeKafka([addresses.KAFKA_BROKERS], 10_000),
        registry: () => probeRegistry(addresses.SCHEMA_REGISTRY_URL, registryHealthUrl(o)),
      };
      await Promise.all(COMPONENTS.map((c) => waitReady(o, c, toStart.includes(c) ? fresh[c] : probes[c])));
      const result = runningAddresses(o);
      writeEnvFile(o, result);
      o.log(`ready: KAFKA_BROKERS=${result.KAFKA_BROKERS} SCHEMA_REGISTRY_URL=${result.SCHEMA_REGISTRY_URL}`);
      return { addresses: result, started };
    } catch (error) {
      for (const c of started.reverse()) {
        o.log(await stopComponent(o, c).catch((e: Error) => `${c}: could not stop: ${e.message}`));
      }
      throw error;
    }
  });
}

/** Stops the given components (default: all) if they are running and ours. */
export async function stackDown(
  o: StackOptions = stackOptions(),
  components: readonly Component[] = COMPONENTS,
): Promise<void> {
  await withLock(o, async () => {
    for (const c of [...components].reverse()) o.log(await stopComponent(o, c));
    if (COMPONENTS.every((c) => processState(o, c).state !== 'running')) {
      rmSync(o.envFile, { force: true });
      rmSync(paths(o).kafkaData, { recursive: true, force: true });
    }
  });
}

export interface ComponentStatus {
  readonly component: Component;
  readonly state: 'running' | 'stopped' | 'stale';
  readonly pid: number | undefined;
  readonly address: string | undefined;
  readonly detail: string;
}

export function stackStatus(o: StackOptions = stackOptions()): readonly ComponentStatus[] {
  return COMPONENTS.map((c) => {
    const state = processState(o, c);
    const record = state.state === 'stopped' ? undefined : state.record;
    const address = c === 'kafka' ? record?.addresses.KAFKA_BROKERS : record?.addresses.SCHEMA_REGISTRY_URL;
    return {
      component: c,
      state: state.state,
      pid: record?.pid,
      address,
      detail:
        state.state === 'running'
          ? `since ${state.record.startedAt}`
          : state.state === 'stale'
            ? state.why
            : 'no PID file',
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// CLI

function usage(): string {
  return 'usage: tsx scripts/stack.ts up | down | status [--brokers N] | logs [kafka|registry|maven] [-n LINES] [-f]';
}

/** `--brokers N` (N > 1) selects the cluster mode (scripts/stack/cluster.ts); 1 is the single node. */
function takeBrokers(args: string[]): number {
  const at = args.findIndex((a) => a === '--brokers' || a.startsWith('--brokers='));
  if (at < 0) return 1;
  const [flag] = args.splice(at, 1) as [string];
  const raw = flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : args.splice(at, 1)[0];
  const brokers = Number(raw);
  if (!Number.isInteger(brokers) || brokers < 1 || brokers > 5) {
    throw new Error(`--brokers must be 1-5 (got ${JSON.stringify(raw)})`);
  }
  return brokers;
}

async function clusterCommand(command: string | undefined, brokers: number): Promise<number> {
  const cluster = await import('./stack/cluster.js');
  const o = cluster.clusterOptions(process.env, brokers);
  switch (command) {
    case 'up': {
      const t0 = Date.now();
      const state = await cluster.clusterUp(o);
      o.log(
        `cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s (env: ${relative(process.cwd(), o.envFile)})`,
      );
      process.stdout.write(`KAFKA_BROKERS=${state.brokers}\nSCHEMA_REGISTRY_URL=${state.registryUrl}\n`);
      return 0;
    }
    case 'down':
      await cluster.clusterDown(o);
      return 0;
    case 'status':
      for (const line of cluster.clusterStatus(o)) process.stdout.write(`${line}\n`);
      return 0;
    default:
      process.stderr.write(`${usage()}\n`);
      return 2;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const brokers = takeBrokers(rest);
  if (brokers > 1) return clusterCommand(command, brokers);
  const o = stackOptions();
  switch (command) {
    case 'up': {
      const t0 = Date.now();
      const result = await stackUp(o);
      o.log(
        result.started.length === 0
          ? `already running; nothing started (${o.envFile} refreshed)`
          : `started ${result.started.join(' and ')} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      process.stdout.write(`KAFKA_BROKERS=${result.addresses.KAFKA_BROKERS}\n`);
      process.stdout.write(`SCHEMA_REGISTRY_URL=${result.addresses.SCHEMA_REGISTRY_URL}\n`);
      return 0;
    }
    case 'down':
      await stackDown(o);
      return 0;
    case 'status': {
      const rows = stackStatus(o);
      for (const r of rows) {
        const where = r.address === undefined ? '' : ` ${r.address}`;
        const pid = r.pid === undefined ? '' : ` pid ${r.pid}`;
        process.stdout.write(`${r.component.padEnd(9)}${r.state}${pid}${where} (${r.detail})\n`);
      }
      const env = existsSync(o.envFile) ? relative(process.cwd(), o.envFile) : 'none';
      process.stdout.write(`env file: ${env}\n`);
      return 0;
    }
    case 'logs': {
      const p = paths(o);
      let lines = 60;
      let follow = false;
      const files: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const arg = rest[i];
        if (arg === '-n' || arg === '--lines') lines = Number(rest[++i] ?? '60');
        else if (arg === '-f' || arg === '--follow') follow = true;
        else if (arg === 'kafka' || arg === 'registry') files.push(p.logFile(arg));
        else if (arg === 'maven') files.push(p.mavenLog);
        else throw new Error(usage());
      }
      if (files.length === 0) files.push(p.logFile('kafka'), p.logFile('registry'));
      const present = files.filter((f) => existsSync(f));
      if (present.length === 0) {
        process.stdout.write('no logs yet (run npm run stack:up)\n');
        return 0;
      }
      if (follow) {
        const child = spawn('tail', ['-n', String(lines), '-F', ...present], { stdio: 'inherit' });
        await new Promise((r) => child.once('exit', r));
        return 0;
      }
      for (const f of present) {
        process.stdout.write(`==> ${relative(process.cwd(), f)} <==\n${tail(f, lines)}\n`);
      }
      return 0;
    }
    default:
      process.stderr.write(`${usage()}\n`);
      return 2;
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `stack ${process.argv[2] ?? ''} failed: ${error instanceof StackError ? error.report() : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
