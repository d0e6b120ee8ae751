/**
 * The service's configuration: every setting comes from an environment variable, is read once at
 * start-up and validated with zod. A bad value stops start-up with a message that names the variable
 * and the rule it broke (see {@link ConfigError}).
 *
 * `SETTINGS` is the single list of variables: the README's configuration table is generated from it
 * (`npm run config:table`), and tests check that docker-compose.yml sets no variable outside it.
 */
import type { z } from 'zod';
import type { SettingDef } from './config/rules.js';
import { SETTINGS } from './config/settings.js';

export { SETTINGS };
export { bindAddressSchema } from './config/rules.js';

type Settings = typeof SETTINGS;
type Parsed<K extends keyof Settings> = z.output<Settings[K]['schema']>;

/** The parsed configuration: frozen, one property per setting. */
export type Config = {
  readonly [K in keyof Settings]: Settings[K] extends { optional: true }
    ? Parsed<K> | undefined
    : Parsed<K> extends readonly (infer T)[]
      ? readonly T[]
      : Parsed<K>;
};

/** Every environment variable the service reads, in table order. */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze(Object.values(SETTINGS).map((s) => s.env));

export interface ConfigIssue {
  readonly variable: string;
  readonly rule: string;
  /** The offending raw value, or undefined for secrets. */
  readonly value: string | undefined;
}

/** Thrown by {@link loadConfig}; its message lists every bad variable and the rule it broke. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const lines = issues.map(
      (i) => `  - ${i.variable} ${i.rule}${i.value === undefined ? '' : ` (got ${JSON.stringify(i.value)})`}`,
    );
    super(`Invalid configuration:\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof RegExp)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads and validates every setting from `env`. Unset or blank variables take their default.
 * Throws a {@link ConfigError} naming each bad variable and its rule.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  for (const [key, def] of Object.entries(SETTINGS) as [string, SettingDef<z.ZodType>][]) {
    const raw = env[def.env]?.trim();
    const value = raw === undefined || raw === '' ? def.default : raw;
    if (value === undefined) {
      result[key] = undefined;
      continue;
    }
    const parsed = def.schema.safeParse(value);
    if (parsed.success) {
      result[key] = parsed.data;
    } else {
      const rule = parsed.error.issues[0]?.message ?? `must be ${def.rule}`;
      issues.push({ variable: def.env, rule, value: def.secret ? undefined : value });
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return deepFreeze(result) as Config;
}

let cached: Config | undefined;

/** The process-wide configuration, read from process.env on first use. */
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}

/**
 * For entry points: loads the configuration, or prints the ConfigError to stderr and exits with
 * status 78 (EX_CONFIG).
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}

export interface SettingDescription {
  readonly variable: string;
  readonly default: string | undefined;
  readonly rule: string;
  readonly description: string;
}

/** The settings as plain rows (for the README table and tooling). */
export function describeSettings(): readonly SettingDescription[] {
  return Object.values(SETTINGS).map((s: SettingDef<z.ZodType>) => ({
    variable: s.env,
    default: s.default,
    rule: s.rule,
    description: s.description,
  }));
}

/** The configuration table in Markdown, as pasted into README.md. */
export function configTableMarkdown(): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const rows = describeSettings().map(
    (s) =>
      `| \`${s.variable}\` | ${s.default === undefined ? '_(unset)_' : `\`${escape(s.default)}\``} | ${escape(s.rule)} | ${escape(s.description)} |`,
  );
  return ['| Variable | Default | Rule | Description |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
