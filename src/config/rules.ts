/**
 * The rules a setting's raw value must follow (zod schemas over the trimmed, non-empty string), and
 * the shape of a setting. Messages are phrased to follow the variable's name.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
/** One setting: the environment variable, its default (as the raw string) and what it is for. */
export interface SettingDef<S extends z.ZodType> {
  readonly env: string;
  readonly description: string;
  /** The rule in words, shown in errors and in the README table. */
  readonly rule: string;
  /** Raw default used when the variable is unset or empty; omitted for optional settings. */
  readonly default?: string;
  /** Optional settings may be absent (the parsed value is then `undefined`). */
  readonly optional?: boolean;
  /** Secret values (may carry a password) are never echoed in error messages. */
  readonly secret?: boolean;
  readonly schema: S;
}

// ---------------------------------------------------------------------------------------------------
// Value rules. Each parses the raw (trimmed, non-empty) string. Messages are phrased to follow the
// variable name: "BATCH_MAX_RECORDS must be an integer between 1 and 100000".

export const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function integer(min: number, max: number) {
  const rule = `must be an integer between ${min} and ${max}`;
  return z
    .string()
    .regex(/^[+-]?\d+$/, rule)
    .transform(Number)
    .pipe(z.number().int().min(min, rule).max(max, rule));
}

export function decimal(rule: string, check: (n: number) => boolean) {
  return z
    .string()
    .regex(/^[+-]?(?:\d+\.?\d*|\.\d+)$/, rule)
    .transform(Number)
    .refine(check, rule);
}

export function port() {
  return integer(0, 65535);
}

/** An address to bind: an IPv4 or IPv6 literal, or a host name. */
export function host() {
  return z
    .string()
    .refine(
      (value) =>
        isIP(value) !== 0 ||
        /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(
          value,
        ),
      'must be an IP address or a host name',
    );
}

/** An address to bind, as HEALTH_HOST and API_HOST take it (also the API command's --host). */
export const bindAddressSchema = host();

export function url(protocols: readonly string[], rule: string) {
  return z.string().refine((value) => {
    try {
      const parsed = new URL(value);
      return protocols.includes(parsed.protocol) && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, rule);
}

export function list(itemRule: string, item: (value: string) => boolean) {
  return z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .refine((items) => items.length > 0 && items.every(item), itemRule);
}

export function topic() {
  return z.string().regex(TOPIC_NAME, 'must be a Kafka topic name (1-249 of A-Z a-z 0-9 . _ -)');
}

export function name(rule = 'must be 1-64 of A-Z a-z 0-9 . _ -') {
  return z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, rule);
}

export function regex() {
  const rule = 'must be a valid JavaScript regular expression';
  return z
    .string()
    .refine((value) => {
      try {
        new RegExp(value);
        return true;
      } catch {
        return false;
      }
    }, rule)
    .transform((value) => new RegExp(value));
}

export function bugPolicy() {
  return z.enum(['dead-letter', 'stop'], { error: 'must be dead-letter or stop' });
}

export function text() {
  return z.string().min(1, 'must not be empty');
}

export function validPort(hostPort: string): boolean {
  const match = HOST_PORT.exec(hostPort);
  const portText = match?.[1];
  return portText !== undefined && Number(portText) >= 1 && Number(portText) <= 65535;
}

// ---------------------------------------------------------------------------------------------------
// The settings. Keys are the properties of the parsed Config object.

export function setting<const D extends SettingDef<z.ZodType>>(def: D): D {
  return def;
}
