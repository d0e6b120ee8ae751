// Usage errors of `tx-enrich produce`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runProduceCommand } from '../../../src/cli/produce-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich produce usage', () => {
  it.each([
    [[], 'tx-enrich produce: --count is required'],
    [['--count', 'lots'], '--count must be a positive integer, got "lots"'],
    [['--count', '5', '--rate', '0'], '--rate must be a positive number, got "0"'],
    [['--count', '5', '--bad-share', '2'], '--bad-share must be a number between 0 and 1, got "2"'],
    [['--count', '5', '--format', 'xml'], '--format must be avro, json or mixed, got "xml"'],
    [['--count', '5', '--seed', 'x'], '--seed must be an integer between'],
    [['--count', '5', '--tenant', '*'], '--tenant must be 1-64 of A-Z a-z 0-9 . _ -, got "*"'],
    [['--count', '5', '--partitions', '0'], '--partitions must be a positive integer'],
    [['--count', '5', 'extra'], 'unexpected arguments: extra'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runProduceCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich produce');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runProduceCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich produce/);
    expect(result.stderr).toBe('');
  });
});
