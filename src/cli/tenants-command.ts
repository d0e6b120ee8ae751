/**
 * `tx-enrich tenants`: add a tenant, rotate its v2 API key or v3 token, list tenants. New secrets are
 * printed exactly once; the file keeps only their SHA-256 digests. Writes are atomic, mode 0600.
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.js';
import {
  DEFAULT_TENANTS_FILE,
  TenantsEditError,
  TenantsFileError,
  addTenant,
  readTenantsFile,
  rotateCredential,
  summarizeTenants,
  writeTenantsFile,
  type TenantLimits,
} from '../api/tenants.js';

const HELP = `usage: tx-enrich tenants <command> [options]

commands:
  add <id> [--arabic] [--return-transaction-id] [--logo-base-url URL]
           [--max-body-bytes N] [--max-batch N] [--rate-limit-per-minute N]
                      add a tenant with a v3 bearer token and a v2 API key (printed once)
  rotate-key <id> --v2|--v3 [--revoke-old]
                      issue a new v2 API key or v3 token (printed once); the old ones keep
                      working unless --revoke-old
  list                list tenants, their options, limits and credential ids (never secrets)

options:
  --file PATH         tenants file (default: TENANTS_FILE, else ${DEFAULT_TENANTS_FILE})
  --json              machine-readable output on stdout
`;

const OPTIONS = {
  file: { type: 'string' },
  json: { type: 'boolean', default: false },
  arabic: { type: 'boolean', default: false },
  'return-transaction-id': { type: 'boolean', default: false },
  'logo-base-url': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'max-batch': { type: 'string' },
  'rate-limit-per-minute': { type: 'string' },
  v2: { type: 'boolean', default: false },
  v3: { type: 'boolean', default: false },
  'revoke-old': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

class UsageError extends Error {}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

export async function runTenantsCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`tx-enrich tenants: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, id, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined && !values.help ? 2 : 0;
  }
  const path = values.file ?? loadConfigOrExit().tenantsFile ?? DEFAULT_TENANTS_FILE;
  try {
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    switch (command) {
      case 'add':
        return add(path, id, values);
      case 'rotate-key':
        return rotate(path, id, values);
      case 'list':
        if (id !== undefined) throw new UsageError(`list takes no tenant id`);
        return list(path, values.json);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`tx-enrich tenants: ${error.message}\n\n${HELP}`);
      return 2;
    }
    if (error instanceof TenantsEditError || error instanceof TenantsFileError) {
      process.stderr.write(`tx-enrich tenants: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function add(path: string, id: string | undefined, values: Values): number {
  if (id === undefined) throw new UsageError('add needs a tenant id');
  const limits: TenantLimits = {};
  const maxBody = positiveInteger('max-body-bytes', values['max-body-bytes']);
  const maxBatch = positiveInteger('max-batch', values['max-batch']);
  const rate = positiveInteger('rate-limit-per-minute', values['rate-limit-per-minute']);
  if (maxBody !== undefined) limits.max_body_bytes = maxBody;
  if (maxBatch !== undefined) limits.max_batch = maxBatch;
  if (rate !== undefined) limits.rate_limit_per_minute = rate;
  const { file } = readTenantsFile(path);
  const result = addTenant(file, id, {
    arabicEnabled: values.arabic,
    returnTransactionId: values['return-transaction-id'],
    logoBaseUrl: values['logo-base-url'] ?? null,
    limits,
  });
  writeTenantsFile(path, result.file);
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ tenant: id, file: path, v3_token: result.secrets.v3, v2_api_key: result.secrets.v2 })}\n`,
    );
  } else {
    process.stdout.write(
      `tenant ${id} added to ${path}\n` +
        `  v3 token    (Authorization: Bearer <token>)  ${result.secrets.v3}\n` +
        `  v2 API key  (Api-key: <key>)                 ${result.secrets.v2}\n`,
    );
    process.stderr.write(
      'Store them now: only their SHA-256 digests are kept, they cannot be shown again.\n',
    );
  }
  return 0;
}

function rotate(path: string, id: string | undefined, values: Values): number {
  if (id === undefined) throw new UsageError('rotate-key needs a tenant id');
  if (values.v2 === values.v3) throw new UsageError('rotate-key needs exactly one of --v2 or --v3');
  const version = values.v2 ? 'v2' : 'v3';
  const { file, exists } = readTenantsFile(path);
  if (!exists) throw new TenantsEditError(`no tenants file at ${path}`);
  const result = rotateCredential(file, id, version, { revokeOld: values['revoke-old'] });
  writeTenantsFile(path, result.file);
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ tenant: id, version, credential_id: result.credentialId, secret: result.secret, revoked: result.revoked })}\n`,
    );
  } else {
    const what = version === 'v3' ? 'v3 token   ' : 'v2 API key ';
    process.stdout.write(`tenant ${id}: new ${what} ${result.secret}  (id ${result.credentialId})\n`);
    process.stderr.write(
      (result.revoked.length > 0
        ? `Revoked ${result.revoked.length} old ${version} credential(s): ${result.revoked.join(', ')}. `
        : `The old ${version} credentials still work; rotate again with --revoke-old to remove them. `) +
        'Store the new one now: it cannot be shown again.\n',
    );
  }
  return 0;
}

function list(path: string, json: boolean): number {
  const { file, exists } = readTenantsFile(path);
  const rows = summarizeTenants(file);
  if (json) {
    process.stdout.write(`${JSON.stringify({ file: path, tenants: rows }, null, 2)}\n`);
    return 0;
  }
  if (!exists) {
    process.stdout.write(`no tenants file at ${path} (create one with: tx-enrich tenants add <id>)\n`);
    return 0;
  }
  process.stdout.write(`${rows.length} tenant(s) in ${path}\n`);
  for (const t of rows) {
    const flags = [
      t.arabic_enabled ? 'arabic' : 'no-arabic',
      t.return_transaction_id ? 'transaction_id' : 'ref_id',
    ];
    process.stdout.write(
      `\n${t.id}  [${flags.join(', ')}]  logo base: ${t.logo_base_url ?? '(LOGO_BASE_URL or relative)'}\n` +
        `  limits: ${t.limits.max_body_bytes} bytes, ${t.limits.max_batch} transactions, ${t.limits.rate_limit_per_minute} requests/min\n`,
    );
    for (const version of ['v3', 'v2'] as const) {
      for (const c of t.credentials[version]) {
        process.stdout.write(`  ${version} ${c.id}  ${c.hint}  created ${c.created_at}\n`);
      }
      if (t.credentials[version].length === 0) process.stdout.write(`  ${version} (none)\n`);
    }
  }
  return 0;
}
