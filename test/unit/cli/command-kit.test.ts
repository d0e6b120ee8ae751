import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../../support/capture-output.js';
import {
  checked,
  defineCommand,
  JSON_OPTION,
  option,
  positiveId,
  runCommand,
  runGroup,
  tenantId,
  UsageError,
  type CommandGroup,
} from '../../../src/cli/command-kit.js';

const capture = captureOutput;

afterEach(() => vi.restoreAllMocks());

const HELP = 'usage: demo-kit [options]\n';

/** A command that records what it was given. */
function recorder() {
  const seen: unknown[] = [];
  const command = defineCommand({
    help: HELP,
    options: {
      ...JSON_OPTION,
      limit: option.integer({ min: 1, max: 100 }, 25),
      count: option.integer({ min: 1 }),
      share: option.number({ min: 0, max: 1, rule: 'must be a number between 0 and 1' }, 0.5),
      rate: option.number({ min: 0, exclusive: true, rule: 'must be a positive number' }),
      format: option.choice(['avro', 'json'], 'json'),
      status: option.choice(['a', 'b', 'c']),
      tenant: option.tenant(),
      name: option.text(),
      input: option.text('-'),
      alias: option.list(),
      port: option.port(),
      verbose: option.flag('v'),
    },
    args: [{ name: 'text' }, { name: 'more', optional: true }],
    run: (context) => {
      seen.push({ values: context.values, args: context.args });
      return 0;
    },
  });
  return { command, seen };
}

describe('runCommand', () => {
  it('gives the command typed, defaulted values and its arguments', async () => {
    const { command, seen } = recorder();
    const result = await capture(() =>
      runCommand('demo-kit', command, [
        'hello',
        '--limit',
        '7',
        '--share=0.25',
        '--format',
        'avro',
        '--tenant',
        'acme.eu',
        '--alias',
        'x',
        '--alias',
        'y',
        '-v',
      ]),
    );
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(seen).toEqual([
      {
        values: {
          json: false,
          limit: 7,
          count: undefined,
          share: 0.25,
          rate: undefined,
          format: 'avro',
          status: undefined,
          tenant: 'acme.eu',
          name: undefined,
          input: '-',
          alias: ['x', 'y'],
          port: undefined,
          verbose: true,
        },
        args: ['hello'],
      },
    ]);
  });

  it('prints the help on stdout with status 0 for --help and -h, without running', async () => {
    const { command, seen } = recorder();
    for (const flag of ['--help', '-h']) {
      expect(await capture(() => runCommand('demo-kit', command, [flag, '--limit', 'x']))).toEqual({
        code: 0,
        stdout: HELP,
        stderr: '',
      });
    }
    expect(seen).toEqual([]);
  });

  it.each([
    [['t', '--limit', 'abc'], '--limit must be a positive integer (at most 100), got "abc"'],
    [['t', '--limit', '0'], '--limit must be a positive integer (at most 100), got "0"'],
    [['t', '--limit', '101'], '--limit must be a positive integer (at most 100), got "101"'],
    [['t', '--limit', '2.5'], '--limit must be a positive integer (at most 100), got "2.5"'],
    [['t', '--count', '-3'], 'ambiguous'],
    [['t', '--count=-3'], '--count must be a positive integer, got "-3"'],
    [['t', '--share', '1.5'], '--share must be a number between 0 and 1, got "1.5"'],
    [['t', '--rate', '0'], '--rate must be a positive number, got "0"'],
    [['t', '--rate', 'fast'], '--rate must be a positive number, got "fast"'],
    [['t', '--format', 'xml'], '--format must be avro or json, got "xml"'],
    [['t', '--status', 'd'], '--status must be a, b or c, got "d"'],
    [['t', '--tenant', '*'], '--tenant must be 1-64 of A-Z a-z 0-9 . _ -, got "*"'],
    [['t', '--tenant', 'a'.repeat(65)], '--tenant must be 1-64 of A-Z a-z 0-9 . _ -'],
    [['t', '--name', ''], '--name must not be empty'],
    [['t', '--port', '65536'], '--port must be an integer between 0 and 65535, got "65536"'],
    [['t', '--nope'], 'unknown option --nope'],
    [['t', '--limit'], "Option '--limit <value>' argument missing"],
    [[], 'needs text'],
    [['a', 'b', 'c'], 'unexpected arguments: c'],
  ])('%j is a usage error: status 2, the message naming the option, then the help', async (argv, message) => {
    const { command, seen } = recorder();
    const result = await capture(() => runCommand('demo-kit', command, argv));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.startsWith('demo-kit: ')).toBe(true);
    expect(result.stderr.endsWith(`\n\n${HELP}`)).toBe(true);
    expect(seen).toEqual([]);
  });

  it('turns a UsageError thrown by the command into status 2 with help; other errors propagate', async () => {
    const usage = defineCommand({
      help: HELP,
      options: {},
      run: () => {
        throw new UsageError('needs exactly one of --a or --b');
      },
    });
    const result = await capture(() => runCommand('demo-kit', usage, []));
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `demo-kit: needs exactly one of --a or --b\n\n${HELP}`,
    });
    const broken = defineCommand({
      help: HELP,
      options: {},
      run: () => {
        throw new Error('disk on fire');
      },
    });
    await expect(capture(() => runCommand('demo-kit', broken, []))).rejects.toThrow('disk on fire');
  });

  it('prints JSON with --json and text otherwise through out(); fail() names the command', async () => {
    const command = defineCommand({
      help: HELP,
      options: JSON_OPTION,
      run: (context) => {
        context.out({ a: 1 }, 'a is 1');
        return context.fail('no brand 7');
      },
    });
    expect(await capture(() => runCommand('demo-kit', command, ['--json']))).toEqual({
      code: 1,
      stdout: '{\n  "a": 1\n}\n',
      stderr: 'demo-kit: no brand 7\n',
    });
    expect((await capture(() => runCommand('demo-kit', command, []))).stdout).toBe('a is 1\n');
  });
});

describe('runGroup', () => {
  const ran: string[] = [];
  const group: CommandGroup = {
    name: 'demo-group',
    help: 'usage: demo-group <command>\n',
    commands: {
      search: defineCommand({
        help: '',
        options: { limit: option.integer({ min: 1 }, 25) },
        args: [{ name: 'text' }],
        run: ({ values, args }) => {
          ran.push(`search ${args.join(',')} ${values.limit}`);
          return 0;
        },
      }),
      show: defineCommand({
        help: 'usage: demo-group show <id>\n',
        options: {},
        args: [{ name: 'id', missing: 'needs a brand id' }],
        run: ({ args }) => {
          ran.push(`show ${positiveId('the brand id', args[0])}`);
          return 0;
        },
      }),
    },
  };

  it('dispatches on the first positional argument, options before or after it', async () => {
    ran.length = 0;
    expect((await capture(() => runGroup(group, ['search', 'x', '--limit', '3']))).code).toBe(0);
    expect((await capture(() => runGroup(group, ['--limit', '4', 'search', 'y']))).code).toBe(0);
    expect((await capture(() => runGroup(group, ['show', '12']))).code).toBe(0);
    // The sub-command's name is taken out by position, not by value.
    expect((await capture(() => runGroup(group, ['search', 'search']))).code).toBe(0);
    expect(ran).toEqual(['search x 3', 'search y 4', 'show 12', 'search search 25']);
  });

  it('prints the group help for --help, -h and help (status 0)', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      expect(await capture(() => runGroup(group, argv))).toEqual({
        code: 0,
        stdout: group.help,
        stderr: '',
      });
    }
    // A sub-command without help of its own shows the group's; one with its own shows that.
    expect((await capture(() => runGroup(group, ['search', '--help']))).stdout).toBe(group.help);
    expect((await capture(() => runGroup(group, ['show', '--help']))).stdout).toBe(
      'usage: demo-group show <id>\n',
    );
  });

  it.each([
    [[], 'demo-group: needs a command'],
    [['frobnicate'], 'demo-group: unknown command "frobnicate"'],
    [['toString'], 'demo-group: unknown command "toString"'],
    [['search', 'x', '--limit', 'abc'], 'demo-group search: --limit must be a positive integer, got "abc"'],
    [['show'], 'demo-group show: needs a brand id'],
    [['show', 'abc'], 'demo-group show: the brand id must be a positive integer, got "abc"'],
    [['show', '1', '--limit', '3'], 'demo-group show: unknown option --limit'],
  ])('%j is a usage error with status 2 and help', async (argv, message) => {
    const result = await capture(() => runGroup(group, argv));
    expect(result.code).toBe(2);
    expect(result.stderr.startsWith(`${message}\n\n`)).toBe(true);
    expect(result.stderr).toMatch(/usage: demo-group/);
  });
});

describe('checked values', () => {
  it('accepts valid tenant ids and ids, and names the value otherwise', () => {
    expect(tenantId('the tenant id', 'acme_1.eu-2')).toBe('acme_1.eu-2');
    expect(() => tenantId('the tenant id', '*')).toThrow(
      new UsageError('the tenant id must be 1-64 of A-Z a-z 0-9 . _ -, got "*"'),
    );
    expect(positiveId('the brand id', '42')).toBe(42);
    expect(() => positiveId('the brand id', '0')).toThrow(UsageError);
    expect(() => checked('--x', option.port().schema, 'http')).toThrow(/--x must be an integer/);
  });
});
