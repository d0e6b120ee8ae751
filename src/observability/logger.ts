/**
 * The process logger: pino, JSON, structured context fields. Raw descriptions, card and account
 * identifiers never go in at info level; `redact` is a safety net for fields that slip through.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

const REDACTED_PATHS = [
  'raw_description',
  'merchant_name',
  'card_id',
  'account_id',
  'customer_id',
  '*.raw_description',
  '*.merchant_name',
  '*.card_id',
  '*.account_id',
  '*.customer_id',
];

/** The \`name\` field of every log line. */
export const LOGGER_NAME = 'tx-enrich';

export function createLogger(level: string, name = LOGGER_NAME): Logger {
  return pino({
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
