/**
 * The single-node stack's options (from the environment, all optional) and where it keeps things.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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

export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535 * 10_000) {
    throw new Error(`${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  }
  return value;
}

export function envStr(env: NodeJS.ProcessEnv, name: string): string | undefined {
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

export function registryHealthUrl(o: StackOptions): string {
  return `http://${o.host}:${o.registryManagementPort}/health/ready`;
}

export function stackAddresses(o: StackOptions): StackAddresses {
  return {
    KAFKA_BROKERS: `${o.host}:${o.kafkaPort}`,
    SCHEMA_REGISTRY_URL: `http://${o.host}:${o.registryPort}/apis/ccompat/v7`,
  };
}
