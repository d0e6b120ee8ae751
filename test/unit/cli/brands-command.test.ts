// Usage errors of `tx-enrich brands`: found before any store, broker or network is touched; status 2
// with the message naming the option or argument, then the help, on stderr.
import { describe, expect, it } from 'vitest';
import { runBrandsCommand } from '../../../src/cli/brands-command.js';
import { captureOutput } from '../../support/capture-output.js';

describe('tx-enrich brands usage', () => {
  it.each([
    [
      ['search', 'x', '--limit', 'abc'],
      'tx-enrich brands search: --limit must be a positive integer (at most 1000), got "abc"',
    ],
    [['search', 'x', '--limit', '0'], '--limit must be a positive integer'],
    [['search'], 'tx-enrich brands search: needs the text to search for'],
    [['show'], 'tx-enrich brands show: needs a brand id'],
    [['show', 'abc'], 'tx-enrich brands show: the brand id must be a positive integer, got "abc"'],
    [['promote', '-1'], 'unknown option -1'],
    [['add', '--name', 'Acme'], 'tx-enrich brands add: needs --name and --sub-category'],
    [
      ['add', '--name', 'Acme', '--sub-category', '4-3', '--website', 'acme.com'],
      '--website must be an http(s) URL',
    ],
    [['update', '7'], 'tx-enrich brands update: nothing to change'],
    [['update', '7', '--mcc', '5814'], 'unknown option --mcc'],
    [['search', 'x', '--nope'], 'unknown option --nope'],
    [[], 'tx-enrich brands: needs a command'],
    [['frobnicate'], 'tx-enrich brands: unknown command "frobnicate"'],
  ] as [string[], string][])('%j → status 2: %s', async (argv, message) => {
    const result = await captureOutput(() => runBrandsCommand(argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: tx-enrich brands');
  });

  it('prints its help on stdout with status 0 for --help', async () => {
    const result = await captureOutput(() => runBrandsCommand(['--help']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: tx-enrich brands/);
    expect(result.stderr).toBe('');
  });
});
