// Usage errors of `tx-enrich api`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runApiCommand } from '../../../src/cli/api-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich api usage', () => {
  it.each([
    [['--port', '99999'], 'tx-enrich api: --port must be an integer between 0 and 65535, got "99999"'],
    [['--ops-port', 'x'], '--ops-port must be an integer between 0 and 65535, got "x"'],
    [['--host', 'http://0.0.0.0'], '--host must be an IP address or a host name, got "http://0.0.0.0"'],
    [['--metrics'], 'unknown option --metrics'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runApiCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich api');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runApiCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich api/);
    expect(result.stderr).toBe('');
  });
});
