/**
 * Writes N sample transactions as JSON Lines: `tsx bench/make-sample.ts N [--bad-share P] > file`.
 */
import { loadReferenceData } from '../src/data/load.js';
import { generateSamples } from '../src/samples/generate.js';

const count = Number(process.argv[2] ?? 1000);
const badIndex = process.argv.indexOf('--bad-share');
const badShare = badIndex > 0 ? Number(process.argv[badIndex + 1]) : 0;
const data = loadReferenceData();
const lines: string[] = [];
for (const sample of generateSamples(data, count, { badShare })) {
  lines.push(JSON.stringify(sample.value));
  if (lines.length === 5000) {
    process.stdout.write(lines.join('\n') + '\n');
    lines.length = 0;
  }
}
if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
