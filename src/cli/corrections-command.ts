/**
 * `tx-enrich corrections list|apply`: the audit of corrections, and an operator's corrections applied
 * through the same function as the feedback topic's (an operator's global correction applies at
 * once: the quorum is for customers).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { validateCorrection, type Correction } from '../feedback/correction.js';
import { operatorApplyContext } from '../feedback/operator.js';
import { describeRejection, type ApplyOutcome } from '../feedback/outcome.js';
import { publishFromCli } from '../feedback/services.js';
import { applyCorrection } from '../feedback/use-cases/apply-correction.js';
import { listCorrections } from '../store/corrections.js';
import { formatOutcome, formatPublished } from './brands-command.js';
import {
  defineCommand,
  JSON_OPTION,
  option,
  printJson,
  runGroup,
  withOperatorSession,
  type CommandGroup,
} from './command-kit.js';

const HELP = `usage: tx-enrich corrections <command> [options]

  list [--tenant <id>] [--status applied|proposed|rejected] [--limit N]
                                   the audit of corrections, newest first (--limit 1-1000,
                                   default 50)
  apply <file | JSON | ->          apply corrections as an operator: a JSON object, an array of them,
                                   or JSON Lines, from a file, the argument itself, or stdin (-)

A correction has the fields of schemas/feedback-correction.avsc: tenant, transaction_id, scope
(transaction | merchant | global), brand_id or new_brand {name, name_ar, website}, and/or
category_id + sub_category_id. correction_id, customer_id and reported_at may be left out (an
operator id, "operator" and now are used).

Options: --json  print JSON.
`;

const list = defineCommand({
  help: HELP,
  options: {
    ...JSON_OPTION,
    tenant: option.tenant(),
    status: option.choice(['applied', 'proposed', 'rejected']),
    limit: option.integer({ min: 1, max: 1000 }, 50),
  },
  run: async ({ values }) =>
    withOperatorSession(async (session) => {
      const rows = await listCorrections(session.db, {
        tenant: values.tenant,
        status: values.status,
        limit: values.limit,
      });
      if (values.json) printJson(rows);
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
    }),
});

const apply = defineCommand({
  help: HELP,
  options: JSON_OPTION,
  args: [{ name: 'input', missing: 'needs a file, a JSON text or -' }],
  run: async (context) => {
    const arg = context.args[0] ?? '';
    let inputs: unknown[];
    try {
      inputs = parseInputs(
        arg === '-' ? readFileSync(0, 'utf8') : existsSync(arg) ? readFileSync(arg, 'utf8') : arg,
      );
    } catch (error) {
      return context.fail((error as Error).message, 2);
    }
    const now = Date.now();
    const corrections: Correction[] = [];
    for (const [i, input] of inputs.entries()) {
      const filled = {
        correction_id: `op-${randomUUID()}`,
        customer_id: 'operator',
        reported_at: now,
        ...(input as Record<string, unknown>),
      };
      const valid = validateCorrection(filled);
      if (!valid.ok) {
        return context.fail(
          `correction ${i + 1}: ${valid.error.code}${valid.error.field ? ` (${valid.error.field})` : ''}: ${valid.error.message}`,
        );
      }
      corrections.push(valid.value);
    }
    return withOperatorSession(async (session) => {
      const ctx = await operatorApplyContext(session);
      const outcomes: ApplyOutcome[] = [];
      let failed = 0;
      for (const c of corrections) {
        const outcome = await applyCorrection(ctx, c, { actor: 'operator', source: 'cli' });
        if (outcome.status === 'rejected') {
          failed++;
          context.fail(`${c.correction_id}: ${describeRejection(outcome.error)}`);
        } else outcomes.push(outcome);
      }
      const published = await publishFromCli(session.config, session.log, session.db);
      if (context.values.json) printJson({ outcomes, published });
      else {
        for (const o of outcomes) process.stdout.write(`${formatOutcome(o)}\n`);
        process.stdout.write(`${formatPublished(published)}\n`);
      }
      return failed > 0 ? 1 : 0;
    });
  },
});

export const CORRECTIONS_COMMANDS: CommandGroup = {
  name: 'tx-enrich corrections',
  help: HELP,
  commands: { list, apply },
};

export function runCorrectionsCommand(argv: string[]): Promise<number> {
  return runGroup(CORRECTIONS_COMMANDS, argv);
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
