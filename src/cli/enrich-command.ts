/**
 * `tx-enrich enrich`: JSON Lines of transactions in, JSON Lines of enriched records out, one output
 * line per input line in the same order. Streams in batches, so memory stays flat on any file size.
 */
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { loadConfigOrExit } from '../config.js';
import { validateTransaction, type Transaction } from '../contract/transaction.js';
import { loadReferenceData } from '../data/load.js';
import { enrichBatch } from '../engine/enrich.js';
import { toV2Record, toV3Record } from '../engine/records.js';
import { buildSnapshot } from '../engine/snapshot.js';
import type { EngineTransaction, Enrichment } from '../engine/types.js';
import { defineCommand, option, runCommand, type CommandContext, type OptionValues } from './command-kit.js';
import { ProgressBar } from './progress.js';

const HELP = `usage: tx-enrich enrich [--input FILE|-] [--output FILE|-] [--format v3|v2] [--explain] [--strict]

Reads JSON Lines of transaction records (the v3 request item; v2 items accepted) and writes one
enriched record per input line, in the same order. An invalid line yields
{"error":{"line":N,"field":"...","message":"..."}} in its place and the run goes on.

options:
  --input FILE      input file, or - for standard input (default -)
  --output FILE     output file, or - for standard output (default -)
  --format v3|v2    output record shape (default v3)
  --explain         add "_explain" with confidence, reasons, intermediary and versions
  --strict          exit with status 1 when any line was invalid
  --tenant ID       tenant for learned mappings and v2 ids (default: DEFAULT_TENANT)
  --no-arabic       v2 only: leave out the Arabic fields
  --return-transaction-id
                    v2 only: return transaction_id in place of ref_id
  --batch N         lines per engine batch (default 1000)
`;

const BATCH_LINES = 1000;

interface Pending {
  readonly line: number;
  readonly text: string;
}

const ENRICH_OPTIONS = {
  input: option.text('-'),
  output: option.text('-'),
  format: option.choice(['v3', 'v2'], 'v3'),
  explain: option.flag(),
  strict: option.flag(),
  tenant: option.tenant(),
  'no-arabic': option.flag(),
  'return-transaction-id': option.flag(),
  batch: option.integer({ min: 1, max: 1_000_000 }, BATCH_LINES),
} as const;

export const ENRICH_COMMAND = defineCommand({ help: HELP, options: ENRICH_OPTIONS, run: enrich });

export function runEnrichCommand(argv: string[]): Promise<number> {
  return runCommand('tx-enrich enrich', ENRICH_COMMAND, argv);
}

async function enrich({ values }: CommandContext<OptionValues<typeof ENRICH_OPTIONS>>): Promise<number> {
  const batchSize = values.batch;
  const config = loadConfigOrExit();
  const tenant = values.tenant ?? config.defaultTenant;
  const snapshot = buildSnapshot(loadReferenceData());
  const format = values.format;
  const render = (e: Enrichment, refId: string | null | undefined): Record<string, unknown> => {
    const record: Record<string, unknown> =
      format === 'v3'
        ? { ...toV3Record(e, refId, { logoBaseUrl: config.logoBaseUrl ?? '' }) }
        : {
            ...toV2Record(e, refId, {
              arabicEnabled: !values['no-arabic'],
              returnTransactionId: values['return-transaction-id'],
            }),
          };
    if (values.explain) {
      record._explain = {
        confidence: e.confidence,
        reasons: e.reasons,
        intermediary: e.intermediary,
        rule: e.rule,
        merchant_key: e.merchant_key,
        catalog_version: e.catalog_version,
        engine_version: e.engine_version,
      };
    }
    return record;
  };

  const input = values.input === '-' ? process.stdin : createReadStream(values.input);
  const output: Writable = values.output === '-' ? process.stdout : createWriteStream(values.output);
  const totalBytes = values.input === '-' ? 0 : statSync(values.input).size;
  const progress =
    totalBytes > 0 && process.stderr.isTTY ? new ProgressBar(process.stderr, totalBytes) : null;

  let invalid = 0;
  let lines = 0;
  let bytes = 0;
  let batch: Pending[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const valid: { slot: number; txn: EngineTransaction; refId: string | null | undefined }[] = [];
    const out: string[] = new Array<string>(batch.length);
    batch.forEach((item, slot) => {
      const parsed = parseLine(item);
      if ('error' in parsed) {
        invalid++;
        out[slot] = JSON.stringify(parsed);
        return;
      }
      valid.push({ slot, txn: { ...parsed.value, tenant }, refId: parsed.value.ref_id });
    });
    const results = enrichBatch(
      valid.map((v) => v.txn),
      snapshot,
    );
    valid.forEach((v, i) => {
      out[v.slot] = JSON.stringify(render(results[i] as Enrichment, v.refId));
    });
    batch = [];
    if (!output.write(out.join('\n') + '\n')) await once(output, 'drain');
    progress?.update(bytes, lines);
  };

  const reader = createInterface({ input, crlfDelay: Infinity });
  for await (const text of reader) {
    lines++;
    bytes += Buffer.byteLength(text) + 1;
    batch.push({ line: lines, text });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  progress?.finish(lines);
  if (output !== process.stdout) {
    output.end();
    await once(output, 'finish');
  }
  if (invalid > 0) {
    process.stderr.write(`tx-enrich enrich: ${invalid} of ${lines} lines were invalid\n`);
  }
  return values.strict && invalid > 0 ? 1 : 0;
}

type ParsedLine =
  | { value: Transaction }
  | {
      error: { line: number; field: string; message: string; errors?: { field: string; message: string }[] };
    };

function parseLine(item: Pending): ParsedLine {
  let json: unknown;
  try {
    json = JSON.parse(item.text);
  } catch (err) {
    return { error: { line: item.line, field: '', message: `not valid JSON: ${(err as Error).message}` } };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return {
      error: { line: item.line, field: '', message: 'must be a JSON object (one transaction record)' },
    };
  }
  const result = validateTransaction(json);
  if (result.ok) return { value: result.value };
  const [first] = result.errors;
  return {
    error: {
      line: item.line,
      field: first?.field ?? '',
      message: first?.message ?? 'invalid record',
      ...(result.errors.length > 1 ? { errors: result.errors.map((e) => ({ ...e })) } : {}),
    },
  };
}
