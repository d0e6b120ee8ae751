import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEnrichCommand } from '../../../src/cli/enrich-command.js';
import { globalTransactionId } from '../../../src/engine/records.js';
import { captureOutput } from '../../support/capture-output.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'tx-enrich.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/tx-enrich.js ...args` from the project root with a clean environment. */
function run(args: readonly string[], stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      // Only what node needs: no service settings leak in from the test environment.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function lines(output: string): Record<string, unknown>[] {
  expect(output.endsWith('\n')).toBe(true);
  return output
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function item(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    raw_description: 'POS PURCHASE',
    amount: 25,
    transaction_id: 'tx',
    customer_id: 'cust-1',
    account_id: 'acc-1',
    card_id: '',
    merchant_name: '',
    merchant_id: '',
    mcc: '',
    direction: 'DEBIT',
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2024-03-12T10:00:00Z',
    location: { iso_country_cd: 'AE' },
    ...overrides,
  };
}

const GOOD_1 = item({
  transaction_id: 'tx-1',
  raw_description: 'CARREFOUR CITY CENTRE DEIRA',
  ref_id: 'ref-1',
});
const GOOD_2 = item({ transaction_id: 'tx-2', raw_description: 'NETFLIX.COM' });
const GOOD_3 = item({
  transaction_id: 'tx-3',
  raw_description: 'Purchase of AED 45.00 with Card ending 1234\nat TALABAT, DUBAI\non 12/03/2024',
});
const TRANSFER = item({ transaction_id: 'tx-4', raw_description: 'TRANSFER TO JOHN', is_transfer: true });
const MISSING_AMOUNT = (() => {
  const x = item({ transaction_id: 'tx-bad' });
  delete x.amount;
  return x;
})();

// Line numbers (1-based) of the mixed file: good, bad JSON, good, invalid record, empty line,
// non-object, good, good.
const MIXED = [
  JSON.stringify(GOOD_1),
  '{"raw_description": "CARREFOUR",',
  JSON.stringify(GOOD_2),
  JSON.stringify(MISSING_AMOUNT),
  '',
  '[1, 2, 3]',
  JSON.stringify(GOOD_3),
  JSON.stringify(TRANSFER),
];
const VALID_ONLY = [GOOD_1, GOOD_2, GOOD_3, TRANSFER].map((x) => JSON.stringify(x));

let dir: string;
let mixedFile: string;
let validFile: string;
const results: Record<string, Run> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tx-enrich-cli-'));
  mixedFile = join(dir, 'mixed.jsonl');
  validFile = join(dir, 'valid.jsonl');
  writeFileSync(mixedFile, MIXED.join('\n') + '\n');
  writeFileSync(validFile, VALID_ONLY.join('\n') + '\n');
  const outputFile = join(dir, 'out.jsonl');
  const runs: Record<string, Promise<Run>> = {
    v3: run(['enrich', '--input', mixedFile, '--batch', '3']),
    v2: run(['enrich', '--input', mixedFile, '--format', 'v2', '--tenant', 'acme']),
    v2Plain: run([
      'enrich',
      '--input',
      validFile,
      '--format',
      'v2',
      '--no-arabic',
      '--return-transaction-id',
    ]),
    explain: run(['enrich', '--input', validFile, '--explain']),
    strictInvalid: run(['enrich', '--input', mixedFile, '--strict']),
    strictValid: run(['enrich', '--input', validFile, '--strict']),
    stdin: run(['enrich'], VALID_ONLY.join('\n') + '\n'),
    toFile: run(['enrich', '--input', validFile, '--output', outputFile]),
    badFormat: run(['enrich', '--input', validFile, '--format', 'v4']),
  };
  for (const [name, p] of Object.entries(runs)) results[name] = await p;
  results.toFile = { ...(results.toFile as Run), stdout: readFileSync(outputFile, 'utf8') };
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function result(name: string): Run {
  const r = results[name];
  if (!r) throw new Error(`no run ${name}`);
  return r;
}

describe('tx-enrich enrich', () => {
  it('writes exactly one output line per input line, in input order', () => {
    const r = result('v3');
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(MIXED.length);
    // Valid lines echo their ref_id (else transaction_id) in the order they came in.
    expect(out.map((o) => ('error' in o ? 'error' : o.ref_id))).toEqual([
      'ref-1',
      'error',
      'tx-2',
      'error',
      'error',
      'error',
      'tx-3',
      'tx-4',
    ]);
  });

  it('enriches valid lines into v3 records', () => {
    const out = lines(result('v3').stdout);
    expect(out[0]).toMatchObject({
      brand_name: 'Carrefour',
      brand_logo: expect.stringMatching(/^\/logos\/\d+\?v=[0-9a-f]{8}$/),
      category_id: '6',
      sub_category_id: '6-1',
      recurring: false,
      ref_id: 'ref-1',
    });
    expect(typeof out[0]?.brand_id).toBe('number');
    expect(out[0]?.brand_logo).toMatch(new RegExp(`^/logos/${String(out[0]?.brand_id)}\\?`));
    expect(Object.keys(out[0] ?? {})).toHaveLength(13);
    expect(out[2]).toMatchObject({ brand_name: 'Netflix', recurring: true });
    expect(out[6]).toMatchObject({ brand_name: 'Talabat', sub_category_id: '4-2' });
    expect(out[7]).toMatchObject({ brand_id: null, brand_name: null, sub_category_id: '15-2' });
    expect('_explain' in (out[0] ?? {})).toBe(false);
  });

  it('replaces each bad line with {"error":{"line","field","message"}}', () => {
    const out = lines(result('v3').stdout);
    const badJson = out[1]?.error as Record<string, unknown>;
    expect(badJson).toMatchObject({ line: 2, field: '' });
    expect(badJson.message).toMatch(/not valid JSON/);
    expect(out[3]).toEqual({ error: { line: 4, field: 'amount', message: 'is required' } });
    expect(out[4]?.error).toMatchObject({ line: 5, field: '' });
    expect(out[5]?.error).toMatchObject({
      line: 6,
      field: '',
      message: expect.stringMatching(/JSON object/),
    });
    expect(result('v3').stderr).toMatch(/4 of 8 lines were invalid/);
  });

  it('--format v2 writes v2 records with a tenant-scoped global_tx_id and Arabic fields', () => {
    const r = result('v2');
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(MIXED.length);
    expect(out[0]).toMatchObject({
      ref_id: 'ref-1',
      global_tx_id: globalTransactionId('acme', 'tx-1'),
      brand_name: 'Carrefour',
      brand_logo: 'brands/carrefour.png',
      sub_category_id: '6-1',
    });
    expect(out[0]?.brand_name_ar).toBe('كارفور');
    expect(out[0]?.category_name_ar).toMatch(/[\u0600-\u06ff]/);
    expect('brand_id' in (out[0] ?? {})).toBe(false);
    expect('recurring' in (out[0] ?? {})).toBe(false);
    expect(out[3]).toEqual({ error: { line: 4, field: 'amount', message: 'is required' } });
  });

  it('--no-arabic and --return-transaction-id shape v2 records', () => {
    const out = lines(result('v2Plain').stdout);
    expect(out).toHaveLength(VALID_ONLY.length);
    expect(out[0]?.transaction_id).toBe('tx-1');
    expect('ref_id' in (out[0] ?? {})).toBe(false);
    for (const o of out) {
      expect(Object.keys(o).some((k) => k.endsWith('_ar'))).toBe(false);
    }
  });

  it('--explain adds _explain with confidence, reasons and versions', () => {
    const r = result('explain');
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(VALID_ONLY.length);
    for (const o of out) {
      const explain = o._explain as Record<string, unknown>;
      expect(explain).toBeDefined();
      expect(typeof explain.confidence).toBe('number');
      expect(explain.confidence as number).toBeGreaterThanOrEqual(0);
      expect(explain.confidence as number).toBeLessThanOrEqual(1);
      expect(explain.reasons).toMatchObject({
        brand: expect.any(String),
        category: expect.any(String),
        recurring: expect.any(String),
      });
      expect(explain.catalog_version).toEqual(expect.any(String));
      expect(explain.engine_version).toEqual(expect.any(String));
    }
    expect((out[0]?._explain as Record<string, unknown>).reasons).toMatchObject({
      category: 'brand:carrefour',
    });
    expect((out[3]?._explain as Record<string, unknown>).rule).toBe('transfer');
  });

  it('--strict exits 1 when a line is invalid, 0 when all are valid', () => {
    const invalid = result('strictInvalid');
    expect(invalid.code).toBe(1);
    expect(lines(invalid.stdout)).toHaveLength(MIXED.length);
    const valid = result('strictValid');
    expect(valid.code, valid.stderr).toBe(0);
    expect(lines(valid.stdout)).toHaveLength(VALID_ONLY.length);
    expect(valid.stderr).toBe('');
  });

  it('reads standard input and writes an --output file just like files and stdout', () => {
    const fromFile = lines(result('strictValid').stdout);
    const stdin = result('stdin');
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(lines(stdin.stdout)).toEqual(fromFile);
    const toFile = result('toFile');
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(lines(toFile.stdout)).toEqual(fromFile);
  });

  it('an unknown --format exits 2 with a message and writes nothing', () => {
    const r = result('badFormat');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--format must be v3 or v2, got "v4"/);
    expect(r.stdout).toBe('');
  });
});

// Usage errors: status 2, the message naming the option, then the help, before any file is read.
describe('tx-enrich enrich usage', () => {
  it.each([
    [['--format', 'v4'], 'tx-enrich enrich: --format must be v3 or v2, got "v4"'],
    [['--batch', '0'], '--batch must be a positive integer (at most 1000000), got "0"'],
    [['--tenant', 'a b'], '--tenant must be 1-64 of A-Z a-z 0-9 . _ -, got "a b"'],
    [['--input', ''], '--input must not be empty'],
    [['file.jsonl'], 'unexpected arguments: file.jsonl'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runEnrichCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich enrich');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runEnrichCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich enrich/);
    expect(result.stderr).toBe('');
  });
});
