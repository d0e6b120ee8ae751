// Usage errors of `tx-enrich worker`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runWorkerCommand } from '../../../src/cli/worker-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich worker usage', () => {
  it.each([
    [['--threads', '4'], 'tx-enrich worker: unknown option --threads'],
    [['now'], 'unexpected arguments: now'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runWorkerCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich worker');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runWorkerCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich worker/);
    expect(result.stderr).toBe('');
  });
});
