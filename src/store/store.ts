/**
 * Opening and preparing the brand store, and the hooks that plug it into the worker.
 */
import type { Config } from '../config.js';
import type { ReferenceData } from '../data/schemas.js';
import type { Logger } from '../observability/logger.js';
import { withRetry } from '../errors/retry.js';
import { seedCatalog, type SeedResult } from './catalog.js';
import { openDatabase, StoreInUseError, type Database } from './db.js';
import { migrate } from './migrations.js';

export type StoreConfig = Pick<Config, 'databaseUrl' | 'storeDataDir' | 'databaseSchema' | 'retryMaxDelayMs'>;

/**
 * Opens PostgreSQL at DATABASE_URL, or the embedded PGlite store in STORE_DATA_DIR when it is
 * unset. An unreachable PostgreSQL is retried (with `shouldStop` to give up on shutdown).
 */
export async function openStore(
  config: StoreConfig,
  log: Logger,
  options: { shouldStop?: () => boolean; budgetMs?: number } = {},
): Promise<Database> {
  const db = await withRetry(
    'opening the brand store',
    () =>
      openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.storeDataDir,
        schema: config.databaseSchema,
      }),
    {
      maxDelayMs: config.retryMaxDelayMs,
      ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
      ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
      // A store another process holds (PGlite) is not a dependency that comes back by itself.
      retriable: (failure, error) => !(error instanceof StoreInUseError) && failure.kind === 'infrastructure',
      onRetry: (attempt, delayMs, error) =>
        log.warn({ attempt, delayMs, err: (error as Error).message }, 'brand store unavailable: retrying'),
    },
  );
  log.info({ store: db.description, backend: db.kind }, 'brand store opened');
  return db;
}

/** Migrates and seeds (both idempotent; safe when several instances start at once). */
export async function prepareStore(
  db: Database,
  files: ReferenceData,
  log: Logger,
): Promise<{ migrations: number[]; seed: SeedResult }> {
  const migrations = await migrate(db);
  const seed = await seedCatalog(db, files.brands);
  log.info(
    {
      migrations,
      seeded: { inserted: seed.inserted, updated: seed.updated, unchanged: seed.unchanged },
      conflicts: seed.conflicts.length,
    },
    'brand store migrated and seeded',
  );
  if (seed.conflicts.length > 0) {
    log.warn(
      { ids: seed.conflicts.slice(0, 20) },
      'catalog brand ids already used by brands the store created: those catalog entries were not seeded',
    );
  }
  return { migrations, seed };
}
