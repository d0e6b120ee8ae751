// Usage errors of `tx-enrich tail`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runTailCommand } from '../../../src/cli/tail-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich tail usage', () => {
  it.each([
    [[], 'tx-enrich tail: needs the topic to read'],
    [['a', 'b'], 'unexpected arguments: b'],
    [['t', '--count', '0'], '--count must be a positive integer, got "0"'],
    [['t', '--timeout', 'soon'], '--timeout must be a positive number of seconds, got "soon"'],
    [['t', '--follow'], 'unknown option --follow'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runTailCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich tail');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runTailCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich tail/);
    expect(result.stderr).toBe('');
  });
});
