/**
 * test/unit/ mirrors src/ file for file: `test/unit/<path>.test.ts` (or `<path>-<aspect>.test.ts`)
 * tests `src/<path>.ts`. A source file without a unit test of its own is listed below with the tests
 * that cover it and why it has none (an adapter proven against the real services, types only, an
 * entry point run as a process); a unit test that mirrors nothing is listed with what it checks. The
 * lists only shrink: a new file comes with its test.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const INTEGRATION = 'test/integration';
const ADAPTER = 'an adapter around a real service: proven by integration tests against it';
const ENTRY = 'an entry point or wiring: run as a process by integration tests';

/** Source files without a mirror unit test: the tests that cover them instead, and why. */
const COVERED_ELSEWHERE: Record<string, { why: string; by: readonly string[] }> = {
  'src/api/auth.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-errors.test.ts`] },
  'src/api/errors.ts': { why: 'the envelope, used by every API test', by: ['test/unit/api/enrich.test.ts'] },
  'src/api/logos.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-logos.test.ts`] },
  'src/api/metrics.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-ops.test.ts`] },
  'src/api/openapi.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-ops.test.ts`] },
  'src/api/routes.ts': {
    why: ADAPTER,
    by: [`${INTEGRATION}/api-v2.test.ts`, `${INTEGRATION}/api-v3.test.ts`],
  },
  'src/api/schemas.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-v3.test.ts`] },
  'src/api/server.ts': {
    why: ADAPTER,
    by: [`${INTEGRATION}/api-ops.test.ts`, `${INTEGRATION}/api-errors.test.ts`],
  },
  'src/api/store-snapshot-provider.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-store.test.ts`] },
  'src/api/tenant-directory.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-v3.test.ts`] },
  'src/cli/main.ts': { why: ENTRY, by: [`${INTEGRATION}/api-cli.test.ts`] },
  'src/cli/progress.ts': { why: ENTRY, by: [`${INTEGRATION}/feedback-brands-update.test.ts`] },
  'src/config/rules.ts': {
    why: 'the rules of the settings: tested through them',
    by: ['test/unit/config.test.ts'],
  },
  'src/config/settings.ts': {
    why: 'the list of settings: tested through loadConfig',
    by: ['test/unit/config.test.ts'],
  },
  'src/data/load.ts': {
    why: 'reads the data files: tested with them',
    by: ['test/unit/data/reference-data.test.ts'],
  },
  'src/data/schemas.ts': {
    why: 'the data files’ schemas: tested with them',
    by: ['test/unit/data/reference-data.test.ts'],
  },
  'src/engine/types.ts': { why: 'types only', by: [] },
  'src/engine/version.ts': { why: 'a constant', by: [] },
  'src/feedback/brand-changes.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-e3-no-groups.test.ts`] },
  'src/feedback/consumer.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-replay.test.ts`] },
  'src/feedback/faults.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-nul-huge-values.test.ts`] },
  'src/feedback/headers.ts': { why: 'header names only', by: ['test/unit/feedback/dead-letter.test.ts'] },
  'src/feedback/kafka.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-replay.test.ts`] },
  'src/feedback/operator.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-m1-tenant-brands.test.ts`] },
  'src/feedback/outcome.ts': {
    why: 'types and the rejection value',
    by: ['test/unit/feedback/dead-letter.test.ts'],
  },
  'src/feedback/relay-set-aside.ts': {
    why: ADAPTER,
    by: [`${INTEGRATION}/feedback-h4-outbox-never-jams.test.ts`],
  },
  'src/feedback/relay.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-crash-relay.test.ts`] },
  'src/feedback/services.ts': { why: ENTRY, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/feedback/steps/result.ts': {
    why: 'the steps’ result type',
    by: ['test/unit/feedback/steps/check.test.ts'],
  },
  'src/kafka/kafkajs.ts': { why: ADAPTER, by: ['test/unit/kafka/send-messages.test.ts'] },
  'src/kafka/topics.ts': { why: ADAPTER, by: [`${INTEGRATION}/worker-h3-near-limit-values.test.ts`] },
  'src/kafka/transactional-sink.ts': {
    why: ADAPTER,
    by: [`${INTEGRATION}/worker-exactly-once-kill.test.ts`, `${INTEGRATION}/kafka-transactions.test.ts`],
  },
  'src/observability/health-server.ts': {
    why: ADAPTER,
    by: [`${INTEGRATION}/worker-h2-nul-and-oversized-ids.test.ts`],
  },
  'src/observability/logger.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-logging.test.ts`] },
  'src/pipeline/batch-runner.ts': { why: ADAPTER, by: [`${INTEGRATION}/worker-registry-outage.test.ts`] },
  'src/pipeline/consumer.ts': { why: ADAPTER, by: [`${INTEGRATION}/worker-rebalance.test.ts`] },
  'src/pipeline/metrics.ts': { why: 'metric definitions', by: ['test/unit/pipeline/stall-watchdog.test.ts'] },
  'src/pipeline/setup.ts': { why: ADAPTER, by: [`${INTEGRATION}/worker-enriches.test.ts`] },
  'src/pipeline/worker.ts': {
    why: ENTRY,
    by: [`${INTEGRATION}/worker-graceful-shutdown.test.ts`, `${INTEGRATION}/worker-e2-prompt-exit.test.ts`],
  },
  'src/samples/generate.ts': {
    why: 'test data for the demo and the benchmarks',
    by: ['test/unit/engine/enrich-steps.test.ts'],
  },
  'src/store/brands.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/catalog.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/change-store.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/corrections.ts': { why: ADAPTER, by: [`${INTEGRATION}/feedback-m3-correction-ids.test.ts`] },
  'src/store/db.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/index-store.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/mappings.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/migrations.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/outbox.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
  'src/store/store-snapshot.ts': { why: ADAPTER, by: [`${INTEGRATION}/api-store.test.ts`] },
  'src/store/store.ts': { why: ADAPTER, by: [`${INTEGRATION}/store-contract.test.ts`] },
};

/** Unit tests that mirror no single source file, and what they check. */
const CROSS_CUTTING: Record<string, string> = {
  'test/unit/architecture.test.ts': 'who may import whom, no cycles',
  'test/unit/test-layout.test.ts': 'this mirror',
  'test/unit/docker-compose.test.ts': 'docker-compose.yml agrees with the config',
  'test/unit/engine/purity.test.ts': 'the engine does no I/O, reads no clock, keeps no globals',
  'test/unit/data/alias-safety.test.ts': 'data/brands: no alias swallows ordinary text',
  'test/unit/data/corpus-words.test.ts': 'data/corpus-words.json',
  'test/unit/data/osm-tags.test.ts': 'data/osm-tags.json',
  'test/unit/data/person-names.test.ts': 'data/person-names.json',
  'test/unit/data/reference-data.test.ts': 'every data file against its schema',
};

function filesUnder(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path, suffix));
    else if (name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

/**
 * The source a unit test mirrors: its path under src/ (or scripts/, bench/, test/support/), the
 * `-aspect` suffix cut.
 */
function mirroredSource(test: string): string | null {
  const rel = relative('test/unit', test).replace(/\.test\.ts$/, '');
  // Tests of the scripts, the benchmarks and the test support mirror those trees the same way.
  const roots = /^(scripts|bench)\//.test(rel) ? [''] : rel.startsWith('support/') ? ['test/'] : ['src/'];
  for (const root of roots) {
    let candidate = rel;
    for (;;) {
      if (existsSync(join(ROOT, `${root}${candidate}.ts`))) return `${root}${candidate}.ts`;
      const cut = candidate.lastIndexOf('-');
      if (cut <= candidate.lastIndexOf('/')) break;
      candidate = candidate.slice(0, cut);
    }
  }
  return null;
}

const sources = filesUnder('src', '.ts');
const tests = filesUnder('test/unit', '.test.ts');
const mirrored = new Set(tests.map(mirroredSource).filter((s): s is string => s !== null));

describe('test/unit mirrors src', () => {
  it('every unit test mirrors a source file, or is listed as cross-cutting', () => {
    const strays = tests.filter((t) => mirroredSource(t) === null && !(t in CROSS_CUTTING));
    expect(strays).toEqual([]);
  });

  it('every source file has its unit test, or names the tests that cover it', () => {
    const untested = sources.filter((s) => !mirrored.has(s) && !(s in COVERED_ELSEWHERE));
    expect(untested).toEqual([]);
  });

  it('the lists hold no stale entries: listed files exist, have no mirror yet, and their tests exist', () => {
    const stale = Object.keys(COVERED_ELSEWHERE).filter((s) => !sources.includes(s) || mirrored.has(s));
    expect(stale).toEqual([]);
    const missing = Object.values(COVERED_ELSEWHERE)
      .flatMap((c) => c.by)
      .filter((t) => !existsSync(join(ROOT, t)));
    expect(missing).toEqual([]);
    const gone = Object.keys(CROSS_CUTTING).filter((t) => !tests.includes(t));
    expect(gone).toEqual([]);
  });
});
