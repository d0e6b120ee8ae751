/**
 * The outbox rows the relay sets aside: a row Kafka will never take is marked failed in the outbox
 * with its catalog code and reason, counted in `txenrich_outbox_dead_lettered_total`, and logged by
 * its outbox id only (the reason may quote the record).
 */
import { Counter, type Registry } from 'prom-client';
import type { Classified } from '../errors/classify.js';
import type { Logger } from '../observability/logger.js';
import type { Database } from '../store/db.js';
import { markFailed, type OutboxRow } from '../store/outbox.js';

export class RowsSetAside {
  private readonly counter: Counter<'kind' | 'code'> | null;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    registry?: Registry,
  ) {
    this.counter = registry
      ? new Counter({
          name: 'txenrich_outbox_dead_lettered_total',
          help: 'Outbox rows set aside because Kafka would not take them (too large, refused, not encodable), by kind and code.',
          labelNames: ['kind', 'code'],
          registers: [registry],
        })
      : null;
  }

  /** Sets the row aside; false when it was no longer pending (another relay got there first). */
  async row(row: OutboxRow, failure: Classified): Promise<boolean> {
    const code = failure.kind === 'bug' ? 'PROCESSING_FAILED' : failure.code;
    if (!(await markFailed(this.db, row.id, code, failure.message))) return false;
    this.counter?.inc({ kind: row.kind, code });
    const fields = { outboxId: row.id, kind: row.kind, code, correctionId: row.correctionId };
    const message = 'outbox row Kafka will not take: set aside (failed_at), the relay moves on';
    if (failure.kind === 'bug') this.log.error(fields, message);
    else this.log.warn(fields, message);
    return true;
  }
}
