/**
 * What every `tx-enrich` command shares, so none hand-writes it: options parsed with node:util's
 * parseArgs and validated with zod (a bad number, range or choice is a usage error naming the
 * option), positional arguments counted, sub-command tables, `--help`, `--json` output and the
 * operator's store session. Exit statuses are the same everywhere: 0 done, 1 failed, 2 usage error
 * (the message, then the command's help, on stderr), and `--help` prints the help on stdout with 0.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { tenantIdSchema } from '../contract/tenant.js';
import type { OperatorSession } from '../feedback/operator.js';

/** A mistake in how a command was called: exit status 2, with the command's help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** One option: how parseArgs reads it, and the zod schema its raw value (undefined when absent) must pass. */
export interface OptionDef<T> {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  readonly schema: z.ZodType<T>;
}

export type OptionDefs = Readonly<Record<string, OptionDef<unknown>>>;

export type OptionValues<O extends OptionDefs> = {
  readonly [K in keyof O]: O[K] extends OptionDef<infer T> ? T : never;
};

/** A positional argument: its name in messages, and whether it may be left out. */
export interface ArgDef {
  readonly name: string;
  readonly optional?: boolean;
  /** The usage error when it is missing (default "needs <name>"). */
  readonly missing?: string;
}

export interface CommandContext<V> {
  readonly values: V;
  readonly args: readonly string[];
  /** "tx-enrich brands search": how messages name the command. */
  readonly name: string;
  /** Prints `json` (pretty) when --json was given, else `text`; a line each. */
  out(json: unknown, text: string): void;
  /** Prints "<name>: <message>" on stderr and returns `status` (1 unless given). */
  fail(message: string, status?: number): number;
}

export interface Command<O extends OptionDefs = OptionDefs> {
  readonly help: string;
  readonly options: O;
  readonly args?: readonly ArgDef[];
  // Method syntax: a command of any option shape fits a table of commands.
  run(context: CommandContext<OptionValues<O>>): Promise<number> | number;
}

/** Infers a command's option values from its options. */
export function defineCommand<O extends OptionDefs>(command: Command<O>): Command<O> {
  return command;
}

export interface CommandGroup {
  /** "tx-enrich brands". */
  readonly name: string;
  /** Shown for `--help`, a missing or unknown sub-command, and a sub-command's usage error. */
  readonly help: string;
  readonly commands: Readonly<Record<string, Command>>;
}

// ---------------------------------------------------------------------------------------------------
// Option builders. Each rule is phrased to follow the option's name: "--limit must be ...".

function flag(short?: string): OptionDef<boolean> {
  return { type: 'boolean', ...(short ? { short } : {}), schema: z.boolean().optional().transform(Boolean) };
}

function text(): OptionDef<string | undefined>;
function text(fallback: string): OptionDef<string>;
function text(fallback?: string): OptionDef<string | undefined> {
  return {
    type: 'string',
    schema: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .transform((v) => v ?? fallback),
  };
}

function list(): OptionDef<string[]> {
  return {
    type: 'string',
    multiple: true,
    schema: z
      .array(z.string().min(1, 'must not be empty'))
      .optional()
      .transform((v) => v ?? []),
  };
}

interface Range {
  readonly min: number;
  readonly max?: number;
}

function integerRule({ min, max }: Range): string {
  if (min === 1) return `must be a positive integer${max === undefined ? '' : ` (at most ${max})`}`;
  if (max === undefined) return `must be an integer of at least ${min}`;
  return `must be an integer between ${min} and ${max}`;
}

function integerSchema(range: Range): z.ZodType<number> {
  const rule = integerRule(range);
  return z
    .string()
    .regex(/^[+-]?\d+$/, rule)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(range.min, rule)
        .max(range.max ?? Number.MAX_SAFE_INTEGER, rule),
    );
}

function integer(range: Range): OptionDef<number | undefined>;
function integer(range: Range, fallback: number): OptionDef<number>;
function integer(range: Range, fallback?: number): OptionDef<number | undefined> {
  return {
    type: 'string',
    schema: integerSchema(range)
      .optional()
      .transform((v) => v ?? fallback),
  };
}

interface NumberRange {
  /** Smallest allowed value, or the bound it must exceed when `exclusive`. */
  readonly min: number;
  readonly exclusive?: boolean;
  readonly max?: number;
  readonly rule: string;
}

function numberSchema(range: NumberRange): z.ZodType<number> {
  return z
    .string()
    .regex(/^[+-]?(?:\d+\.?\d*|\.\d+)$/, range.rule)
    .transform(Number)
    .refine(
      (n) =>
        (range.exclusive ? n > range.min : n >= range.min) && (range.max === undefined || n <= range.max),
      range.rule,
    );
}

function number(range: NumberRange): OptionDef<number | undefined>;
function number(range: NumberRange, fallback: number): OptionDef<number>;
function number(range: NumberRange, fallback?: number): OptionDef<number | undefined> {
  return {
    type: 'string',
    schema: numberSchema(range)
      .optional()
      .transform((v) => v ?? fallback),
  };
}

function choice<const C extends readonly [string, ...string[]]>(choices: C): OptionDef<C[number] | undefined>;
function choice<const C extends readonly [string, ...string[]]>(
  choices: C,
  fallback: C[number],
): OptionDef<C[number]>;
function choice<const C extends readonly [string, ...string[]]>(
  choices: C,
  fallback?: C[number],
): OptionDef<C[number] | undefined> {
  const rule = `must be ${choices.slice(0, -1).join(', ')}${choices.length > 1 ? ' or ' : ''}${choices.at(-1)}`;
  return {
    type: 'string',
    schema: z
      .enum(choices, { error: rule })
      .optional()
      .transform((v) => v ?? fallback),
  };
}

/** A tenant id, by the one tenant rule (src/contract/tenant.ts). */
function tenant(): OptionDef<string | undefined> {
  return { type: 'string', schema: tenantIdSchema.optional() };
}

/** A value checked by a schema of its own (one shared with the configuration, say). */
function checkedText<T>(schema: z.ZodType<T, string>): OptionDef<T | undefined> {
  return { type: 'string', schema: schema.optional() };
}

/** A port, 0 (any free port) to 65535. */
function port(): OptionDef<number | undefined> {
  return integer({ min: 0, max: 65535 });
}

export const option = { flag, text, list, integer, number, choice, tenant, port, checkedText };

/** The `--json` flag, for commands that print JSON on request. */
export const JSON_OPTION = { json: flag() } as const;

// ---------------------------------------------------------------------------------------------------
// Values checked outside option parsing (positional arguments, values read from elsewhere).

/** `raw` checked by `schema`; a failure is a usage error "<label> <rule>, got "<raw>"". */
export function checked<T>(label: string, schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const rule = result.error.issues[0]?.message ?? 'is invalid';
  const shown = typeof raw === 'string' ? `, got ${JSON.stringify(raw.slice(0, 80))}` : '';
  throw new UsageError(`${label} ${rule}${shown}`);
}

/** A positive integer id given as a positional argument. */
export function positiveId(label: string, raw: string | undefined): number {
  return checked(label, integerSchema({ min: 1 }), raw);
}

/** A tenant id given on the command line, by the one tenant rule. */
export function tenantId(label: string, raw: string | undefined): string {
  return checked(label, tenantIdSchema, raw);
}

// ---------------------------------------------------------------------------------------------------
// Running.

function write(stream: NodeJS.WriteStream, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** JSON on stdout, pretty unless `compact`. */
export function printJson(value: unknown, options: { compact?: boolean } = {}): void {
  process.stdout.write(`${options.compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
}

function usage(name: string, help: string, message: string): number {
  write(process.stderr, `${name}: ${message}\n\n${help}`);
  return 2;
}

/** parseArgs' message, shortened where it explains more than the caller needs. */
function parseProblem(error: Error): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  return unknown ? `unknown option ${unknown[1]}` : error.message;
}

function parseOptions(options: OptionDefs, argv: readonly string[]) {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [key, def] of Object.entries(options)) {
    config[key] = {
      type: def.type,
      ...(def.multiple ? { multiple: true } : {}),
      ...(def.short ? { short: def.short } : {}),
    };
  }
  config.help = { type: 'boolean', short: 'h' };
  return parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: true });
}

function validateOptions<O extends OptionDefs>(options: O, raw: Record<string, unknown>): OptionValues<O> {
  const values: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(options)) values[key] = checked(`--${key}`, def.schema, raw[key]);
  return values as OptionValues<O>;
}

function checkArgs(defs: readonly ArgDef[], args: readonly string[]): void {
  for (const [i, def] of defs.entries()) {
    if (args[i] === undefined && !def.optional) throw new UsageError(def.missing ?? `needs ${def.name}`);
  }
  if (args.length > defs.length)
    throw new UsageError(`unexpected arguments: ${args.slice(defs.length).join(' ')}`);
}

/**
 * Runs one command: parses and validates, then calls it. `argv` holds its own arguments only
 * (after the command and sub-command names).
 */
export async function runCommand(
  name: string,
  command: Command,
  argv: readonly string[],
  help = command.help,
): Promise<number> {
  let values: OptionValues<OptionDefs>;
  let args: string[];
  try {
    const parsed = parseOptions(command.options, argv);
    if (parsed.values.help) {
      write(process.stdout, help);
      return 0;
    }
    values = validateOptions(command.options, parsed.values);
    args = parsed.positionals;
    checkArgs(command.args ?? [], args);
  } catch (error) {
    return usage(name, help, parseProblem(error as Error));
  }
  const context: CommandContext<OptionValues<OptionDefs>> = {
    values,
    args,
    name,
    out: (json, text) => (values.json === true ? printJson(json) : write(process.stdout, text)),
    fail: (message, status = 1) => {
      write(process.stderr, `${name}: ${message}`);
      return status;
    },
  };
  try {
    return await command.run(context);
  } catch (error) {
    if (error instanceof UsageError) return usage(name, help, error.message);
    throw error;
  }
}

/**
 * Runs a command of a group: the first positional argument names it; its options may stand before
 * or after that name. The group's help stands for each sub-command's unless it has its own.
 */
export async function runGroup(group: CommandGroup, argv: readonly string[]): Promise<number> {
  // A first, lenient pass over every sub-command's options finds the sub-command's name even after
  // options that take a value; the sub-command's own strict pass then checks everything.
  const all: Record<string, OptionDef<unknown>> = {};
  for (const command of Object.values(group.commands)) Object.assign(all, command.options);
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [key, def] of Object.entries(all))
    config[key] = { type: def.type, ...(def.multiple ? { multiple: true } : {}) };
  const loose = parseArgs({
    args: [...argv],
    options: config,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const first = loose.tokens.find((token) => token.kind === 'positional');
  const sub = first?.value;
  if (sub === 'help' || (sub === undefined && loose.values.help === true)) {
    write(process.stdout, group.help);
    return 0;
  }
  if (sub === undefined) return usage(group.name, group.help, 'needs a command');
  const command = Object.hasOwn(group.commands, sub) ? group.commands[sub] : undefined;
  if (!command) return usage(group.name, group.help, `unknown command "${sub}"`);
  const rest = [...argv];
  if (first) rest.splice(first.index, 1);
  return runCommand(`${group.name} ${sub}`, command, rest, command.help || group.help);
}

/**
 * Opens the operator's store session (configuration, stderr logger, the store migrated and seeded
 * unless `prepare: false`), runs `work` and closes the store whatever happens. Loaded on first use,
 * so commands that need no store never load its code.
 */
export async function withOperatorSession<T>(
  work: (session: OperatorSession) => Promise<T>,
  options: { prepare?: boolean } = {},
): Promise<T> {
  const { openOperatorSession } = await import('../feedback/operator.js');
  const session = await openOperatorSession(options);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}
