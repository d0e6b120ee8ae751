#!/usr/bin/env -S node --no-allocation-site-pretenuring
// Runs the compiled CLI when it exists (production image), else the TypeScript sources through tsx.
//
// --no-allocation-site-pretenuring (in the line above, in npm's scripts and in the image's command):
// the worker, the API and the offline CLI enrich in batches whose results stay alive until the batch
// ends. V8 sometimes takes that for long-lived data and from then on allocates every result in the
// old generation: the engine ran 2-3x slower in about one process in five (docs/performance.md). It
// is a flag for node's command line: NODE_OPTIONS refuses it, and setting it after start is
// undefined behaviour.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'cli', 'main.js');
if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
}
