/**
 * The stack's processes: ports, PID files with a marker checked against the command line (nothing is
 * ever signalled by name), the lock between concurrent commands, starting and stopping a JVM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { createConnection, createServer } from 'node:net';
import {
  paths,
  registryHealthUrl,
  stackAddresses,
  type Component,
  type StackAddresses,
  type StackOptions,
} from './options.js';
import { sleep } from './util.js';

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

/** Ports this process has handed out: two nodes started together must not get the same one. */
const handedOut = new Set<number>();
/** The kernel's ephemeral range starts here unless /proc says otherwise (Linux's default). */
const DEFAULT_EPHEMERAL_START = 32768;
/** Stack ports are drawn from this many ports below that range. */
const STABLE_PORTS = 12_000;

/**
 * A port nothing listens on, below the kernel's ephemeral range. A port from that range (what
 * `listen(0)` hands out) can be taken as the source port of any outgoing connection between this
 * check and the server's bind (the registry binds last, seconds later, while the brokers already
 * connect to each other), and a broker restarted on its old port can find it taken the same way:
 * the node exits at start with "address in use". Below the range, only a server can take it.
 */
export async function freePort(host: string): Promise<number> {
  const start = ephemeralStart();
  const low = Math.max(1024, start - STABLE_PORTS);
  for (let attempt = 0; attempt < 100 && start - low > 1000; attempt++) {
    const port = randomInt(low, start);
    if (handedOut.has(port) || !(await canListen(host, port))) continue;
    handedOut.add(port);
    return port;
  }
  // No room below the range (an unusual kernel setting): any port the kernel picks.
  return listenOn(host, 0);
}

function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 1024 ? first : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

function canListen(host: string, port: number): Promise<boolean> {
  return listenOn(host, port).then(
    () => true,
    () => false,
  );
}

/** Listens on the port (0: the kernel's choice), closes again, and resolves the port it had. */
function listenOn(host: string, port: number): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.once('error', rej);
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? res(address.port) : rej(new Error('no port')),
      );
    });
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

export function marker(o: StackOptions, c: Component): string {
  return `-Dtxenrich.stack=${c}@${o.stackDir}`;
}

export interface PidRecord {
  readonly pid: number;
  readonly component: Component;
  readonly marker: string;
  readonly startedAt: string;
  readonly addresses: Partial<StackAddresses>;
  /** The registry's readiness endpoint (on Quarkus' management interface). */
  readonly healthUrl?: string;
}

export function readPid(o: StackOptions, c: Component): PidRecord | undefined {
  const file = paths(o).pidFile(c);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return undefined;
  }
}

export type ProcessState =
  | { state: 'running'; record: PidRecord }
  | { state: 'stopped' }
  | { state: 'stale'; record: PidRecord | undefined; why: string };

/** Whether the component's PID file points at a live process that is ours. */
export function processState(o: StackOptions, c: Component): ProcessState {
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
export async function withLock<T>(o: StackOptions, fn: () => Promise<T>): Promise<T> {
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

export function spawnJava(
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

export async function stopComponent(o: StackOptions, c: Component): Promise<string> {
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
