/**
 * `tx-enrich tenants`: add a tenant, rotate its v2 API key or v3 token, list tenants. New secrets are
 * printed exactly once; the file keeps only their SHA-256 digests. Writes are atomic, mode 0600.
 */
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
import {
  defineCommand,
  option,
  printJson,
  runGroup,
  tenantId,
  UsageError,
  type Command,
  type CommandGroup,
  type OptionDefs,
} from './command-kit.js';

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

const COMMON = { file: option.text(), json: option.flag() } as const;

const LIMIT = { min: 1 } as const;

const add = defineCommand({
  help: HELP,
  options: {
    ...COMMON,
    arabic: option.flag(),
    'return-transaction-id': option.flag(),
    'logo-base-url': option.text(),
    'max-body-bytes': option.integer(LIMIT),
    'max-batch': option.integer(LIMIT),
    'rate-limit-per-minute': option.integer(LIMIT),
  },
  args: [{ name: 'id', missing: 'add needs a tenant id' }],
  run: ({ values, args }) => {
    const id = tenantId('the tenant id', args[0]);
    const path = tenantsPath(values.file);
    const limits: TenantLimits = {};
    if (values['max-body-bytes'] !== undefined) limits.max_body_bytes = values['max-body-bytes'];
    if (values['max-batch'] !== undefined) limits.max_batch = values['max-batch'];
    if (values['rate-limit-per-minute'] !== undefined) {
      limits.rate_limit_per_minute = values['rate-limit-per-minute'];
    }
    const { file } = readTenantsFile(path);
    const result = addTenant(file, id, {
      arabicEnabled: values.arabic,
      returnTransactionId: values['return-transaction-id'],
      logoBaseUrl: values['logo-base-url'] ?? null,
      limits,
    });
    writeTenantsFile(path, result.file);
    if (values.json) {
      printJson(
        { tenant: id, file: path, v3_token: result.secrets.v3, v2_api_key: result.secrets.v2 },
        { compact: true },
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
  },
});

const rotate = defineCommand({
  help: HELP,
  options: { ...COMMON, v2: option.flag(), v3: option.flag(), 'revoke-old': option.flag() },
  args: [{ name: 'id', missing: 'rotate-key needs a tenant id' }],
  run: ({ values, args }) => {
    const id = tenantId('the tenant id', args[0]);
    if (values.v2 === values.v3) throw new UsageError('rotate-key needs exactly one of --v2 or --v3');
    const version = values.v2 ? 'v2' : 'v3';
    const path = tenantsPath(values.file);
    const { file, exists } = readTenantsFile(path);
    if (!exists) throw new TenantsEditError(`no tenants file at ${path}`);
    const result = rotateCredential(file, id, version, { revokeOld: values['revoke-old'] });
    writeTenantsFile(path, result.file);
    if (values.json) {
      printJson(
        {
          tenant: id,
          version,
          credential_id: result.credentialId,
          secret: result.secret,
          revoked: result.revoked,
        },
        { compact: true },
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
  },
});

const listCommand = defineCommand({
  help: HELP,
  options: COMMON,
  run: ({ values }) => list(tenantsPath(values.file), values.json),
});

export const TENANTS_COMMANDS: CommandGroup = {
  name: 'tx-enrich tenants',
  help: HELP,
  commands: {
    add: fileErrorsAsFailures(add),
    'rotate-key': fileErrorsAsFailures(rotate),
    list: fileErrorsAsFailures(listCommand),
  },
};

export function runTenantsCommand(argv: string[]): Promise<number> {
  return runGroup(TENANTS_COMMANDS, argv);
}

function tenantsPath(file: string | undefined): string {
  return file ?? loadConfigOrExit().tenantsFile ?? DEFAULT_TENANTS_FILE;
}

/** A tenants file that cannot be read or edited as asked is a failure (1), not a usage error. */
function fileErrorsAsFailures<O extends OptionDefs>(command: Command<O>): Command<O> {
  return {
    ...command,
    run: async (context) => {
      try {
        return await command.run(context);
      } catch (error) {
        if (error instanceof TenantsEditError || error instanceof TenantsFileError) {
          return context.fail(error.message);
        }
        throw error;
      }
    },
  };
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
