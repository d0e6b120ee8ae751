/**
 * The service's configuration: every setting comes from an environment variable, is read once at
 * start-up and validated with zod. A bad value stops start-up with a message that names the variable
 * and the rule it broke (see {@link ConfigError}).
 *
 * `SETTINGS` is the single list of variables: the README's configuration table is generated from it
 * (`npm run config:table`), and tests check that docker-compose.yml sets no variable outside it.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

/** One setting: the environment variable, its default (as the raw string) and what it is for. */
interface SettingDef<S extends z.ZodType> {
  readonly env: string;
  readonly description: string;
  /** The rule in words, shown in errors and in the README table. */
  readonly rule: string;
  /** Raw default used when the variable is unset or empty; omitted for optional settings. */
  readonly default?: string;
  /** Optional settings may be absent (the parsed value is then `undefined`). */
  readonly optional?: boolean;
  /** Secret values (may carry a password) are never echoed in error messages. */
  readonly secret?: boolean;
  readonly schema: S;
}

// ---------------------------------------------------------------------------------------------------
// Value rules. Each parses the raw (trimmed, non-empty) string. Messages are phrased to follow the
// variable name: "BATCH_MAX_RECORDS must be an integer between 1 and 100000".

const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(min: number, max: number) {
  const rule = `must be an integer between ${min} and ${max}`;
  return z
    .string()
    .regex(/^[+-]?\d+$/, rule)
    .transform(Number)
    .pipe(z.number().int().min(min, rule).max(max, rule));
}

function decimal(rule: string, check: (n: number) => boolean) {
  return z
    .string()
    .regex(/^[+-]?(?:\d+\.?\d*|\.\d+)$/, rule)
    .transform(Number)
    .refine(check, rule);
}

function port() {
  return integer(0, 65535);
}

/** An address to bind: an IPv4 or IPv6 literal, or a host name. */
function host() {
  return z
    .string()
    .refine(
      (value) =>
        isIP(value) !== 0 ||
        /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(
          value,
        ),
      'must be an IP address or a host name',
    );
}

/** An address to bind, as HEALTH_HOST and API_HOST take it (also the API command's --host). */
export const bindAddressSchema = host();

function url(protocols: readonly string[], rule: string) {
  return z.string().refine((value) => {
    try {
      const parsed = new URL(value);
      return protocols.includes(parsed.protocol) && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, rule);
}

function list(itemRule: string, item: (value: string) => boolean) {
  return z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .refine((items) => items.length > 0 && items.every(item), itemRule);
}

function topic() {
  return z.string().regex(TOPIC_NAME, 'must be a Kafka topic name (1-249 of A-Z a-z 0-9 . _ -)');
}

function name(rule = 'must be 1-64 of A-Z a-z 0-9 . _ -') {
  return z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, rule);
}

function regex() {
  const rule = 'must be a valid JavaScript regular expression';
  return z
    .string()
    .refine((value) => {
      try {
        new RegExp(value);
        return true;
      } catch {
        return false;
      }
    }, rule)
    .transform((value) => new RegExp(value));
}

function bugPolicy() {
  return z.enum(['dead-letter', 'stop'], { error: 'must be dead-letter or stop' });
}

function text() {
  return z.string().min(1, 'must not be empty');
}

function validPort(hostPort: string): boolean {
  const match = HOST_PORT.exec(hostPort);
  const portText = match?.[1];
  return portText !== undefined && Number(portText) >= 1 && Number(portText) <= 65535;
}

// ---------------------------------------------------------------------------------------------------
// The settings. Keys are the properties of the parsed Config object.

function setting<const D extends SettingDef<z.ZodType>>(def: D): D {
  return def;
}

export const SETTINGS = {
  kafkaBrokers: setting({
    env: 'KAFKA_BROKERS',
    default: '127.0.0.1:19092',
    rule: 'comma-separated list of host:port',
    description: 'Kafka bootstrap brokers.',
    schema: list('must be a comma-separated list of host:port (port 1-65535)', validPort),
  }),
  kafkaClientId: setting({
    env: 'KAFKA_CLIENT_ID',
    default: 'tx-enrich',
    rule: '1-64 of A-Z a-z 0-9 . _ -',
    description: 'Kafka client id (shows in broker logs and quotas).',
    schema: name(),
  }),
  schemaRegistryUrl: setting({
    env: 'SCHEMA_REGISTRY_URL',
    default: 'http://127.0.0.1:18081/apis/ccompat/v7',
    rule: 'http(s) URL',
    description:
      'Confluent-compatible schema registry base URL (Confluent Schema Registry, or Apicurio at /apis/ccompat/v7).',
    schema: url(['http:', 'https:'], 'must be an http:// or https:// URL'),
  }),
  databaseUrl: setting({
    env: 'DATABASE_URL',
    optional: true,
    secret: true,
    rule: 'postgres:// or postgresql:// URL',
    description:
      'PostgreSQL connection URL of the brand store. When unset, an embedded PostgreSQL (PGlite) in STORE_DATA_DIR is used.',
    schema: url(['postgres:', 'postgresql:'], 'must be a postgres:// or postgresql:// URL'),
  }),
  storeDataDir: setting({
    env: 'STORE_DATA_DIR',
    default: '.data/store',
    rule: 'path',
    description: 'Directory of the embedded store (used only when DATABASE_URL is unset).',
    schema: text(),
  }),
  inputTopics: setting({
    env: 'INPUT_TOPICS',
    default: 'transactions.raw',
    rule: 'comma-separated topic names',
    description: 'Raw transaction topics to consume.',
    schema: list('must be a comma-separated list of Kafka topic names', (t) => TOPIC_NAME.test(t)),
  }),
  inputTopicPattern: setting({
    env: 'INPUT_TOPIC_PATTERN',
    optional: true,
    rule: 'regular expression',
    description: 'Consume every topic matching this regular expression instead of INPUT_TOPICS.',
    schema: regex(),
  }),
  outputTopic: setting({
    env: 'OUTPUT_TOPIC',
    default: 'transactions.enriched',
    rule: 'topic name',
    description: 'Topic of enriched transactions (v3 records, key customer_id).',
    schema: topic(),
  }),
  dlqTopic: setting({
    env: 'DLQ_TOPIC',
    default: 'transactions.dlq',
    rule: 'topic name',
    description:
      'Dead-letter topic: original records that could not be enriched, with the reason in headers.',
    schema: topic(),
  }),
  feedbackTopic: setting({
    env: 'FEEDBACK_TOPIC',
    default: 'transactions.feedback',
    rule: 'topic name',
    description: 'Topic of feedback corrections from the client portal.',
    schema: topic(),
  }),
  reenrichedTopic: setting({
    env: 'REENRICHED_TOPIC',
    default: 'transactions.reenriched',
    rule: 'topic name',
    description: 'Topic of transactions enriched again after a correction (key customer_id).',
    schema: topic(),
  }),
  brandChangesTopic: setting({
    env: 'BRAND_CHANGES_TOPIC',
    default: 'enrichment.brand-changes',
    rule: 'topic name',
    description: 'Compacted topic of brand changes; every worker refreshes its brand snapshot from it.',
    schema: topic(),
  }),
  consumerGroup: setting({
    env: 'CONSUMER_GROUP',
    default: 'tx-enrich',
    rule: '1-64 of A-Z a-z 0-9 . _ -',
    description: 'Kafka consumer group id (also the prefix of transactional ids).',
    schema: name(),
  }),
  batchMaxRecords: setting({
    env: 'BATCH_MAX_RECORDS',
    default: '500',
    rule: 'integer 1-100000',
    description: 'Largest micro-batch, in records.',
    schema: integer(1, 100_000),
  }),
  batchMaxWaitMs: setting({
    env: 'BATCH_MAX_WAIT_MS',
    default: '50',
    rule: 'integer 0-60000',
    description: 'Longest time a micro-batch waits to fill, in milliseconds.',
    schema: integer(0, 60_000),
  }),
  partitionsConcurrency: setting({
    env: 'PARTITIONS_CONCURRENCY',
    default: '8',
    rule: 'integer 1-256',
    description:
      'Input partitions processed at once, each in its own transaction. At least the partitions one worker owns, so a fetch is one round of transactions, not several (lower latency).',
    schema: integer(1, 256),
  }),
  kafkaRecordEncoder: setting({
    env: 'KAFKA_RECORD_ENCODER',
    default: 'fast',
    rule: 'fast or kafkajs',
    description:
      "How produced records are encoded: `fast` writes each record in one buffer (the same bytes as kafkajs, less CPU; kafkajs 2.2.4 only, else it falls back with a warning), `kafkajs` uses kafkajs' own encoder.",
    schema: z.enum(['fast', 'kafkajs'], { error: 'must be fast or kafkajs' }),
  }),
  maxInFlightBytes: setting({
    env: 'MAX_IN_FLIGHT_BYTES',
    default: String(64 * 1024 * 1024),
    rule: 'integer 65536-8589934592',
    description:
      'Backpressure bound: consumption pauses while this many bytes of records are being processed.',
    schema: integer(64 * 1024, 8 * 1024 * 1024 * 1024),
  }),
  dlqGuardMaxShare: setting({
    env: 'DLQ_GUARD_MAX_SHARE',
    default: '0.5',
    rule: 'number > 0 and <= 1',
    description:
      'Dead-letter guard: the worker stops when more than this share of the last DLQ_GUARD_WINDOW records were dead-lettered.',
    schema: decimal('must be a number greater than 0 and at most 1', (n) => n > 0 && n <= 1),
  }),
  dlqGuardWindow: setting({
    env: 'DLQ_GUARD_WINDOW',
    default: '1000',
    rule: 'integer 1-1000000',
    description: 'Dead-letter guard window, in records.',
    schema: integer(1, 1_000_000),
  }),
  defaultTenant: setting({
    env: 'DEFAULT_TENANT',
    default: 'default',
    rule: '1-64 of A-Z a-z 0-9 . _ -',
    description: 'Tenant of records without a tenant-id header.',
    schema: name(),
  }),
  logoBaseUrl: setting({
    env: 'LOGO_BASE_URL',
    optional: true,
    rule: 'http(s) URL',
    description:
      'Public base URL of the API that serves GET /logos/{brand_id}: brand_logo is <base>/logos/<brand_id>. When unset, brand_logo is the path /logos/<brand_id>.',
    schema: url(['http:', 'https:'], 'must be an http:// or https:// URL'),
  }),
  logLevel: setting({
    env: 'LOG_LEVEL',
    default: 'info',
    rule: LOG_LEVELS.join(' | '),
    description: 'Log level (pino).',
    schema: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
  }),
  httpPort: setting({
    env: 'HTTP_PORT',
    default: '9464',
    rule: 'port 0-65535 (0 = any free port)',
    description: 'Port of the worker health, readiness and Prometheus metrics endpoints.',
    schema: port(),
  }),
  healthHost: setting({
    env: 'HEALTH_HOST',
    default: '127.0.0.1',
    rule: 'IP address or host name',
    description:
      "Address the operations ports bind (the worker's HTTP_PORT, the API's API_OPS_PORT). Loopback by default; a container sets 0.0.0.0 so its orchestrator's probes and scrapers reach it.",
    schema: host(),
  }),
  apiPort: setting({
    env: 'API_PORT',
    default: '8080',
    rule: 'port 0-65535 (0 = any free port)',
    description:
      'Port of the HTTP enrichment API (/api/v3/transaction/enrich, /api/v2/transaction/enrich, /logos, /docs, /healthz, /readyz; no /metrics).',
    schema: port(),
  }),
  apiHost: setting({
    env: 'API_HOST',
    default: '127.0.0.1',
    rule: 'IP address or host name',
    description: 'Address the HTTP enrichment API binds (0.0.0.0 for every interface).',
    schema: host(),
  }),
  apiOpsPort: setting({
    env: 'API_OPS_PORT',
    default: '9465',
    rule: 'port 0-65535 (0 = any free port)',
    description:
      'Operations port of the HTTP API: /healthz, /readyz and /metrics (which name tenants), bound on HEALTH_HOST, never on the API port.',
    schema: port(),
  }),
  kafkaSessionTimeoutMs: setting({
    env: 'KAFKA_SESSION_TIMEOUT_MS',
    default: '30000',
    rule: 'integer 6000-300000',
    description:
      'Consumer group session timeout: how long a silent (crashed) worker keeps its partitions before the group moves them.',
    schema: integer(6_000, 300_000),
  }),
  kafkaRebalanceTimeoutMs: setting({
    env: 'KAFKA_REBALANCE_TIMEOUT_MS',
    default: '60000',
    rule: 'integer 6000-600000',
    description: 'Consumer group rebalance timeout: how long the group waits for members to rejoin.',
    schema: integer(6_000, 600_000),
  }),
  shutdownDeadlineMs: setting({
    env: 'SHUTDOWN_DEADLINE_MS',
    default: '10000',
    rule: 'integer 100-600000',
    description: 'Graceful shutdown: time allowed to finish the batch in flight and commit, in milliseconds.',
    schema: integer(100, 600_000),
  }),
  retryMaxDelayMs: setting({
    env: 'RETRY_MAX_DELAY_MS',
    default: '10000',
    rule: 'integer 100-3600000',
    description: 'Longest back-off between retries of a transient failure (broker, registry, database).',
    schema: integer(100, 3_600_000),
  }),
  retryBudgetMs: setting({
    env: 'RETRY_BUDGET_MS',
    default: '600000',
    rule: 'integer 1000-86400000',
    description:
      'How long the worker retries one micro-batch through a transient failure before it gives up and exits non-zero (a supervisor restarts it); /readyz reports the retrying long before.',
    schema: integer(1_000, 86_400_000),
  }),
  kafkaRequestTimeoutMs: setting({
    env: 'KAFKA_REQUEST_TIMEOUT_MS',
    default: '10000',
    rule: 'integer 1000-300000',
    description:
      'Longest wait for one Kafka request; a step of a transaction (start, send, offsets, commit) may take twice this before it is given up and the transaction is retried with a new producer.',
    schema: integer(1_000, 300_000),
  }),
  stallReadinessMs: setting({
    env: 'STALL_READINESS_MS',
    default: '30000',
    rule: 'integer 1000-3600000',
    description:
      'When records wait on an input partition and nothing has been committed for this long, /readyz says not ready (`txenrich_seconds_since_progress`).',
    schema: integer(1_000, 3_600_000),
  }),
  stallRestartMs: setting({
    env: 'STALL_RESTART_MS',
    default: '45000',
    rule: 'integer 1000-3600000',
    description:
      'When records wait and nothing has been committed for this long, the worker restarts its consumer and producers; after three restarts without progress it exits non-zero.',
    schema: integer(1_000, 3_600_000),
  }),
  onBugDecode: setting({
    env: 'ON_BUG_DECODE',
    default: 'dead-letter',
    rule: 'dead-letter or stop',
    description:
      'An unexpected error (a bug, not bad data) while decoding a record: dead-letter it with PROCESSING_FAILED and go on, or stop the worker.',
    schema: bugPolicy(),
  }),
  onBugProcess: setting({
    env: 'ON_BUG_PROCESS',
    default: 'dead-letter',
    rule: 'dead-letter or stop',
    description:
      'An unexpected error while enriching, indexing or encoding a record: dead-letter it with PROCESSING_FAILED and go on, or stop the worker.',
    schema: bugPolicy(),
  }),
  onBugProduce: setting({
    env: 'ON_BUG_PRODUCE',
    default: 'dead-letter',
    rule: 'dead-letter or stop',
    description:
      'An unexpected error while producing a record: dead-letter it with PROCESSING_FAILED and go on, or stop the worker.',
    schema: bugPolicy(),
  }),
  logoDir: setting({
    env: 'LOGO_DIR',
    default: 'logos',
    rule: 'path',
    description:
      "Folder of brand logos (<slug>.svg/.png/.jpg/.webp) served by GET /logos/{brand_id} and filled by 'tx-enrich logos mirror'; a brand without a file gets a generated SVG.",
    schema: text(),
  }),
  commonsUrl: setting({
    env: 'COMMONS_URL',
    default: 'https://commons.wikimedia.org',
    rule: 'http(s) URL',
    description:
      "Wikimedia Commons, where 'tx-enrich logos mirror' downloads the logo files named in the catalog.",
    schema: url(['http:', 'https:'], 'must be an http:// or https:// URL'),
  }),
  tenantsFile: setting({
    env: 'TENANTS_FILE',
    optional: true,
    rule: 'path',
    description: 'Optional JSON file of per-tenant settings.',
    schema: text(),
  }),
  databaseSchema: setting({
    env: 'DATABASE_SCHEMA',
    default: 'public',
    rule: 'SQL identifier (a-z 0-9 _)',
    description:
      'PostgreSQL schema of the brand store tables (created if missing); lets several stores share one database.',
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase SQL identifier (a-z, 0-9, _; 1-63 characters)'),
  }),
  indexRetentionDays: setting({
    env: 'INDEX_RETENTION_DAYS',
    default: '400',
    rule: 'integer 1-36500',
    description:
      'Retention of the index of enriched transactions, in days of occurred_at (`tx-enrich store purge` deletes older rows).',
    schema: integer(1, 36_500),
  }),
  globalCorrectionQuorum: setting({
    env: 'GLOBAL_CORRECTION_QUORUM',
    default: '3',
    rule: 'integer 1-1000',
    description:
      'Agreeing reports from distinct customers needed before a global correction proposal changes the global mapping.',
    schema: integer(1, 1_000),
  }),
  globalCorrectionMinTenants: setting({
    env: 'GLOBAL_CORRECTION_MIN_TENANTS',
    default: '2',
    rule: 'integer 2-1000',
    description:
      'Distinct tenants the agreeing customers of a global correction must come from: one tenant alone never changes a global mapping.',
    schema: integer(2, 1_000),
  }),
  outboxPollMs: setting({
    env: 'OUTBOX_POLL_MS',
    default: '500',
    rule: 'integer 10-60000',
    description:
      'How often the outbox relay looks for unpublished re-enrichment and brand-change records, in milliseconds.',
    schema: integer(10, 60_000),
  }),
  snapshotRefreshMs: setting({
    env: 'SNAPSHOT_REFRESH_MS',
    default: '30000',
    rule: 'integer 1000-3600000',
    description:
      'Safety net: how often a worker re-reads brand and mapping changes from the store even without a brand-change event.',
    schema: integer(1_000, 3_600_000),
  }),
} as const;

type Settings = typeof SETTINGS;
type Parsed<K extends keyof Settings> = z.output<Settings[K]['schema']>;

/** The parsed configuration: frozen, one property per setting. */
export type Config = {
  readonly [K in keyof Settings]: Settings[K] extends { optional: true }
    ? Parsed<K> | undefined
    : Parsed<K> extends readonly (infer T)[]
      ? readonly T[]
      : Parsed<K>;
};

/** Every environment variable the service reads, in table order. */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze(Object.values(SETTINGS).map((s) => s.env));

export interface ConfigIssue {
  readonly variable: string;
  readonly rule: string;
  /** The offending raw value, or undefined for secrets. */
  readonly value: string | undefined;
}

/** Thrown by {@link loadConfig}; its message lists every bad variable and the rule it broke. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const lines = issues.map(
      (i) => `  - ${i.variable} ${i.rule}${i.value === undefined ? '' : ` (got ${JSON.stringify(i.value)})`}`,
    );
    super(`Invalid configuration:\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof RegExp)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads and validates every setting from `env`. Unset or blank variables take their default.
 * Throws a {@link ConfigError} naming each bad variable and its rule.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  for (const [key, def] of Object.entries(SETTINGS) as [string, SettingDef<z.ZodType>][]) {
    const raw = env[def.env]?.trim();
    const value = raw === undefined || raw === '' ? def.default : raw;
    if (value === undefined) {
      result[key] = undefined;
      continue;
    }
    const parsed = def.schema.safeParse(value);
    if (parsed.success) {
      result[key] = parsed.data;
    } else {
      const rule = parsed.error.issues[0]?.message ?? `must be ${def.rule}`;
      issues.push({ variable: def.env, rule, value: def.secret ? undefined : value });
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return deepFreeze(result) as Config;
}

let cached: Config | undefined;

/** The process-wide configuration, read from process.env on first use. */
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}

/**
 * For entry points: loads the configuration, or prints the ConfigError to stderr and exits with
 * status 78 (EX_CONFIG).
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}

export interface SettingDescription {
  readonly variable: string;
  readonly default: string | undefined;
  readonly rule: string;
  readonly description: string;
}

/** The settings as plain rows (for the README table and tooling). */
export function describeSettings(): readonly SettingDescription[] {
  return Object.values(SETTINGS).map((s: SettingDef<z.ZodType>) => ({
    variable: s.env,
    default: s.default,
    rule: s.rule,
    description: s.description,
  }));
}

/** The configuration table in Markdown, as pasted into README.md. */
export function configTableMarkdown(): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const rows = describeSettings().map(
    (s) =>
      `| \`${s.variable}\` | ${s.default === undefined ? '_(unset)_' : `\`${escape(s.default)}\``} | ${escape(s.rule)} | ${escape(s.description)} |`,
  );
  return ['| Variable | Default | Rule | Description |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
