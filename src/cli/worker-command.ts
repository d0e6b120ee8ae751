/**
 * `tx-enrich worker` (also `npm start`): runs the exactly-once enrichment worker until SIGTERM or
 * SIGINT, with /metrics, /healthz and /readyz on HTTP_PORT.
 */
import { loadConfigOrExit } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import { RetryBoard } from '../errors/retry.js';
import { createFeedbackServices, type FeedbackServices } from '../feedback/services.js';
import { startHealthServer } from '../observability/health-server.js';
import { createLogger, LOGGER_NAME, type Logger } from '../observability/logger.js';
import { startLoopWatchdog } from '../observability/loop-watchdog.js';
import type { BrandStorePort } from '../pipeline/steps.js';
import { Worker } from '../pipeline/worker.js';
import type { Database } from '../store/db.js';
import { historyFor, upsertIndex } from '../store/index-store.js';
import { StoreSnapshot } from '../store/store-snapshot.js';
import { openStore, prepareStore } from '../store/store.js';
import { defineCommand, runCommand } from './command-kit.js';

/**
 * Node options the worker should run with (`npm start`, the Docker image and the demo pass them; set
 * NODE_OPTIONS to the same when starting it another way). A micro-batch keeps its records, results
 * and output alive until its transaction commits, and with several partitions in flight V8's default
 * young generation (16 MB semi-spaces) collected them every ~35 ms, copying each batch: 270
 * scavenges of 7 ms for 200,000 records. With 64 MB: 70 of 16 ms, and 15-25 % more records/s
 * (docs/performance.md). It cannot be set from inside the process once the heap exists.
 */
export const WORKER_NODE_OPTIONS: readonly string[] = [
  '--max-semi-space-size=64',
  // See bin/tx-enrich.js: batches alive until they end are not long-lived data.
  '--no-allocation-site-pretenuring',
];

const HELP = `usage: tx-enrich worker

Consumes INPUT_TOPICS (or INPUT_TOPIC_PATTERN) as consumer group CONSUMER_GROUP, enriches each
transaction and publishes v3 records to OUTPUT_TOPIC keyed by customer_id; undecodable or invalid
records go to DLQ_TOPIC with the reason in headers. Records, dead letters and offsets commit in one
Kafka transaction. All settings come from the environment (see README, "Configuration").
Serves /metrics, /healthz and /readyz on HTTP_PORT (bound on HEALTH_HOST). Stops cleanly on SIGTERM or SIGINT.
Run it with node ${WORKER_NODE_OPTIONS.join(' ')} (npm start does) for throughput.

The brand store (PostgreSQL at DATABASE_URL, or the embedded PGlite store in STORE_DATA_DIR when it
is unset) is migrated and seeded at start; the brand snapshot is built from it, every enriched
transaction is indexed in it and recurring history comes from it. The same process consumes
FEEDBACK_TOPIC, publishes re-enriched records (REENRICHED_TOPIC) and brand changes
(BRAND_CHANGES_TOPIC) through the outbox, and refreshes its snapshot on brand changes (docs/store.md).
`;

export function runWorkerCommand(argv: string[]): Promise<number> {
  return runCommand('tx-enrich worker', defineCommand({ help: HELP, options: {}, run: runWorker }), argv);
}

async function runWorker(): Promise<number> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  // From the start: loading the store and building the snapshot run on the same loop.
  const loop = startLoopWatchdog({
    stallMs: config.eventLoopStallMs,
    name: LOGGER_NAME,
    onFailure: (error) =>
      log.error({ err: error.message }, 'the event-loop watchdog failed: running unwatched'),
  });
  const files = loadReferenceData();
  let stopRequested = false;
  const earlyStop = (): void => {
    stopRequested = true;
  };
  process.once('SIGTERM', earlyStop);
  process.once('SIGINT', earlyStop);
  const db = await openStore(config, log, { shouldStop: () => stopRequested });
  await prepareStore(db, files, log);
  const snapshots = await StoreSnapshot.load(db, files, log);
  const snapshot = snapshots.current();
  log.info(
    {
      catalogVersion: snapshot.catalogVersion,
      engineVersion: snapshot.engineVersion,
      brands: snapshot.brandsById.size,
      learnedMappings: snapshot.learnedByMerchantId.size + snapshot.learnedByMerchantKey.size,
    },
    'brand snapshot built from the store',
  );
  process.off('SIGTERM', earlyStop);
  process.off('SIGINT', earlyStop);
  if (stopRequested) {
    await db.close();
    await loop.stop();
    return 0;
  }

  const board = new RetryBoard();
  const worker = new Worker(config, log, brandStorePort(db, snapshots), { board });
  let feedback: FeedbackServices | null = null;
  const health = await startHealthServer(
    config.httpPort,
    worker.metrics.registry,
    () => worker.readiness() ?? feedback?.readiness() ?? null,
    config.healthHost,
  );
  log.info({ port: health.port, host: health.host }, 'metrics and health endpoints listening');

  return new Promise<number>((resolve) => {
    let exiting = false;
    const finish = async (code: number): Promise<void> => {
      if (exiting) return;
      exiting = true;
      // Every step below is bounded, but a stop that still hangs must not leave a worker that
      // neither works nor exits: its supervisor would wait for ever.
      const bound = config.shutdownDeadlineMs + 6 * config.kafkaRequestTimeoutMs;
      setTimeout(() => exitNow(log, code === 0 ? 1 : code, 'shutdown did not finish in time'), bound).unref();
      await feedback?.stop().catch((err: unknown) => log.error({ err: String(err) }, 'error while stopping'));
      await worker.stop().catch((err: unknown) => log.error({ err: String(err) }, 'error while stopping'));
      await health.close();
      await db.close();
      await loop.stop();
      resolve(code);
      // After a broker outage kafkajs can keep a reconnect timer or a socket of a client it has
      // already been told to disconnect; once everything of ours is closed, nothing may hold the exit.
      setTimeout(() => exitNow(log, code, 'stopped, but handles were left open'), LINGER_MS).unref();
    };
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        log.info({ signal }, 'stopping');
        void finish(0);
      });
    }
    const fatal = (error: Error): void => {
      log.fatal({ err: error.message, code: (error as { code?: string }).code }, `fatal: ${error.message}`);
      void finish(1);
    };
    worker
      .start(fatal)
      .then(async () => {
        if (exiting) return;
        // Known to finish() before it starts: a stop during the start ends it instead of waiting.
        feedback = createFeedbackServices(config, log, db, snapshots, {
          board,
          registry: worker.metrics.registry,
        });
        await feedback.start();
      })
      .catch(fatal);
  });
}

/** How long a stopped worker may take to exit by itself before it is made to. */
const LINGER_MS = 2_000;

/** Exits at once, saying what was still open (the evidence for whatever held the exit). */
function exitNow(log: Logger, code: number, why: string): void {
  log.warn({ code, open: process.getActiveResourcesInfo() }, `${why}: exiting`);
  process.exit(code);
}

/** The worker's port to the brand store: its snapshot, recurring history and the index. */
export function brandStorePort(db: Database, snapshots: StoreSnapshot): BrandStorePort {
  return {
    snapshot: () => snapshots.current(),
    history: (keys) => historyFor(db, keys),
    index: async (items) => {
      await upsertIndex(db, items);
    },
  };
}
