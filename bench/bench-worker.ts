/**
 * One worker instance for `npm run bench:e2e`, as its own process (so several instances use several
 * cores, as in production): `tsx bench/bench-worker.ts enrich|passthrough|threads`. Configuration from the
 * environment, like `tx-enrich worker`; `passthrough` copies key, value and headers through the
 * same consumer, transactional producers and batching without decoding, enriching or encoding;
 * `threads` is the measurement prototype of bench/threads/offload.ts (enrichment on a worker thread).
 */
import { loadConfig } from '../src/config.js';
import { loadReferenceData } from '../src/data/load.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { createLogger } from '../src/observability/logger.js';
import type { processChunk } from '../src/pipeline/process-chunk.js';
import { Worker } from '../src/pipeline/worker.js';

const mode = process.argv[2];
if (mode !== 'enrich' && mode !== 'passthrough' && mode !== 'threads') {
  process.stderr.write('usage: tsx bench/bench-worker.ts enrich|passthrough|threads\n');
  process.exit(2);
}
const passthrough: typeof processChunk = async (messages) => ({
  enriched: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers ?? {} })),
  deadLetters: [],
  deadLetterCodes: [],
  enrichments: [],
});
const config = loadConfig(process.env);
const snapshot = buildSnapshot(loadReferenceData());
const worker = new Worker(config, createLogger(config.logLevel), {
  snapshot: () => snapshot,
  ...(mode === 'passthrough' ? { process: passthrough } : {}),
  ...(mode === 'threads'
    ? { process: await (await import('./threads/offload.js')).offloadedProcess(config.schemaRegistryUrl) }
    : {}),
});
process.once('SIGTERM', () => {
  void worker.stop().then(() => process.exit(0));
});
worker.start((error) => {
  process.stderr.write(`bench worker failed: ${error.message}\n`);
  process.exit(1);
});
