// Usage errors of `tx-enrich demo`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runDemoCommand } from '../../../src/cli/demo-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich demo usage', () => {
  it.each([
    [['--rate', 'fast'], 'tx-enrich demo: --rate must be a positive number, got "fast"'],
    [['--count', '0'], '--count must be a positive integer, got "0"'],
    [['--bad-share', '1.5'], '--bad-share must be a number between 0 and 1, got "1.5"'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runDemoCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich demo');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runDemoCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich demo/);
    expect(result.stderr).toBe('');
  });
});
