/**
 * One worker instance for `npm run bench:e2e`, as its own process (so several instances use several
 * cores, as in production): `tsx bench/bench-worker.ts enrich|passthrough|threads|shaped|store`.
 * Configuration from the environment, like `tx-enrich worker`; `passthrough` copies key, value and headers through the
 * same consumer, transactional producers and batching without decoding, enriching or encoding;
 * `threads` is the measurement prototype of bench/threads/offload.ts (enrichment on a worker thread);
 * `shaped` writes enriched-shaped records without enriching (see below); `store` is the worker as
 * `tx-enrich worker` runs it, with the brand store (DATABASE_URL, DATABASE_SCHEMA): snapshot from the
 * store, recurring history read and every enriched transaction indexed, per chunk.
 */
import { setFlagsFromString } from 'node:v8';
import { loadConfig } from '../src/config.js';
import { loadReferenceData } from '../src/data/load.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { createLogger } from '../src/observability/logger.js';
import type { IHeaders, Message } from 'kafkajs';
import { HEADER, sourceHeaderOf } from '../src/pipeline/headers.js';
import { processChunk } from '../src/pipeline/process-chunk.js';
import { Worker, type WorkerHooks } from '../src/pipeline/worker.js';
import type { Database } from '../src/store/db.js';
import { StoreSnapshot } from '../src/store/store-snapshot.js';
import { openStore, prepareStore, storeWorkerHooks } from '../src/store/store.js';

// As bin/tx-enrich.js does for the real worker.
setFlagsFromString('--no-allocation-site-pretenuring');

const mode = process.argv[2];
const MODES = ['enrich', 'passthrough', 'threads', 'shaped', 'store'];
if (!MODES.includes(mode ?? '')) {
  process.stderr.write(`usage: tsx bench/bench-worker.ts ${MODES.join('|')}\n`);
  process.exit(2);
}
const passthrough: typeof processChunk = async (messages) => ({
  enriched: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers ?? {} })),
  deadLetters: [],
  deadLetterCodes: [],
  enrichments: [],
});
/**
 * `shaped`: what the enrichment's output costs Kafka alone. The first chunk is really enriched; every
 * later record is written as one of those enriched records (same value bytes, same headers, its own
 * key and x-source), so decoding, validation, the engine and encoding cost nothing.
 */
let templates: Message[] | null = null;
const shaped: typeof processChunk = async (messages, ctx) => {
  templates ??= (await processChunk(messages, ctx)).enriched;
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
    enrichments: [],
  };
};
const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
let hooks: WorkerHooks;
let db: Database | null = null;
if (mode === 'store') {
  const files = loadReferenceData();
  db = await openStore(config, log);
  await prepareStore(db, files, log);
  hooks = storeWorkerHooks(db, await StoreSnapshot.load(db, files, log));
} else {
  const snapshot = buildSnapshot(loadReferenceData());
  hooks = {
    snapshot: () => snapshot,
    ...(mode === 'passthrough' ? { process: passthrough } : {}),
    ...(mode === 'shaped' ? { process: shaped } : {}),
    ...(mode === 'threads'
      ? { process: await (await import('./threads/offload.js')).offloadedProcess(config.schemaRegistryUrl) }
      : {}),
  };
}
const worker = new Worker(config, log, hooks);
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
