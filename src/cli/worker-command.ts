/**
 * `tx-enrich worker` (also `npm start`): runs the exactly-once enrichment worker until SIGTERM or
 * SIGINT, with /metrics, /healthz and /readyz on HTTP_PORT.
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import { buildSnapshot } from '../engine/snapshot.js';
import { startHealthServer } from '../observability/health-server.js';
import { createLogger } from '../observability/logger.js';
import { Worker } from '../pipeline/worker.js';

const HELP = `usage: tx-enrich worker

Consumes INPUT_TOPICS (or INPUT_TOPIC_PATTERN) as consumer group CONSUMER_GROUP, enriches each
transaction and publishes v3 records to OUTPUT_TOPIC keyed by customer_id; undecodable or invalid
records go to DLQ_TOPIC with the reason in headers. Records, dead letters and offsets commit in one
Kafka transaction. All settings come from the environment (see README, "Configuration").
Serves /metrics, /healthz and /readyz on HTTP_PORT. Stops cleanly on SIGTERM or SIGINT.
`;

export async function runWorkerCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const snapshot = buildSnapshot(loadReferenceData());
  log.info(
    {
      catalogVersion: snapshot.catalogVersion,
      engineVersion: snapshot.engineVersion,
      brands: snapshot.brandsById.size,
    },
    'brand snapshot built',
  );

  const worker = new Worker(config, log, { snapshot: () => snapshot });
  const health = await startHealthServer(config.httpPort, worker.metrics.registry, () => worker.readiness());
  log.info({ port: health.port }, 'metrics and health endpoints listening');

  return new Promise<number>((resolve) => {
    let exiting = false;
    const finish = async (code: number): Promise<void> => {
      if (exiting) return;
      exiting = true;
      await worker.stop().catch((err: unknown) => log.error({ err: String(err) }, 'error while stopping'));
      await health.close();
      resolve(code);
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
    worker.start(fatal).catch(fatal);
  });
}
