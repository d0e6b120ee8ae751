/**
 * Every environment variable the service reads: its default, its rule and what it is for. The
 * README's configuration table is generated from this list (`npm run config:table`).
 */
import { z } from 'zod';
import {
  bugPolicy,
  decimal,
  host,
  integer,
  list,
  LOG_LEVELS,
  name,
  port,
  regex,
  setting,
  text,
  topic,
  TOPIC_NAME,
  url,
  validPort,
} from './rules.js';

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
  kafkaTransactionTimeoutMs: setting({
    env: 'KAFKA_TRANSACTION_TIMEOUT_MS',
    default: '20000',
    rule: 'integer 1000-900000',
    description:
      "The transaction timeout of the transactional producers: a transaction left open when its coordinator moves (a broker restart) is aborted by the brokers after this long, and until then the partition's committed offset cannot be read as settled, so its records wait.",
    schema: integer(1_000, 900_000),
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
  eventLoopStallMs: setting({
    env: 'EVENT_LOOP_STALL_MS',
    default: '60000',
    rule: 'integer 0-3600000',
    description:
      "When the worker's event loop has been blocked this long (nothing else can run: no retry, no stall restart, no /healthz), a watcher thread logs the main thread's stack and kills the process for its supervisor to restart; 0 turns it off.",
    schema: integer(0, 3_600_000),
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
