/**
 * Crash points for the tests that prove exactly-once across a crash: with
 * `TX_ENRICH_TEST_CRASH=<point>` in its environment, the process kills itself with SIGKILL when it
 * reaches that point (no cleanup, no flush: a real crash). Never set in production; it is not a
 * setting of src/config.ts on purpose.
 *
 * - `after-correction-commit`: right after a correction's database transaction committed, before
 *   the relay published what it recorded in the outbox;
 * - `after-relay-commit`: right after the relay's Kafka transaction committed, before it marked the
 *   rows sent in the database.
 */
export type CrashPoint = 'after-correction-commit' | 'after-relay-commit';

export const CRASH_ENV = 'TX_ENRICH_TEST_CRASH';

export function crashPoint(point: CrashPoint): void {
  if (process.env[CRASH_ENV] === point) {
    process.stderr.write(`${CRASH_ENV}=${point}: killing this process (SIGKILL)\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}
