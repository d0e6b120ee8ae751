/**
 * The folders are the layers, and this holds them: the engine depends on nothing but itself and the
 * data it is given; the Kafka and schema-registry adapters know nothing of the pipeline, feedback,
 * store, API or CLI; nothing outside the pipeline reaches into it but the CLI that runs it; and no
 * module imports itself back through others (no cycles).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module of src/ with the src/ modules it imports (type-only imports included). */
const graph = new Map<string, string[]>();
for (const file of sources(SRC)) {
  const text = readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/(?:import|export)[^'";]*?from\s+'(\.[^']+)'|import\s+'(\.[^']+)'/g)]
    .map((m) => (m[1] ?? m[2]) as string)
    .map((spec) => relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))));
  graph.set(relative(SRC, file), imports);
}

const layer = (module: string) => module.split('/')[0] as string;

function violations(from: string, allowed: (target: string) => boolean): string[] {
  return [...graph]
    .filter(([module]) => layer(module) === from)
    .flatMap(([module, imports]) => imports.filter((t) => !allowed(t)).map((t) => `${module} → ${t}`));
}

describe('architecture', () => {
  it('reads the import graph of src/', () => {
    expect(graph.size).toBeGreaterThan(60);
    expect(graph.get('pipeline/worker.ts')).toContain('pipeline/steps.ts');
  });

  it('src/engine imports nothing outside itself and src/data (and the contract it enriches)', () => {
    expect(
      violations('engine', (t) => ['engine', 'data'].includes(layer(t)) || t === 'contract/transaction.ts'),
    ).toEqual([]);
  });

  it('src/kafka and src/schema-registry import nothing from pipeline, feedback, store, api or cli', () => {
    const forbidden = new Set(['pipeline', 'feedback', 'store', 'api', 'cli']);
    expect(violations('kafka', (t) => !forbidden.has(layer(t)))).toEqual([]);
    expect(violations('schema-registry', (t) => !forbidden.has(layer(t)))).toEqual([]);
  });

  it('nothing outside src/pipeline imports it, but the CLI that runs the worker', () => {
    const outside = [...graph]
      .filter(([module]) => !['pipeline', 'cli'].includes(layer(module)))
      .flatMap(([module, imports]) =>
        imports.filter((t) => layer(t) === 'pipeline').map((t) => `${module} → ${t}`),
      );
    expect(outside).toEqual([]);
  });

  it('has no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (module: string): void => {
      if (state.get(module) === 'done') return;
      if (state.get(module) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(module)), module].join(' → '));
        return;
      }
      state.set(module, 'visiting');
      stack.push(module);
      for (const next of graph.get(module) ?? []) if (graph.has(next)) visit(next);
      stack.pop();
      state.set(module, 'done');
    };
    for (const module of graph.keys()) visit(module);
    expect(cycles).toEqual([]);
  });
});
