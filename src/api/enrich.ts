/**
 * What the enrichment routes do with a parsed body, without HTTP: check the envelope and every item,
 * run the engine, and shape the v3 or v2 response. Exported so other code (and tests comparing the
 * API with the Kafka pipeline) can enrich a request body exactly as the routes do.
 */
import { validateTransaction, type Transaction } from '../contract/transaction.js';
import { enrichBatch } from '../engine/enrich.js';
import { toV2Record, toV3Record } from '../engine/records.js';
import type { Snapshot } from '../engine/snapshot.js';
import type { Enrichment } from '../engine/types.js';
import { ApiError } from './errors.js';
import type { ErrorItem, V2SuccessBody, V3SuccessBody } from './schemas.js';
import type { ResolvedTenant } from './tenant-directory.js';

/** At most this many problems are listed in one 400 response (the message gives the total). */
export const MAX_LISTED_ERRORS = 1000;

/**
 * Checks a request body: a JSON object whose `transactions` is a non-empty array of at most
 * `maxBatch` valid transaction records. Throws an {@link ApiError} (400, or 413 over the batch limit)
 * naming every problem with its item index and field path; returns the validated records in order.
 */
export function parseEnrichRequest(body: unknown, maxBatch: number): Transaction[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(
      400,
      'INVALID_BODY',
      `the body must be a JSON object with a "transactions" array, got ${kind(body)}`,
      {
        field: 'body',
      },
    );
  }
  const list = (body as Record<string, unknown>).transactions;
  if (list === undefined) {
    throw new ApiError(
      400,
      'INVALID_BODY',
      'transactions is required: the body must be {"transactions": [...]}',
      {
        field: 'transactions',
      },
    );
  }
  if (!Array.isArray(list)) {
    throw new ApiError(
      400,
      'INVALID_BODY',
      `transactions must be an array of transaction records, got ${kind(list)}`,
      {
        field: 'transactions',
      },
    );
  }
  if (list.length === 0) {
    throw new ApiError(400, 'EMPTY_ENVELOPE', 'transactions must hold at least one transaction record', {
      field: 'transactions',
    });
  }
  if (list.length > maxBatch) {
    throw new ApiError(
      413,
      'BATCH_TOO_LARGE',
      `too many transactions: ${list.length}, the limit is ${maxBatch} per request`,
      { field: 'transactions' },
    );
  }
  const valid: Transaction[] = [];
  const problems: ErrorItem[] = [];
  let total = 0;
  let badItems = 0;
  list.forEach((item: unknown, index) => {
    const path = `transactions[${index}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      badItems++;
      total++;
      if (problems.length < MAX_LISTED_ERRORS) {
        problems.push({
          code: 'INVALID_FIELD',
          index,
          field: path,
          message: `must be a JSON object (one transaction record), got ${kind(item)}`,
        });
      }
      return;
    }
    const result = validateTransaction(item);
    if (result.ok) {
      valid.push(result.value);
      return;
    }
    badItems++;
    for (const error of result.errors) {
      total++;
      if (problems.length < MAX_LISTED_ERRORS) {
        problems.push({
          code: 'INVALID_FIELD',
          index,
          field: error.field === '' ? path : `${path}.${error.field}`,
          message: error.message,
        });
      }
    }
  });
  if (problems.length > 0) {
    const first = problems[0] as ErrorItem;
    const summary =
      total === 1
        ? `${first.field} ${first.message}`
        : `${total} problems in ${badItems} of ${list.length} transactions` +
          (total > problems.length ? ` (the first ${problems.length} are listed)` : '') +
          `; the first: ${first.field} ${first.message}`;
    throw new ApiError(400, 'INVALID_FIELD', summary, { errors: problems });
  }
  return valid;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Runs the engine over validated records for one tenant; one enrichment per record, in order. */
export function enrichForTenant(
  transactions: readonly Transaction[],
  tenant: ResolvedTenant,
  snapshot: Snapshot,
): Enrichment[] {
  // The API is stateless: recurring detection sees the request's own earlier items, no stored history.
  return enrichBatch(
    transactions.map((t) => ({ ...t, tenant: tenant.id })),
    snapshot,
  );
}

/** POST /api/v3/transaction/enrich, minus HTTP: body → v3 success envelope (or throws ApiError). */
export function enrichV3(body: unknown, tenant: ResolvedTenant, snapshot: Snapshot): V3SuccessBody {
  const transactions = parseEnrichRequest(body, tenant.limits.maxBatch);
  const results = enrichForTenant(transactions, tenant, snapshot);
  return {
    success: true,
    message: '',
    data: results.map((e, i) => toV3Record(e, transactions[i]?.ref_id, { logoBaseUrl: tenant.logoBaseUrl })),
  };
}

/** POST /api/v2/transaction/enrich, minus HTTP: body → v2 success envelope (or throws ApiError). */
export function enrichV2(body: unknown, tenant: ResolvedTenant, snapshot: Snapshot): V2SuccessBody {
  const transactions = parseEnrichRequest(body, tenant.limits.maxBatch);
  const results = enrichForTenant(transactions, tenant, snapshot);
  return {
    transactions: results.map((e, i) =>
      toV2Record(e, transactions[i]?.ref_id, {
        arabicEnabled: tenant.arabicEnabled,
        returnTransactionId: tenant.returnTransactionId,
      }),
    ),
  };
}
