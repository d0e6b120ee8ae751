import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { enrichBatch } from '../../../src/engine/enrich.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import type { EngineTransaction, HistoryEntry } from '../../../src/engine/types.js';
import { deepFreeze, txn } from './fixtures.js';

const ENGINE_DIR = join(import.meta.dirname, '..', '..', '..', 'src', 'engine');

const FORBIDDEN_MODULES: readonly RegExp[] = [
  /^kafkajs(\/|$)/,
  /^@kafkajs\//,
  /^pg(\/|$)/,
  /^pg-/,
  /^@electric-sql\//,
  /^pino(\/|$)/,
  /^fastify(\/|$)/,
  /^(node:)?fs(\/|$)/,
  /^(node:)?net$/,
  /^(node:)?https?$/,
  /^(node:)?child_process$/,
];

const FORBIDDEN_CALLS: readonly [string, RegExp][] = [
  ['Date.now()', /\bDate\s*\.\s*now\s*\(/],
  ['new Date() without arguments', /\bnew\s+Date\s*\(\s*\)/],
  ['Math.random', /\bMath\s*\.\s*random\b/],
  ['process.', /\bprocess\s*\./],
];

/** Removes comments so that prose about the clock or processes does not count as code. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every module specifier in static imports, re-exports, dynamic imports and require calls. */
function importedModules(source: string): string[] {
  const code = stripComments(source);
  const specifiers: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) specifiers.push(m[1] as string);
  return specifiers;
}

function violations(source: string): string[] {
  const found: string[] = [];
  for (const spec of importedModules(source)) {
    if (FORBIDDEN_MODULES.some((re) => re.test(spec))) found.push(`imports ${spec}`);
  }
  const code = stripComments(source);
  for (const [name, re] of FORBIDDEN_CALLS) if (re.test(code)) found.push(`uses ${name}`);
  return found;
}

describe('the engine is pure', () => {
  const files = readdirSync(ENGINE_DIR).filter((f) => f.endsWith('.ts'));

  it('has the engine modules to check', () => {
    expect(files).toEqual(expect.arrayContaining(['enrich.ts', 'normalize.ts', 'match.ts', 'categorize.ts']));
  });

  it('the checker itself catches each forbidden import and call', () => {
    const bad = [
      `import { Kafka } from 'kafkajs';`,
      `import type { Registry } from '@kafkajs/confluent-schema-registry';`,
      `import pg from 'pg';`,
      `import { PGlite } from '@electric-sql/pglite';`,
      `import pino from 'pino';`,
      `import Fastify from 'fastify';`,
      `import { readFileSync } from 'node:fs';`,
      `import { readFile } from 'node:fs/promises';`,
      `import * as fs from 'fs';`,
      `import net from 'node:net';`,
      `import http from 'node:http';`,
      `import https from 'node:https';`,
      `import { spawn } from 'node:child_process';`,
      `const m = await import('node:fs');`,
      `export { x } from 'pino';`,
      `const t = Date.now();`,
      `const d = new Date();`,
      `const r = Math.random();`,
      `const e = process.env.X;`,
    ];
    for (const line of bad) expect(violations(line), line).toHaveLength(1);
    const fine = [
      `import { createHash } from 'node:crypto';`,
      `import type { Snapshot } from './snapshot.js';`,
      `const t = Date.parse(s);`,
      `const d = new Date(Date.UTC(2024, 0, 1));`,
      `// Date.now() is never called here; process.env neither`,
      `/* Math.random */ const x = 1;`,
    ];
    for (const line of fine) expect(violations(line), line).toEqual([]);
  });

  it.each(readdirSync(ENGINE_DIR).filter((f) => f.endsWith('.ts')))(
    'src/engine/%s has no I/O imports, clock, randomness or process access',
    (file) => {
      const source = readFileSync(join(ENGINE_DIR, file), 'utf8');
      expect(violations(source)).toEqual([]);
    },
  );
});

describe('enrichBatch is deterministic and does not mutate its inputs', () => {
  let snapshot: Snapshot;
  let transactions: EngineTransaction[];
  let history: HistoryEntry[];

  beforeAll(() => {
    snapshot = buildSnapshot(loadReferenceData());
    transactions = [
      txn({ raw_description: 'SQ *BLUE BOTTLE COFFEE #123 SAN FRANCISCO CA', country: 'US' }),
      txn({ raw_description: 'POS PURCHASE', merchant_name: 'CARREFOUR', mcc: '5411' }),
      txn({ raw_description: 'NETFLIX.COM', occurred_at: '2024-04-12T09:00:00Z' }),
      txn({ raw_description: 'SALARY CREDIT ACME', direction: 'CREDIT', is_transfer: true }),
      txn({ raw_description: 'TRANSFER TO JOHN', tenant: 'acme' }),
      txn({ raw_description: 'TALBAT', customer_id: 'customer-2' }),
      txn({
        raw_description: 'Purchase of AED 45.00 with Card ending 1234 at DUBAI MARINA, DUBAI on 12/03/2024',
      }),
      txn({ raw_description: 'XQZW PIZZA', occurred_at: '2024-02-12T09:00:00Z' }),
      txn({ raw_description: 'XQZW PIZZA', occurred_at: '2024-03-12T09:00:00Z' }),
      txn({ raw_description: 'طلبات', amount: -45.5 }),
    ];
    history = [
      {
        customer_id: 'customer-1',
        brand_id: null,
        merchant_key: 'xqzw pizza',
        occurred_at: '2024-01-12T09:00:00Z',
        amount: 25,
      },
    ];
  });

  it('returns deep-equal results for the same input twice', () => {
    const first = enrichBatch(transactions, snapshot, history);
    const second = enrichBatch(transactions, snapshot, history);
    expect(second).toEqual(first);
    expect(first).toHaveLength(transactions.length);
    // The batch exercises history: the third pizza-shop payment is recurring.
    expect(first[8]?.recurring).toBe(true);
  });

  it('does not mutate (deep-frozen) transactions or history', () => {
    const txCopy = structuredClone(transactions);
    const historyCopy = structuredClone(history);
    const frozenTx = deepFreeze(structuredClone(transactions));
    const frozenHistory = deepFreeze(structuredClone(history));
    const fromFrozen = enrichBatch(frozenTx, snapshot, frozenHistory);
    expect(fromFrozen).toEqual(enrichBatch(txCopy, snapshot, historyCopy));
    expect(frozenTx).toEqual(transactions);
    expect(frozenHistory).toEqual(history);
    // A frozen input really is frozen: a mutation would have thrown in strict-mode code.
    expect(() => {
      (frozenTx[0] as { amount: number }).amount = 1;
    }).toThrow(TypeError);
  });

  it('gives each transaction the same result alone as in a batch without shared history', () => {
    const batch = enrichBatch(transactions, snapshot);
    transactions.forEach((t, i) => {
      const sameCustomerEarlier = transactions.slice(0, i).some((o) => o.customer_id === t.customer_id);
      if (sameCustomerEarlier) return; // batch history may legitimately change `recurring`
      expect(enrichBatch([t], snapshot)[0]).toEqual(batch[i]);
    });
  });

  it('returns an empty array for an empty batch', () => {
    expect(enrichBatch([], snapshot)).toEqual([]);
  });
});
