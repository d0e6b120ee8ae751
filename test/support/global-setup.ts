/**
 * Global setup of the vitest "integration" project: finds or starts a real Kafka broker, a
 * Confluent-compatible schema registry and PostgreSQL, first match wins:
 *
 *   1. env         KAFKA_BROKERS and SCHEMA_REGISTRY_URL are set (DATABASE_URL too, or the default):
 *                  use them as they are;
 *   2. containers  a Docker daemon answers: start apache/kafka, confluentinc/cp-schema-registry and
 *                  postgres with testcontainers, and remove them at teardown;
 *   3. local       the jar stack of scripts/stack.ts (Kafka + Apicurio Registry from Maven Central),
 *                  started if it is not running, and stopped at teardown only if started here.
 *
 * TEST_STACK=env|containers|local forces a mode. The addresses reach tests through
 * `project.provide` (read them with stackEnv() from ./stack-env.ts, or vitest's `inject`) and
 * process.env (KAFKA_BROKERS, SCHEMA_REGISTRY_URL, DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import {
  freePort,
  probeKafka,
  probeRegistry,
  stackDown,
  stackOptions,
  stackUp,
} from '../../scripts/stack.js';
import type { StackMode } from './provided-context.js';
import { waitFor, withTimeout } from './wait.js';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

// Same Kafka version as the jar stack and docker-compose.yml.
const KAFKA_IMAGE = 'apache/kafka:4.1.1';
const REGISTRY_IMAGE = 'confluentinc/cp-schema-registry:8.0.0';
const POSTGRES_IMAGE = 'postgres:17-alpine';

interface Stack {
  readonly mode: StackMode;
  readonly kafkaBrokers: string;
  readonly schemaRegistryUrl: string;
  readonly databaseUrl: string;
  readonly teardown: () => Promise<void>;
}

const log = (line: string) => process.stderr.write(`[global-setup] ${line}\n`);

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** True when a container runtime answers. Fails fast without a socket; never waits more than 15 s. */
async function dockerAvailable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await withTimeout(getContainerRuntimeClient(), 15_000, 'looking for a container runtime');
    return true;
  } catch {
    return false;
  }
}

async function waitForServices(
  kafkaBrokers: string,
  schemaRegistryUrl: string,
  timeoutMs: number,
): Promise<void> {
  const brokers = kafkaBrokers.split(',').map((b) => b.trim());
  await Promise.all([
    waitFor(
      async () => {
        await probeKafka(brokers, 10_000);
        return true;
      },
      {
        timeoutMs,
        intervalMs: 1000,
        description: `Kafka at ${kafkaBrokers} (metadata, coordinator, transactions)`,
      },
    ),
    waitFor(
      async () => {
        await probeRegistry(schemaRegistryUrl, undefined);
        return true;
      },
      { timeoutMs, intervalMs: 1000, description: `schema registry at ${schemaRegistryUrl}` },
    ),
  ]);
}

async function fromEnvironment(kafkaBrokers: string, schemaRegistryUrl: string): Promise<Stack> {
  log(`using KAFKA_BROKERS=${kafkaBrokers} SCHEMA_REGISTRY_URL=${schemaRegistryUrl} from the environment`);
  await waitForServices(kafkaBrokers, schemaRegistryUrl, 60_000);
  return {
    mode: 'env',
    kafkaBrokers,
    schemaRegistryUrl,
    databaseUrl: nonEmpty(process.env.DATABASE_URL) ?? DEFAULT_DATABASE_URL,
    teardown: async () => undefined,
  };
}

async function fromContainers(): Promise<Stack> {
  const { GenericContainer, Network, Wait, getContainerRuntimeClient } = await import('testcontainers');
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  log(`starting ${KAFKA_IMAGE}, ${REGISTRY_IMAGE} and ${POSTGRES_IMAGE} with testcontainers (host ${host})`);
  const network = await new Network().start();
  const started: { stop: () => Promise<unknown> }[] = [];
  const teardown = async () => {
    for (const container of started.reverse()) await container.stop().catch(() => undefined);
    await network.stop().catch(() => undefined);
  };
  try {
    // The broker advertises the host port, so it must be known before start: bind a free one 1:1.
    const kafkaPort = await freePort('127.0.0.1');
    const kafkaStart = new GenericContainer(KAFKA_IMAGE)
      .withNetwork(network)
      .withNetworkAliases('kafka')
      .withExposedPorts({ container: kafkaPort, host: kafkaPort })
      .withEnvironment({
        CLUSTER_ID: randomBytes(16).toString('base64url'),
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:29093',
        KAFKA_LISTENERS: `HOST://0.0.0.0:${kafkaPort},INTERNAL://0.0.0.0:29092,CONTROLLER://localhost:29093`,
        KAFKA_ADVERTISED_LISTENERS: `HOST://${host}:${kafkaPort},INTERNAL://kafka:29092`,
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'HOST:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_INTER_BROKER_LISTENER_NAME: 'INTERNAL',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_HEAP_OPTS: '-Xms128m -Xmx512m',
      })
      .withWaitStrategy(Wait.forLogMessage('Kafka Server started'))
      .withStartupTimeout(180_000)
      .start();
    const postgresStart = new GenericContainer(POSTGRES_IMAGE)
      .withExposedPorts(5432)
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'test' })
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .withStartupTimeout(120_000)
      .start();
    const [kafka, postgres] = await Promise.all([kafkaStart, postgresStart]);
    started.push(kafka, postgres);
    const registry = await new GenericContainer(REGISTRY_IMAGE)
      .withNetwork(network)
      .withExposedPorts(8081)
      .withEnvironment({
        SCHEMA_REGISTRY_HOST_NAME: 'schema-registry',
        SCHEMA_REGISTRY_LISTENERS: 'http://0.0.0.0:8081',
        SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: 'PLAINTEXT://kafka:29092',
        SCHEMA_REGISTRY_HEAP_OPTS: '-Xms64m -Xmx384m',
      })
      .withWaitStrategy(Wait.forHttp('/subjects', 8081).forStatusCode(200))
      .withStartupTimeout(180_000)
      .start();
    started.push(registry);
    const stack: Stack = {
      mode: 'containers',
      kafkaBrokers: `${host}:${kafkaPort}`,
      schemaRegistryUrl: `http://${registry.getHost()}:${registry.getMappedPort(8081)}`,
      databaseUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/test`,
      teardown,
    };
    await waitForServices(stack.kafkaBrokers, stack.schemaRegistryUrl, 120_000);
    return stack;
  } catch (error) {
    await teardown();
    throw error;
  }
}

async function fromLocalStack(): Promise<Stack> {
  // Tests do not care which ports: if another checkout's stack holds the defaults, take free ones.
  const options = { ...stackOptions(), portFallback: true };
  log('using the local jar stack (scripts/stack.ts)');
  const { addresses, started } = await stackUp(options);
  log(started.length === 0 ? 'reusing the running local stack' : `started ${started.join(' and ')}`);
  return {
    mode: 'local',
    kafkaBrokers: addresses.KAFKA_BROKERS,
    schemaRegistryUrl: addresses.SCHEMA_REGISTRY_URL,
    databaseUrl: nonEmpty(process.env.DATABASE_URL) ?? DEFAULT_DATABASE_URL,
    teardown: async () => {
      if (started.length === 0) return;
      log(`stopping ${started.join(' and ')} (started by this run)`);
      await stackDown(options, started);
    },
  };
}

async function chooseStack(): Promise<Stack> {
  const forced = nonEmpty(process.env.TEST_STACK) as StackMode | undefined;
  if (forced !== undefined && !['env', 'containers', 'local'].includes(forced)) {
    throw new Error(`TEST_STACK must be env, containers or local (got ${JSON.stringify(forced)})`);
  }
  const kafkaBrokers = nonEmpty(process.env.KAFKA_BROKERS);
  const schemaRegistryUrl = nonEmpty(process.env.SCHEMA_REGISTRY_URL);
  if (forced === 'env' || (forced === undefined && kafkaBrokers && schemaRegistryUrl)) {
    if (!kafkaBrokers || !schemaRegistryUrl) {
      throw new Error('TEST_STACK=env needs KAFKA_BROKERS and SCHEMA_REGISTRY_URL');
    }
    return fromEnvironment(kafkaBrokers, schemaRegistryUrl);
  }
  if (forced === undefined && (kafkaBrokers || schemaRegistryUrl)) {
    log('only one of KAFKA_BROKERS / SCHEMA_REGISTRY_URL is set: ignoring it, both are needed');
  }
  if (forced === 'containers' || (forced === undefined && (await dockerAvailable()))) {
    return fromContainers();
  }
  return fromLocalStack();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const saved = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    SCHEMA_REGISTRY_URL: process.env.SCHEMA_REGISTRY_URL,
    DATABASE_URL: process.env.DATABASE_URL,
  };
  const stack = await chooseStack();
  log(
    `mode=${stack.mode} KAFKA_BROKERS=${stack.kafkaBrokers} SCHEMA_REGISTRY_URL=${stack.schemaRegistryUrl} ` +
      `DATABASE_URL=${stack.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}`,
  );
  project.provide('stackMode', stack.mode);
  project.provide('kafkaBrokers', stack.kafkaBrokers);
  project.provide('schemaRegistryUrl', stack.schemaRegistryUrl);
  project.provide('databaseUrl', stack.databaseUrl);
  process.env.KAFKA_BROKERS = stack.kafkaBrokers;
  process.env.SCHEMA_REGISTRY_URL = stack.schemaRegistryUrl;
  process.env.DATABASE_URL = stack.databaseUrl;

  return async () => {
    await stack.teardown();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
