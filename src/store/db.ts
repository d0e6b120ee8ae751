/**
 * The brand store's database: a small interface with two implementations that run the same SQL —
 * PostgreSQL through a node-postgres Pool (DATABASE_URL set) and PGlite, PostgreSQL compiled to
 * WebAssembly, in a local folder (STORE_DATA_DIR, the zero-setup default).
 *
 * Only what both backends do the same way is used: `$n` parameters, JSON passed as text and cast to
 * jsonb, text[] parameters, bytea moved as base64 text. int8 values are cast to text or int in SQL,
 * because node-postgres returns them as strings and PGlite as numbers.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { InfrastructureError } from '../errors/catalog.js';

export interface QueryResult<R> {
  readonly rows: R[];
  readonly rowCount: number;
}

/** Something that runs SQL: the database itself, or one open transaction. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** A session-level lock, held until released or until the connection (or process) dies. */
export interface HeldLock {
  release(): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Where it is, for logs: host/database/schema, or the data folder. Never a password. */
  readonly description: string;
  readonly schema: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Takes the named lock if nobody holds it (PostgreSQL: a session advisory lock on a dedicated
   * connection; PGlite: the process already owns the whole store, so always granted once).
   */
  tryLock(name: string): Promise<HeldLock | null>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite store in `dataDir` is used. */
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
  readonly schema: string;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return PostgresDatabase.open(options.databaseUrl, options.schema);
  return PGliteDatabase.open(options.dataDir, options.schema);
}

/** The SQL that takes a transaction-scoped advisory lock on a name (both backends). */
export const XACT_LOCK_SQL = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';

// ---------------------------------------------------------------------------------------------------
// PostgreSQL (node-postgres)

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/** Connection-level failures are infrastructure errors (retried); SQL errors are bugs and rethrown. */
export function classifyDatabaseError(error: unknown, what: string): unknown {
  if (error instanceof InfrastructureError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const connection =
    (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^08|^57P0[123]|^53300$/.test(code))) ||
    /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
      message,
    );
  if (!connection) return error;
  return new InfrastructureError('DATABASE_UNAVAILABLE', `${what}: ${message}`, { cause: error });
}

class PgQueryable implements Queryable {
  constructor(private readonly client: pg.Pool | pg.PoolClient) {}

  async query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    try {
      const result = await this.client.query<R>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw classifyDatabaseError(error, 'querying the brand store');
    }
  }

  async exec(sql: string): Promise<void> {
    try {
      await this.client.query(sql);
    } catch (error) {
      throw classifyDatabaseError(error, 'running a script on the brand store');
    }
  }
}

export class PostgresDatabase extends PgQueryable implements Database {
  readonly kind = 'postgres' as const;

  private constructor(
    private readonly pool: pg.Pool,
    readonly description: string,
    readonly schema: string,
    private readonly url: string,
  ) {
    super(pool);
  }

  static async open(url: string, schema: string): Promise<PostgresDatabase> {
    const parsed = new URL(url);
    const description = `postgresql://${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname} schema ${schema}`;
    // The schema must exist before search_path can point at it.
    const bootstrap = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    try {
      await bootstrap.connect();
      await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`).catch((error: unknown) => {
        // Two processes creating it at once: one of them loses the race, which is fine.
        if (!['23505', '42P06'].includes(String((error as { code?: unknown }).code))) throw error;
      });
    } catch (error) {
      throw classifyDatabaseError(error, `opening the brand store at ${description}`);
    } finally {
      await bootstrap.end().catch(() => undefined);
    }
    const pool = new pg.Pool({
      connectionString: url,
      max: 8,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      options: `-c search_path=${schema}`,
      application_name: 'tx-enrich',
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return new PostgresDatabase(pool, description, schema, url);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw classifyDatabaseError(error, 'connecting to the brand store');
    }
    const tx = new PgQueryable(client);
    let broken = false;
    try {
      await tx.exec('BEGIN');
      const result = await fn(tx);
      await tx.exec('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async tryLock(name: string): Promise<HeldLock | null> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 10_000,
      options: `-c search_path=${this.schema}`,
      application_name: 'tx-enrich-lock',
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [`${this.schema}:${name}`],
      );
      if (rows[0]?.locked) {
        return { release: () => client.end().catch(() => undefined) };
      }
      await client.end();
      return null;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw classifyDatabaseError(error, `taking the ${name} lock`);
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------
// PGlite (embedded)

interface PGliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

class PGliteQueryable implements Queryable {
  constructor(protected readonly target: PGliteLike) {}

  async query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    const result = await this.target.query<R>(sql, [...params]);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  }

  async exec(sql: string): Promise<void> {
    await this.target.exec(sql);
  }
}

/** Thrown when another live process already has the embedded store open. */
export class StoreInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded brand store in ${dataDir} is in use by process ${pid}: PGlite serves one process at a time. ` +
        'Stop that process, or point every process at PostgreSQL with DATABASE_URL.',
    );
    this.name = 'StoreInUseError';
  }
}

export class PGliteDatabase extends PGliteQueryable implements Database {
  readonly kind = 'pglite' as const;
  private readonly locked = new Set<string>();

  private constructor(
    private readonly db: PGliteLike & {
      transaction<T>(fn: (tx: PGliteLike) => Promise<T>): Promise<T>;
      close(): Promise<void>;
    },
    readonly description: string,
    readonly schema: string,
    private readonly lockFile: string,
  ) {
    super(db);
  }

  static async open(dataDir: string, schema: string): Promise<PGliteDatabase> {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    const lockFile = join(dir, 'tx-enrich.pid');
    takeLockFile(lockFile, dir);
    try {
      const { PGlite } = await import('@electric-sql/pglite');
      const db = await PGlite.create(join(dir, 'pgdata'));
      await db.exec(
        `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}; SET search_path TO ${quoteIdent(schema)};`,
      );
      return new PGliteDatabase(db, `pglite ${dir} schema ${schema}`, schema, lockFile);
    } catch (error) {
      rmSync(lockFile, { force: true });
      throw error;
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new PGliteQueryable(tx)));
  }

  async tryLock(name: string): Promise<HeldLock | null> {
    // One process owns the embedded store (the pid file); inside it, one holder per name at a time.
    if (this.locked.has(name)) return null;
    this.locked.add(name);
    return {
      release: async () => {
        this.locked.delete(name);
      },
    };
  }

  async close(): Promise<void> {
    await this.db.close().catch(() => undefined);
    rmSync(this.lockFile, { force: true });
  }
}

/** A pid file: PGlite must never be opened by two processes at once (it would corrupt the folder). */
function takeLockFile(path: string, dir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new StoreInUseError(dir, pid);
      }
      // Left behind by a process that died (SIGKILL): take it over.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not take the lock file ${path}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
