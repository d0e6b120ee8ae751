// Usage errors of `tx-enrich store`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runStoreCommand } from '../../../src/cli/store-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich store usage', () => {
  it.each([
    [
      ['purge', '--older-than-days', '0'],
      'tx-enrich store purge: --older-than-days must be a positive integer (at most 36500), got "0"',
    ],
    [['purge', '--older-than-days', 'week'], '--older-than-days must be a positive integer'],
    [['migrate', '--older-than-days', '3'], 'unknown option --older-than-days'],
    [['status', 'now'], 'unexpected arguments: now'],
    [[], 'tx-enrich store: needs a command'],
    [['vacuum'], 'unknown command "vacuum"'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runStoreCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich store');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runStoreCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich store/);
    expect(result.stderr).toBe('');
  });
});
