/**
 * The catalog is the one list of failure codes: every code is used somewhere in src/, and every
 * error class src/ defines either maps to a code (classifyError) or is named below with why it never
 * reaches a failure policy.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../../src/errors/catalog.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

/**
 * Error classes that carry no catalog code, and why: they end a command or a start-up with their own
 * message and exit status, or they are caught where they are thrown.
 */
const OUTSIDE_THE_POLICY: Record<string, string> = {
  ConfigError: 'a bad environment stops start-up with exit status 78',
  DataFileError: 'a bad reference data file stops start-up',
  TenantsFileError: 'a bad tenants file stops start-up or the tenants command',
  TenantsEditError: 'the tenants command prints it and exits non-zero',
  UsageError: 'a CLI usage error: help and exit status 2',
  ApiError: 'an HTTP answer with the API’s own codes (src/api/errors.ts)',
  AvroBoundsError: 'caught in the registry codec and returned as AVRO_DECODE_FAILED',
  StoreInUseError: 'the embedded store is held by another process: start-up stops',
  Rejection:
    'a change’s data error thrown to roll its transaction back; the use case returns it as the outcome',
  StopWorker: 'carries PROCESSING_FAILED: the worker stops on a bug by configuration',
  CommonsUnreachable: '`tx-enrich logos mirror` prints it and exits 1 (offline, or Commons unreachable)',
};

describe('the error catalog', () => {
  it('has no code that src/ never uses', () => {
    const catalog = files.find((f) => f.path === join('errors', 'catalog.ts'));
    const others = files.filter((f) => f !== catalog);
    const unused = Object.keys(ERROR_CATALOG).filter(
      (code) => !others.some((f) => f.text.includes(`'${code}'`)),
    );
    expect(unused).toEqual([]);
  });

  it('knows every error class src/ defines (a code, or a reason it needs none)', () => {
    const classes = files.flatMap((f) =>
      [...f.text.matchAll(/class (\w+) extends Error\b/g)].map((m) => ({
        name: m[1] as string,
        file: f.path,
      })),
    );
    expect(classes.length).toBeGreaterThan(3);
    const withCode = new Set(['InfrastructureError', 'DataRejectedError']);
    const unknown = classes.filter((c) => !withCode.has(c.name) && !(c.name in OUTSIDE_THE_POLICY));
    expect(unknown).toEqual([]);
  });
});
