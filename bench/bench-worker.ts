/**
 * One worker instance for `npm run bench:e2e`, as its own process (so several instances use several
 * cores, as in production): `tsx bench/bench-worker.ts enrich|passthrough|shaped|store`.
 * Configuration from the environment, like `tx-enrich worker`; `passthrough` copies key, value and headers through the
 * same consumer, transactional producers and batching without decoding, enriching or encoding;
 * `shaped` writes enriched-shaped records without enriching (see below); `store` is the worker as
 * `tx-enrich worker` runs it, with the brand store (DATABASE_URL, DATABASE_SCHEMA): snapshot from the
 * store, recurring history read and every enriched transaction indexed, per chunk.
 */
import { loadConfig } from '../src/config.js';
import { loadReferenceData } from '../src/data/load.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { createLogger } from '../src/observability/logger.js';
import type { IHeaders, Message } from 'kafkajs';
import { HEADER, sourceHeaderOf } from '../src/kafka/headers.js';
import { brandStorePort } from '../src/cli/worker-command.js';
import { processMicroBatch, type BrandStorePort, type StepOutput } from '../src/pipeline/steps.js';
import { Worker, type WorkerOptions } from '../src/pipeline/worker.js';
import type { Database } from '../src/store/db.js';
import { StoreSnapshot } from '../src/store/store-snapshot.js';
import { openStore, prepareStore } from '../src/store/store.js';

// Started with WORKER_NODE_OPTIONS (bench/e2e.bench.ts), as npm start runs the real worker.

const mode = process.argv[2];
const MODES = ['enrich', 'passthrough', 'shaped', 'store'];
if (!MODES.includes(mode ?? '')) {
  process.stderr.write(`usage: tsx bench/bench-worker.ts ${MODES.join('|')}\n`);
  process.exit(2);
}
type Process = NonNullable<WorkerOptions['process']>;
const passthrough: Process = async (messages): Promise<StepOutput> => ({
  enriched: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers ?? {} })),
  deadLetters: [],
  deadLetterCodes: [],
});
/**
 * `shaped`: what the enrichment's output costs Kafka alone. The first chunk is really enriched; every
 * later record is written as one of those enriched records (same value bytes, same headers, its own
 * key and x-source), so decoding, validation, the engine and encoding cost nothing.
 */
let templates: Message[] | null = null;
const shaped: Process = async (messages, ctx) => {
  templates ??= (await processMicroBatch(messages, ctx)).enriched;
  const t = templates;
  const source = sourceHeaderOf(ctx.topic, ctx.partition);
  return {
    enriched: messages.map((m, i) => {
      const template = t[i % t.length] as Message;
      const headers = template.headers as IHeaders;
      return {
        key: m.key,
        value: template.value,
        headers: {
          [HEADER.tenant]: headers[HEADER.tenant] as string,
          [HEADER.enrich]: headers[HEADER.enrich] as string,
          [HEADER.source]: source(m.offset, null),
        },
      };
    }),
    deadLetters: [],
    deadLetterCodes: [],
  };
};
const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
let store: BrandStorePort;
let options: WorkerOptions = {};
let db: Database | null = null;
if (mode === 'store') {
  const files = loadReferenceData();
  db = await openStore(config, log);
  await prepareStore(db, files, log);
  store = brandStorePort(db, await StoreSnapshot.load(db, files, log));
} else {
  const snapshot = buildSnapshot(loadReferenceData());
  store = { snapshot: () => snapshot };
  if (mode === 'passthrough') options = { process: passthrough };
  if (mode === 'shaped') options = { process: shaped };
}
const worker = new Worker(config, log, store, options);
process.once('SIGTERM', () => {
  void worker
    .stop()
    .then(() => db?.close())
    .then(() => process.exit(0));
});
worker.start((error) => {
  process.stderr.write(`bench worker failed: ${error.message}\n`);
  process.exit(1);
});
