import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, configTableMarkdown, loadConfig } from '../../src/config.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs loadConfig and returns the ConfigError it throws (fails the test if it does not throw). */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('parses an empty environment into the documented defaults', () => {
    const config = loadConfig({});
    // A subset match: settings added later bring their own default tests.
    expect(config).toMatchObject({
      kafkaBrokers: ['127.0.0.1:19092'],
      kafkaClientId: 'tx-enrich',
      schemaRegistryUrl: 'http://127.0.0.1:18081/apis/ccompat/v7',
      databaseUrl: undefined,
      storeDataDir: '.data/store',
      inputTopics: ['transactions.raw'],
      inputTopicPattern: undefined,
      outputTopic: 'transactions.enriched',
      dlqTopic: 'transactions.dlq',
      feedbackTopic: 'transactions.feedback',
      reenrichedTopic: 'transactions.reenriched',
      brandChangesTopic: 'enrichment.brand-changes',
      consumerGroup: 'tx-enrich',
      batchMaxRecords: 500,
      batchMaxWaitMs: 50,
      partitionsConcurrency: 8,
      kafkaRecordEncoder: 'fast',
      maxInFlightBytes: 64 * 1024 * 1024,
      dlqGuardMaxShare: 0.5,
      dlqGuardWindow: 1000,
      defaultTenant: 'default',
      logoBaseUrl: undefined,
      logLevel: 'info',
      httpPort: 9464,
      healthHost: '127.0.0.1',
      apiPort: 8080,
      apiHost: '127.0.0.1',
      apiOpsPort: 9465,
      shutdownDeadlineMs: 10_000,
      retryMaxDelayMs: 10_000,
      kafkaSessionTimeoutMs: 30_000,
      kafkaRebalanceTimeoutMs: 60_000,
    });
    expect(config.tenantsFile).toBeUndefined();
  });

  it('returns a frozen object, lists included', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.kafkaBrokers)).toBe(true);
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig({
      KAFKA_BROKERS: ' kafka-1:9092, kafka-2:9092 ,,',
      DATABASE_URL: 'postgresql://app:secret@db:5432/brands',
      INPUT_TOPICS: 'raw.a,raw.b',
      INPUT_TOPIC_PATTERN: '^raw\\..*$',
      BATCH_MAX_RECORDS: '1000',
      DLQ_GUARD_MAX_SHARE: '0.25',
      LOG_LEVEL: 'debug',
      KAFKA_RECORD_ENCODER: 'kafkajs',
      HTTP_PORT: '0',
      LOGO_BASE_URL: 'https://cdn.example.com/logos/',
      TENANTS_FILE: 'config/tenants.json',
      API_HOST: '::',
      HEALTH_HOST: 'ops.internal',
      API_OPS_PORT: '0',
    });
    expect(config.kafkaBrokers).toEqual(['kafka-1:9092', 'kafka-2:9092']);
    expect(config.databaseUrl).toBe('postgresql://app:secret@db:5432/brands');
    expect(config.inputTopics).toEqual(['raw.a', 'raw.b']);
    expect(config.inputTopicPattern?.test('raw.eu')).toBe(true);
    expect(config.batchMaxRecords).toBe(1000);
    expect(config.kafkaRecordEncoder).toBe('kafkajs');
    expect(config.dlqGuardMaxShare).toBe(0.25);
    expect(config.logLevel).toBe('debug');
    expect(config.httpPort).toBe(0);
    expect(config.logoBaseUrl).toBe('https://cdn.example.com/logos/');
    expect(config.tenantsFile).toBe('config/tenants.json');
    expect([config.apiHost, config.healthHost, config.apiOpsPort]).toEqual(['::', 'ops.internal', 0]);
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ BATCH_MAX_RECORDS: '  ', DATABASE_URL: '' }).batchMaxRecords).toBe(500);
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it.each([
    ['non-number', 'BATCH_MAX_RECORDS', 'lots', 'must be an integer between 1 and 100000'],
    ['fraction for an integer', 'BATCH_MAX_WAIT_MS', '2.5', 'must be an integer between 0 and 60000'],
    ['out of range (too small)', 'BATCH_MAX_RECORDS', '0', 'must be an integer between 1 and 100000'],
    ['out of range (too large)', 'HTTP_PORT', '70000', 'must be an integer between 0 and 65535'],
    ['out of range (share)', 'DLQ_GUARD_MAX_SHARE', '1.5', 'must be a number greater than 0 and at most 1'],
    ['non-number (share)', 'DLQ_GUARD_MAX_SHARE', 'half', 'must be a number greater than 0 and at most 1'],
    ['bad URL', 'SCHEMA_REGISTRY_URL', 'not a url', 'must be an http:// or https:// URL'],
    [
      'URL of the wrong scheme',
      'LOGO_BASE_URL',
      'ftp://cdn.example.com',
      'must be an http:// or https:// URL',
    ],
    ['bad enum', 'LOG_LEVEL', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent'],
    ['bad encoder', 'KAFKA_RECORD_ENCODER', 'turbo', 'must be fast or kafkajs'],
    ['bad bind address', 'API_HOST', 'http://0.0.0.0', 'must be an IP address or a host name'],
    ['bad bind address (URL)', 'HEALTH_HOST', 'a b', 'must be an IP address or a host name'],
    ['bad broker list', 'KAFKA_BROKERS', 'kafka-1', 'must be a comma-separated list of host:port'],
    ['bad topic name', 'OUTPUT_TOPIC', 'has space', 'must be a Kafka topic name'],
    ['bad topic list', 'INPUT_TOPICS', 'ok,not/ok', 'must be a comma-separated list of Kafka topic names'],
    [
      'bad regular expression',
      'INPUT_TOPIC_PATTERN',
      '(unclosed',
      'must be a valid JavaScript regular expression',
    ],
  ])('rejects a %s, naming the variable and the rule', (_kind, variable, value, rule) => {
    const error = configError({ [variable]: value });
    expect(error.issues).toEqual([{ variable, rule: expect.stringContaining(rule), value }]);
    expect(error.message).toContain(variable);
    expect(error.message).toContain(rule);
    expect(error.message).toContain(JSON.stringify(value));
  });

  it('lists every bad variable at once', () => {
    const error = configError({ BATCH_MAX_RECORDS: 'x', LOG_LEVEL: 'y', API_PORT: '-1' });
    expect(error.issues.map((i) => i.variable).sort()).toEqual([
      'API_PORT',
      'BATCH_MAX_RECORDS',
      'LOG_LEVEL',
    ]);
    expect(error.message.split('\n')).toHaveLength(4);
  });

  it('never echoes a secret value', () => {
    const error = configError({ DATABASE_URL: 'mysql://app:hunter2@db/brands' });
    expect(error.message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL');
    expect(error.message).not.toContain('hunter2');
  });

  it('knows every variable the service documents', () => {
    const names = [...CONFIG_VARIABLES];
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
    for (const name of [
      'KAFKA_BROKERS',
      'SCHEMA_REGISTRY_URL',
      'DATABASE_URL',
      'INPUT_TOPICS',
      'OUTPUT_TOPIC',
      'DLQ_TOPIC',
    ]) {
      expect(names).toContain(name);
    }
  });
});

// Each test starts a Node process with tsx: seconds on a loaded 2-core machine, more than vitest's 5 s.
describe('start-up with a bad environment', { timeout: 60_000 }, () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'check-config.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('exits non-zero and names the variable on stderr', () => {
    const result = run({ BATCH_MAX_RECORDS: 'lots', LOG_LEVEL: 'chatty' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('BATCH_MAX_RECORDS must be an integer between 1 and 100000');
    expect(result.stderr).toContain('LOG_LEVEL must be one of');
    expect(result.stdout).toBe('');
  });

  it('starts with a good environment', () => {
    const result = run({ BATCH_MAX_RECORDS: '10' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ batchMaxRecords: 10 });
  });
});

describe('README configuration table', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('lists every variable', () => {
    for (const variable of CONFIG_VARIABLES) expect(readme, variable).toContain(`| \`${variable}\` |`);
  });

  it('is the table generated from src/config.ts (regenerate with npm run config:table)', () => {
    expect(readme).toContain(configTableMarkdown());
  });
});
