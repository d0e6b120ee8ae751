import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../../src/config.js';
import { WORKER_NODE_OPTIONS } from '../../src/cli/worker-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  ports?: string[];
  environment?: Record<string, string | number> | string[];
  healthcheck?: { test?: string | string[]; interval?: string; retries?: number };
  depends_on?: Record<string, { condition?: string }> | string[];
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const services = compose.services;

function service(name: string): Service {
  const found = services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function environment(s: Service): Record<string, string> {
  const env = s.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((line) => [line.split('=')[0] ?? '', line.split('=').slice(1).join('=')]),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

describe('docker-compose.yml', () => {
  it('has kafka, schema-registry, postgres and the worker', () => {
    expect(Object.keys(services).sort()).toEqual(['kafka', 'postgres', 'schema-registry', 'worker']);
    expect(service('kafka').image).toMatch(/^apache\/kafka:4\./);
    expect(service('schema-registry').image).toMatch(/^confluentinc\/cp-schema-registry:/);
    expect(service('postgres').image).toMatch(/^postgres:/);
    expect(service('worker').build).toBeDefined();
  });

  it('runs Kafka in KRaft mode (broker and controller, no ZooKeeper)', () => {
    const env = environment(service('kafka'));
    expect(env.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBeDefined();
    expect(Object.keys(env).some((k) => k.includes('ZOOKEEPER'))).toBe(false);
    expect(env.KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR).toBe('1');
  });

  it('publishes the documented ports on localhost only', () => {
    expect(service('kafka').ports).toEqual(['127.0.0.1:19092:19092']);
    expect(service('schema-registry').ports).toEqual(['127.0.0.1:18081:8081']);
    expect(service('postgres').ports).toEqual(['127.0.0.1:15432:5432']);
    expect(service('worker').ports).toEqual(['127.0.0.1:9464:9464']);
    expect(environment(service('kafka')).KAFKA_ADVERTISED_LISTENERS).toContain('localhost:19092');
  });

  it('gives every service a healthcheck', () => {
    for (const [name, s] of Object.entries(services)) {
      expect(s.healthcheck?.test, `${name} healthcheck`).toBeDefined();
      expect(s.healthcheck?.interval, `${name} healthcheck interval`).toBeDefined();
      expect(s.healthcheck?.retries, `${name} healthcheck retries`).toBeGreaterThan(0);
    }
  });

  it('starts each service only when what it needs is healthy', () => {
    const needs = (name: string) => service(name).depends_on as Record<string, { condition?: string }>;
    expect(needs('schema-registry')).toEqual({ kafka: { condition: 'service_healthy' } });
    expect(needs('worker')).toEqual({
      kafka: { condition: 'service_healthy' },
      'schema-registry': { condition: 'service_healthy' },
      postgres: { condition: 'service_healthy' },
    });
  });

  it('runs the worker through the CLI', () => {
    expect(service('worker').command).toEqual(['node', 'bin/tx-enrich.js', 'worker']);
  });

  it('sets only variables that src/config.ts reads on the worker, pointing at the compose services', () => {
    const env = environment(service('worker'));
    expect(Object.keys(env).length).toBeGreaterThan(0);
    for (const variable of Object.keys(env)) expect(CONFIG_VARIABLES, variable).toContain(variable);
    expect(env.KAFKA_BROKERS).toBe('kafka:9092');
    expect(env.SCHEMA_REGISTRY_URL).toBe('http://schema-registry:8081');
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(env.HTTP_PORT).toBe('9464');
    // Published ports and probes from outside arrive on the container's interface, not its loopback.
    expect(env.HEALTH_HOST).toBe('0.0.0.0');
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs production dependencies only in another, as a non-root user', () => {
    expect(stages).toHaveLength(2);
    const [build = '', runtime = ''] = stages;
    expect(build).toMatch(/RUN npm ci\b/);
    expect(build).toMatch(/RUN npm run build\b/);
    expect(runtime).toMatch(/RUN npm ci --omit=dev\b/);
    expect(runtime).toMatch(/^USER (?!root\b)\S+/m);
    for (const path of ['dist', 'data', 'schemas', 'bin']) {
      expect(runtime, `copies ${path}/`).toMatch(new RegExp(`^COPY .*\\b${path}\\b`, 'm'));
    }
    // The worker's node options, as npm start passes them (WORKER_NODE_OPTIONS).
    const command = ['node', ...WORKER_NODE_OPTIONS, 'bin/tx-enrich.js', 'worker'];
    expect(runtime).toContain(`CMD ${JSON.stringify(command).replace(/","/g, '", "')}`);
  });
});
