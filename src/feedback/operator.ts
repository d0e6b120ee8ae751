/**
 * What the operator commands (`tx-enrich brands`, `corrections`, `store`) share: the configuration,
 * a logger on stderr (stdout carries the command's output), the store opened, migrated and seeded,
 * and the snapshot built from it for commands that apply changes.
 */
import { pino } from 'pino';
import { loadConfigOrExit, type Config } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import type { Logger } from '../observability/logger.js';
import type { Database } from '../store/db.js';
import { StoreSnapshot } from '../store/store-snapshot.js';
import { openStore, prepareStore } from '../store/store.js';
import type { ApplyContext } from './outcome.js';
import { applyContext } from './services.js';

export interface OperatorSession {
  readonly config: Config;
  readonly log: Logger;
  readonly db: Database;
  close(): Promise<void>;
}

export function operatorLogger(config: Config): Logger {
  // Quiet by default: an explicit LOG_LEVEL shows the store's and the relay's own lines.
  const level = process.env.LOG_LEVEL?.trim() ? config.logLevel : 'warn';
  return pino({ name: 'tx-enrich', level, base: { pid: process.pid } }, pino.destination(2));
}

export async function openOperatorSession(options: { prepare?: boolean } = {}): Promise<OperatorSession> {
  const config = loadConfigOrExit();
  const log = operatorLogger(config);
  // An operator command does not wait for ever: a minute of retries, then a clear error.
  const db = await openStore(config, log, { budgetMs: 60_000 });
  try {
    if (options.prepare ?? true) await prepareStore(db, loadReferenceData(), log);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { config, log, db, close: () => db.close() };
}

/** The context in which the CLI applies changes: the same function the feedback consumer uses. */
export async function operatorApplyContext(session: OperatorSession): Promise<ApplyContext> {
  const snapshots = await StoreSnapshot.load(session.db, loadReferenceData(), null);
  return applyContext(session.config, session.log, session.db, snapshots);
}
