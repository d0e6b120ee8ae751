/**
 * `tx-enrich store migrate|seed|purge|status`: brand store maintenance.
 */
import { loadReferenceData } from '../data/load.js';
import { seedCatalog } from '../store/catalog.js';
import { purgeIndex } from '../store/index-store.js';
import { outboxCounts } from '../store/outbox.js';
import { migrate, migrationStatus } from '../store/migrations.js';
import {
  defineCommand,
  JSON_OPTION,
  option,
  runGroup,
  withOperatorSession,
  type CommandGroup,
} from './command-kit.js';

const HELP = `usage: tx-enrich store <command> [options]

  migrate                         apply the migrations the store lacks (idempotent)
  seed                            upsert the catalog of data/ into the store (idempotent: unchanged
                                  brands are not touched, operator edits are kept)
  purge [--older-than-days N]     delete index rows of transactions that occurred more than N days
                                  ago (default INDEX_RETENTION_DAYS) and published outbox rows as old
  status                          migrations, row counts, unpublished outbox records

The store is PostgreSQL at DATABASE_URL (schema DATABASE_SCHEMA), or the embedded PGlite store in
STORE_DATA_DIR when DATABASE_URL is unset (stop the worker first: PGlite serves one process).
Options: --json  print JSON.
`;

const migrateCommand = defineCommand({
  help: HELP,
  options: JSON_OPTION,
  run: async (context) =>
    withOperatorSession(
      async ({ db }) => {
        const applied = await migrate(db);
        context.out(
          { store: db.description, applied },
          applied.length > 0 ? `applied migrations ${applied.join(', ')}` : 'up to date',
        );
        return 0;
      },
      { prepare: false },
    ),
});

const seed = defineCommand({
  help: HELP,
  options: JSON_OPTION,
  run: async (context) =>
    withOperatorSession(
      async ({ db }) => {
        await migrate(db);
        const result = await seedCatalog(db, loadReferenceData().brands);
        context.out(
          result,
          `brands inserted ${result.inserted}, updated ${result.updated}, unchanged ${result.unchanged}` +
            (result.conflicts.length > 0
              ? `, skipped (id taken by a store brand) ${result.conflicts.join(', ')}`
              : ''),
        );
        return 0;
      },
      { prepare: false },
    ),
});

const purge = defineCommand({
  help: HELP,
  options: { ...JSON_OPTION, 'older-than-days': option.integer({ min: 1, max: 36_500 }) },
  run: async (context) =>
    withOperatorSession(
      async ({ db, config }) => {
        const days = context.values['older-than-days'] ?? config.indexRetentionDays;
        await migrate(db);
        const removed = await purgeIndex(db, days);
        context.out(
          { olderThanDays: days, ...removed },
          `deleted ${removed.index} index rows and ${removed.outbox} published outbox rows older than ${days} days`,
        );
        return 0;
      },
      { prepare: false },
    ),
});

const status = defineCommand({
  help: HELP,
  options: JSON_OPTION,
  run: async (context) =>
    withOperatorSession(
      async ({ db }) => {
        const migrations = await migrationStatus(db);
        const migrated = migrations.every((m) => m.applied);
        const counts = migrated
          ? await db.query<Record<string, string>>(
              `SELECT (SELECT count(*) FROM brands)::text AS brands, (SELECT count(*) FROM product_lines)::text AS product_lines,
                  (SELECT count(*) FROM learned_mappings)::text AS learned_mappings,
                  (SELECT count(*) FROM corrections)::text AS corrections,
                  (SELECT count(*) FROM enriched_index)::text AS indexed_transactions`,
            )
          : { rows: [] };
        const outbox = migrated ? await outboxCounts(db) : null;
        context.out(
          { store: db.description, backend: db.kind, migrations, counts: counts.rows[0] ?? null, outbox },
          [
            `store                 ${db.description}`,
            `migrations            ${migrations.map((m) => `${m.version}${m.applied ? '' : ' (pending)'}`).join(', ')}`,
            ...Object.entries(counts.rows[0] ?? {}).map(([k, v]) => `${k.padEnd(21)} ${v}`),
            ...(outbox
              ? [
                  `outbox                ${outbox.pending} unpublished, ${outbox.sent} published, ${outbox.failed} set aside (Kafka would not take them)`,
                ]
              : []),
          ].join('\n'),
        );
        return 0;
      },
      { prepare: false },
    ),
});

export const STORE_COMMANDS: CommandGroup = {
  name: 'tx-enrich store',
  help: HELP,
  commands: { migrate: migrateCommand, seed, purge, status },
};

export function runStoreCommand(argv: string[]): Promise<number> {
  return runGroup(STORE_COMMANDS, argv);
}
