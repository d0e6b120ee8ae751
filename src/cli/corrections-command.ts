/**
 * `tx-enrich corrections list|apply`: the audit of corrections, and an operator's corrections applied
 * through the same function as the feedback topic's (an operator's global correction applies at
 * once: the quorum is for customers).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { validateCorrection } from '../feedback/correction.js';
import { openOperatorSession, operatorApplyContext } from '../feedback/operator.js';
import { describeRejection, type ApplyOutcome } from '../feedback/outcome.js';
import { publishFromCli } from '../feedback/services.js';
import { applyCorrection } from '../feedback/use-cases/apply-correction.js';
import { listCorrections } from '../store/corrections.js';
import { formatOutcome, formatPublished } from './brands-command.js';

const HELP = `usage: tx-enrich corrections <command> [options]

  list [--tenant <id>] [--status applied|proposed|rejected] [--limit N]
                                   the audit of corrections, newest first
  apply <file | JSON | ->          apply corrections as an operator: a JSON object, an array of them,
                                   or JSON Lines, from a file, the argument itself, or stdin (-)

A correction has the fields of schemas/feedback-correction.avsc: tenant, transaction_id, scope
(transaction | merchant | global), brand_id or new_brand {name, name_ar, website}, and/or
category_id + sub_category_id. correction_id, customer_id and reported_at may be left out (an
operator id, "operator" and now are used).

Options: --json  print JSON.
`;

export async function runCorrectionsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      tenant: { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [sub, arg] = positionals;
  if (values.help || !sub) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  if (sub === 'list') {
    if (values.status && !['applied', 'proposed', 'rejected'].includes(values.status)) {
      process.stderr.write('tx-enrich corrections list: --status must be applied, proposed or rejected\n');
      return 2;
    }
    const session = await openOperatorSession();
    try {
      const rows = await listCorrections(session.db, {
        tenant: values.tenant,
        status: values.status as 'applied' | 'proposed' | 'rejected' | undefined,
        limit: values.limit ? Number(values.limit) : 50,
      });
      if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else if (rows.length === 0) process.stdout.write('no corrections\n');
      else {
        for (const r of rows) {
          process.stdout.write(
            `${iso(r.received_at)}  ${String(r.status).padEnd(8)} ${String(r.scope).padEnd(11)} ${String(r.actor).padEnd(8)} ` +
              `${String(r.correction_id)}  tenant=${String(r.tenant ?? '-')} brand=${String(r.brand_id ?? '-')} ` +
              `sub=${String(r.sub_category_id ?? '-')} reenriched=${String(r.reenriched)}` +
              `${r.reason ? `  (${String(r.reason)})` : ''}\n`,
          );
        }
      }
      return 0;
    } finally {
      await session.close();
    }
  }
  if (sub === 'apply') {
    if (!arg) {
      process.stderr.write(`tx-enrich corrections apply: needs a file, a JSON text or -\n\n${HELP}`);
      return 2;
    }
    let inputs: unknown[];
    try {
      inputs = parseInputs(
        arg === '-' ? readFileSync(0, 'utf8') : existsSync(arg) ? readFileSync(arg, 'utf8') : arg,
      );
    } catch (error) {
      process.stderr.write(`tx-enrich corrections apply: ${(error as Error).message}\n`);
      return 2;
    }
    const now = Date.now();
    const corrections = [];
    for (const [i, input] of inputs.entries()) {
      const filled = {
        correction_id: `op-${randomUUID()}`,
        customer_id: 'operator',
        reported_at: now,
        ...(input as Record<string, unknown>),
      };
      const valid = validateCorrection(filled);
      if (!valid.ok) {
        process.stderr.write(
          `tx-enrich corrections apply: correction ${i + 1}: ${valid.error.code}${valid.error.field ? ` (${valid.error.field})` : ''}: ${valid.error.message}\n`,
        );
        return 1;
      }
      corrections.push(valid.value);
    }
    const session = await openOperatorSession();
    try {
      const ctx = await operatorApplyContext(session);
      const outcomes: ApplyOutcome[] = [];
      let failed = 0;
      for (const c of corrections) {
        const outcome = await applyCorrection(ctx, c, { actor: 'operator', source: 'cli' });
        if (outcome.status === 'rejected') {
          failed++;
          process.stderr.write(
            `tx-enrich corrections apply: ${c.correction_id}: ${describeRejection(outcome.error)}\n`,
          );
        } else outcomes.push(outcome);
      }
      const published = await publishFromCli(session.config, session.log, session.db);
      if (values.json) process.stdout.write(`${JSON.stringify({ outcomes, published }, null, 2)}\n`);
      else {
        for (const o of outcomes) process.stdout.write(`${formatOutcome(o)}\n`);
        process.stdout.write(`${formatPublished(published)}\n`);
      }
      return failed > 0 ? 1 : 0;
    } finally {
      await session.close();
    }
  }
  process.stderr.write(`tx-enrich corrections: unknown command "${sub}"\n\n${HELP}`);
  return 2;
}

/** A JSON object, an array of objects, or JSON Lines. */
export function parseInputs(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new Error('no correction given');
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return trimmed
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .map((line, i) => {
        try {
          return JSON.parse(line) as unknown;
        } catch (error) {
          throw new Error(`line ${i + 1} is not JSON: ${(error as Error).message}`);
        }
      });
  }
}

function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}
