// Guarantee: PostgreSQL at DATABASE_URL (the test stack's, default postgres://postgres@127.0.0.1:5432/test)
// is reachable with the `pg` driver and runs queries; the brand store's tests build on this.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEnv, uniqueName } from '../support/index.js';

describe('PostgreSQL', () => {
  const { databaseUrl } = stackEnv();
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });

  beforeAll(async () => {
    await client.connect().catch((error: Error) => {
      throw new Error(`cannot connect to PostgreSQL at ${databaseUrl}: ${error.message}`);
    });
  });

  afterAll(async () => {
    await client.end();
  });

  it('answers a query', async () => {
    const result = await client.query<{ one: number; version: string }>(
      'select 1 as one, version() as version',
    );
    expect(result.rows[0]?.one).toBe(1);
    expect(result.rows[0]?.version).toMatch(/PostgreSQL/);
  });

  it('writes and reads a row in a temporary table', async () => {
    const table = uniqueName('probe')
      .replace(/[^a-z0-9_]/gi, '_')
      .toLowerCase();
    await client.query(`create temporary table ${table} (id int primary key, name text not null)`);
    await client.query(`insert into ${table} (id, name) values ($1, $2)`, [1, 'مرحبا']);
    const { rows } = await client.query<{ id: number; name: string }>(`select id, name from ${table}`);
    expect(rows).toEqual([{ id: 1, name: 'مرحبا' }]);
  });
});
