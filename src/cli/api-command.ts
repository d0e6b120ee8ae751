/**
 * `tx-enrich api`: serves the v3 and v2 enrichment API, /logos, /openapi.json, /docs, /healthz and
 * /readyz on API_PORT (bound on API_HOST), and /healthz, /readyz and /metrics on API_OPS_PORT (bound
 * on HEALTH_HOST): metrics name tenants, so they never share the public port. Tenants come from the tenants file (TENANTS_FILE, else .data/tenants.json),
 * re-read when it changes and on SIGHUP. Stops gracefully on SIGINT or SIGTERM.
 */
import { unwatchFile, watchFile } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { bindAddressSchema, loadConfigOrExit } from '../config.js';
import { createApiMetrics } from '../api/metrics.js';
import { buildApiServer } from '../api/server.js';
import {
  DefaultSnapshotProvider,
  type LearnedMappingsLoader,
  type SnapshotProvider,
} from '../api/snapshot-provider.js';
import { StoreSnapshotProvider } from '../api/store-snapshot-provider.js';
import { loadReferenceData } from '../data/load.js';
import { TenantDirectory } from '../api/tenant-directory.js';
import {
  DEFAULT_TENANTS_FILE,
  TenantsFileError,
  readTenantsFile,
  type LoadedTenantsFile,
} from '../api/tenants.js';
import { startHealthServer, type HealthServer } from '../observability/health-server.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { defineCommand, option, runCommand, type CommandContext, type OptionValues } from './command-kit.js';

const HELP = `usage: tx-enrich api [--port N] [--host ADDRESS] [--ops-port N] [--tenants-file PATH]

Serves POST /api/v3/transaction/enrich and POST /api/v2/transaction/enrich, GET /logos/{brand_id},
the OpenAPI document at /openapi.json and its rendering at /docs, and /healthz, /readyz. Metrics
(/metrics, with /healthz and /readyz) are served on the operations port only.

options:
  --port N            port to listen on (default: API_PORT; 0 = any free port)
  --host ADDRESS      address to bind (default: API_HOST, else 127.0.0.1; 0.0.0.0 = every interface)
  --ops-port N        operations port: /metrics, /healthz, /readyz, bound on HEALTH_HOST
                      (default: API_OPS_PORT, else 9465; 0 = any free port)
  --tenants-file PATH tenants file (default: TENANTS_FILE, else ${DEFAULT_TENANTS_FILE});
                      re-read when it changes and on SIGHUP
`;

/** How often the tenants file is checked for changes (stat polling: works with atomic renames). */
const TENANTS_POLL_MS = 2000;

export interface ApiCommandDeps {
  /** The brand store's learned mappings (src/store); none until the store provides them. */
  readonly loadLearnedMappings?: LearnedMappingsLoader;
}

const API_OPTIONS = {
  port: option.port(),
  host: option.checkedText(bindAddressSchema),
  'ops-port': option.port(),
  'tenants-file': option.text(),
} as const;

export async function runApiCommand(argv: string[], deps: ApiCommandDeps = {}): Promise<number> {
  return runCommand(
    'tx-enrich api',
    defineCommand({ help: HELP, options: API_OPTIONS, run: (context) => serve(context, deps) }),
    argv,
  );
}

async function serve(
  { values }: CommandContext<OptionValues<typeof API_OPTIONS>>,
  deps: ApiCommandDeps,
): Promise<number> {
  const config = loadConfigOrExit();
  const port = values.port ?? config.apiPort;
  const opsPort = values['ops-port'] ?? config.apiOpsPort;
  const host = values.host ?? config.apiHost;
  const logger = createLogger(config.logLevel, 'tx-enrich-api');
  const tenantsPath = values['tenants-file'] ?? config.tenantsFile ?? DEFAULT_TENANTS_FILE;

  let loaded: LoadedTenantsFile;
  try {
    loaded = readTenantsFile(tenantsPath);
  } catch (error) {
    if (error instanceof TenantsFileError) {
      process.stderr.write(`tx-enrich api: ${error.message}\n`);
      return 78;
    }
    throw error;
  }
  reportTenantsFile(logger, tenantsPath, loaded);
  const tenants = new TenantDirectory(loaded.file, { defaultLogoBaseUrl: config.logoBaseUrl });

  const reload = (why: string) => {
    try {
      const next = readTenantsFile(tenantsPath);
      tenants.replace(next.file);
      logger.info({ file: tenantsPath, tenants: tenants.tenants.length, why }, 'tenants file reloaded');
      if (next.looseMode !== null) reportTenantsFile(logger, tenantsPath, next);
    } catch (error) {
      logger.error(
        { file: tenantsPath, err: error },
        'tenants file not reloaded: keeping the previous tenants',
      );
    }
  };
  watchFile(tenantsPath, { interval: TENANTS_POLL_MS, persistent: false }, (current, previous) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino) reload('file changed');
  });
  const onHangup = () => reload('SIGHUP');
  process.on('SIGHUP', onHangup);

  // With PostgreSQL the API reads the brand store the worker writes (catalog edits, learned
  // mappings). The embedded PGlite store serves one process, the worker's: without DATABASE_URL
  // the API enriches from the catalog files (plus an injected mappings loader, in tests).
  const snapshots: SnapshotProvider & { close(): unknown; start(): unknown } =
    config.databaseUrl && !deps.loadLearnedMappings
      ? new StoreSnapshotProvider(config, loadReferenceData(), logger)
      : new DefaultSnapshotProvider({
          ...(deps.loadLearnedMappings ? { loadLearnedMappings: deps.loadLearnedMappings } : {}),
          retryMaxDelayMs: config.retryMaxDelayMs,
          onLoadError: (error, attempt) =>
            logger.warn(
              { err: error, attempt },
              'brand store unavailable: enrichment answers 503 until it loads',
            ),
        });
  if ((await snapshots.start()) === true) logger.info('brand snapshot loaded');

  const metrics = createApiMetrics();
  const app = await buildApiServer({ tenants, snapshots, logger, metrics, logoDir: config.logoDir });
  let ops: HealthServer | null = null;
  try {
    ops = await startHealthServer(opsPort, metrics.registry, () => snapshots.readiness(), config.healthHost);
    await app.listen({ port, host });
  } catch (error) {
    process.stderr.write(
      `tx-enrich api: cannot listen on ${ops ? `${host}:${port}` : `${config.healthHost}:${opsPort}`}: ${(error as Error).message}\n`,
    );
    await ops?.close();
    snapshots.close();
    unwatchFile(tenantsPath);
    process.off('SIGHUP', onHangup);
    return 1;
  }
  const address = app.server.address() as AddressInfo;
  logger.info(
    {
      port: address.port,
      host: address.address,
      ops_port: ops.port,
      ops_host: ops.host,
      tenants: tenants.tenants.length,
      tenants_file: tenantsPath,
    },
    'API listening',
  );
  const opsServer = ops;

  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.off('SIGHUP', onHangup);
      unwatchFile(tenantsPath);
      snapshots.close();
      logger.info({ signal }, 'API stopping');
      const deadline = setTimeout(() => {
        logger.warn(
          { deadline_ms: config.shutdownDeadlineMs },
          'shutdown deadline passed; closing connections',
        );
        app.server.closeAllConnections();
      }, config.shutdownDeadlineMs);
      deadline.unref();
      Promise.all([app.close(), opsServer.close()]).then(
        () => {
          clearTimeout(deadline);
          logger.info('API stopped');
          resolve(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'API did not close cleanly');
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function reportTenantsFile(logger: Logger, path: string, loaded: LoadedTenantsFile): void {
  if (!loaded.exists) {
    logger.warn(
      { file: path },
      'no tenants file: every enrichment request gets 401 until "tx-enrich tenants add <id>" creates it (picked up without a restart)',
    );
  }
  if (loaded.looseMode !== null) {
    logger.warn(
      { file: path, mode: loaded.looseMode.toString(8) },
      'tenants file is readable or writable by group or others; chmod 600 it',
    );
  }
}
