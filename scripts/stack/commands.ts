/** up, down and status of the single-node stack. */
import { rmSync, writeFileSync } from 'node:fs';
import { fetchArtifacts } from './artifacts.js';
import { startKafka } from './kafka-node.js';
import {
  COMPONENTS,
  paths,
  registryHealthUrl,
  stackAddresses,
  stackOptions,
  type Component,
  type StackAddresses,
  type StackOptions,
  type StackUpResult,
} from './options.js';
import { freePort, isPortOpen, processState, readPid, stopComponent, withLock } from './processes.js';
import { probeKafka, probeRegistry, waitReady } from './probes.js';
import { startRegistry } from './registry.js';
import { StackError } from './util.js';

export function writeEnvFile(o: StackOptions, addresses: StackAddresses): void {
  const lines = [
    '# Written by scripts/stack.ts (npm run stack:up); removed by npm run stack:down.',
    `KAFKA_BROKERS=${addresses.KAFKA_BROKERS}`,
    `SCHEMA_REGISTRY_URL=${addresses.SCHEMA_REGISTRY_URL}`,
    '',
  ];
  writeFileSync(o.envFile, lines.join('\n'));
}

/** Addresses of the running stack (from its PID files, which may differ from the current options). */
export function runningAddresses(o: StackOptions): StackAddresses {
  const defaults = stackAddresses(o);
  return {
    KAFKA_BROKERS: readPid(o, 'kafka')?.addresses.KAFKA_BROKERS ?? defaults.KAFKA_BROKERS,
    SCHEMA_REGISTRY_URL:
      readPid(o, 'registry')?.addresses.SCHEMA_REGISTRY_URL ?? defaults.SCHEMA_REGISTRY_URL,
  };
}

/** Fails on a taken port, or (portFallback) swaps it for a free one. */
export async function checkPorts(o: StackOptions, toStart: readonly Component[]): Promise<StackOptions> {
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
