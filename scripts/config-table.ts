/**
 * Prints the configuration table (Markdown) generated from src/config.ts. With --write, replaces the
 * table between the markers in README.md:
 *   <!-- config-table:start --> ... <!-- config-table:end -->
 * test/unit/config.test.ts fails when README.md's table is out of date.
 *
 *   npm run config:table            # rewrites README.md
 *   npx tsx scripts/config-table.ts # prints only
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configTableMarkdown } from '../src/config.js';

export const START = '<!-- config-table:start -->';
export const END = '<!-- config-table:end -->';

const table = configTableMarkdown();
if (process.argv.includes('--write')) {
  const readme = join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) {
    process.stderr.write(`README.md has no ${START} ... ${END} markers\n`);
    process.exit(1);
  }
  writeFileSync(readme, `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`);
  process.stdout.write('README.md configuration table updated\n');
} else {
  process.stdout.write(`${table}\n`);
}
