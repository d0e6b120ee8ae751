// Usage errors of `tx-enrich corrections`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runCorrectionsCommand } from '../../../src/cli/corrections-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich corrections usage', () => {
  it.each([
    [
      ['list', '--limit', 'abc'],
      'tx-enrich corrections list: --limit must be a positive integer (at most 1000), got "abc"',
    ],
    [['list', '--status', 'maybe'], '--status must be applied, proposed or rejected, got "maybe"'],
    [['list', '--tenant', '*'], '--tenant must be 1-64 of A-Z a-z 0-9 . _ -, got "*"'],
    [['list', 'extra'], 'unexpected arguments: extra'],
    [['apply'], 'tx-enrich corrections apply: needs a file, a JSON text or -'],
    [[], 'tx-enrich corrections: needs a command'],
    [['undo'], 'unknown command "undo"'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runCorrectionsCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich corrections');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runCorrectionsCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich corrections/);
    expect(result.stderr).toBe('');
  });
});
