/**
 * `tx-enrich store migrate|seed|purge|status`: brand store maintenance.
 */
import { parseArgs } from 'node:util';
import { loadReferenceData } from '../data/load.js';
import { openOperatorSession } from '../feedback/operator.js';
import { seedCatalog } from '../store/catalog.js';
import { purgeIndex } from '../store/index-store.js';
import { outboxCounts } from '../store/outbox.js';
import { migrate, migrationStatus } from '../store/migrations.js';

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

export async function runStoreCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      'older-than-days': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [sub] = positionals;
  if (values.help || !sub) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  if (!['migrate', 'seed', 'purge', 'status'].includes(sub)) {
    process.stderr.write(`tx-enrich store: unknown command "${sub}"\n\n${HELP}`);
    return 2;
  }
  const session = await openOperatorSession({ prepare: false });
  const print = (json: unknown, text: string): void => {
    process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  };
  try {
    const { db, config } = session;
    if (sub === 'migrate') {
      const applied = await migrate(db);
      print(
        { store: db.description, applied },
        applied.length > 0 ? `applied migrations ${applied.join(', ')}` : 'up to date',
      );
      return 0;
    }
    if (sub === 'seed') {
      await migrate(db);
      const result = await seedCatalog(db, loadReferenceData().brands);
      print(
        result,
        `brands inserted ${result.inserted}, updated ${result.updated}, unchanged ${result.unchanged}` +
          (result.conflicts.length > 0
            ? `, skipped (id taken by a store brand) ${result.conflicts.join(', ')}`
            : ''),
      );
      return 0;
    }
    if (sub === 'purge') {
      const raw = values['older-than-days'];
      const days = raw === undefined ? config.indexRetentionDays : Number(raw);
      if (!Number.isInteger(days) || days < 1) {
        process.stderr.write('tx-enrich store purge: --older-than-days must be a positive integer\n');
        return 2;
      }
      await migrate(db);
      const removed = await purgeIndex(db, days);
      print(
        { olderThanDays: days, ...removed },
        `deleted ${removed.index} index rows and ${removed.outbox} published outbox rows older than ${days} days`,
      );
      return 0;
    }
    const migrations = await migrationStatus(db);
    const counts = migrations.every((m) => m.applied)
      ? await db.query<Record<string, string>>(
          `SELECT (SELECT count(*) FROM brands)::text AS brands, (SELECT count(*) FROM product_lines)::text AS product_lines,
                  (SELECT count(*) FROM learned_mappings)::text AS learned_mappings,
                  (SELECT count(*) FROM corrections)::text AS corrections,
                  (SELECT count(*) FROM enriched_index)::text AS indexed_transactions`,
        )
      : { rows: [] };
    const outbox = migrations.every((m) => m.applied) ? await outboxCounts(db) : null;
    const status = {
      store: db.description,
      backend: db.kind,
      migrations,
      counts: counts.rows[0] ?? null,
      outbox,
    };
    print(
      status,
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
  } finally {
    await session.close();
  }
}
