/**
 * `tx-enrich brands search|show|add|update`: the operator's view of the brand store. `add` and
 * `update` go through the same application path as customer corrections (audit, outbox,
 * brand-change event; `update` re-enriches the transactions indexed with the brand).
 */
import { parseArgs } from 'node:util';
import { openOperatorSession, operatorApplyContext } from '../feedback/operator.js';
import { describeRejection, type ApplyOutcome } from '../feedback/outcome.js';
import { publishFromCli } from '../feedback/services.js';
import { applyBrandAdd, applyBrandEdit, promoteBrand } from '../feedback/use-cases/operator-brands.js';
import { searchBrands, showBrand, type BrandEdit } from '../store/brands.js';

const HELP = `usage: tx-enrich brands <command> [options]

  search <text> [--limit N]            brands and product lines whose name, Arabic name, slug or an
                                       alias contains <text>
  show <id>                            one brand: fields, aliases, product lines, operator edits,
                                       how many indexed transactions and learned mappings use it
  add --name <name> --sub-category <id> [--name-ar <text>] [--website <url>] [--logo <path>]
      [--alias <text>]... [--mcc <code>]... [--country <CC>]... [--subscription]
                                       a brand the catalog lacks (matched from now on)
  update <id> [--name <text>] [--name-ar <text>] [--logo <path>] [--website <url>]
      [--sub-category <id>] [--alias <text>]...
                                       edit a brand; every transaction indexed with it (all tenants)
                                       is re-enriched and every worker refreshes its snapshot
  promote <id>                         make a brand created from a tenant's correction every
                                       tenant's (until then only that tenant sees it)

Options: --json  print JSON.
Changes are published (brand-change event, re-enriched records) by the running worker's outbox
relay, or by this command itself when no worker's relay is active on the store.
`;

export async function runBrandsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      name: { type: 'string' },
      'name-ar': { type: 'string' },
      website: { type: 'string' },
      logo: { type: 'string' },
      'sub-category': { type: 'string' },
      alias: { type: 'string', multiple: true },
      mcc: { type: 'string', multiple: true },
      country: { type: 'string', multiple: true },
      subscription: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [sub, arg] = positionals;
  if (values.help || !sub) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const usageError = (message: string): number => {
    process.stderr.write(`tx-enrich brands ${sub}: ${message}\n\n${HELP}`);
    return 2;
  };
  const out = (json: unknown, text: string): void => {
    process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  };

  if (sub === 'search') {
    if (!arg) return usageError('needs the text to search for');
    const session = await openOperatorSession();
    try {
      const found = await searchBrands(session.db, arg, values.limit ? Number(values.limit) : 25);
      out(
        found,
        found.length === 0
          ? 'no brand found'
          : found
              .map(
                (b) =>
                  `${String(b.id).padStart(9)}  ${b.kind === 'product_line' ? `  ↳ ${b.name}` : b.name}` +
                  `${b.name_ar ? ` / ${b.name_ar}` : ''}  [${b.sub_category_id}]${b.origin === 'catalog' ? '' : ` (${b.origin})`}` +
                  `${b.owner_tenant ? ` tenant ${b.owner_tenant} only` : ''}`,
              )
              .join('\n'),
      );
      return 0;
    } finally {
      await session.close();
    }
  }

  if (sub === 'show') {
    const id = Number(arg);
    if (!Number.isInteger(id) || id <= 0) return usageError('needs a brand id');
    const session = await openOperatorSession();
    try {
      const brand = await showBrand(session.db, id);
      if (!brand) {
        process.stderr.write(`tx-enrich brands show: no brand ${id}\n`);
        return 1;
      }
      out(
        brand,
        Object.entries(brand)
          .map(
            ([k, v]) =>
              `${k.padEnd(21)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`,
          )
          .join('\n'),
      );
      return 0;
    } finally {
      await session.close();
    }
  }

  if (sub === 'promote') {
    const id = Number(arg);
    if (!Number.isInteger(id) || id <= 0) return usageError('needs a brand id');
    const session = await openOperatorSession();
    try {
      const outcome = await promoteBrand(await operatorApplyContext(session), id);
      if (outcome.status === 'rejected') {
        process.stderr.write(`tx-enrich brands promote: ${describeRejection(outcome.error)}\n`);
        return 1;
      }
      const published = await publishFromCli(session.config, session.log, session.db);
      out({ outcome, published }, `${formatOutcome(outcome)}\n${formatPublished(published)}`);
      return 0;
    } finally {
      await session.close();
    }
  }

  if (sub === 'add' || sub === 'update') {
    const edit: BrandEdit = {};
    if (values.name !== undefined) edit.name = values.name;
    if (values['name-ar'] !== undefined) edit.name_ar = values['name-ar'];
    if (values.website !== undefined) edit.website = values.website;
    if (values.logo !== undefined) edit.logo = values.logo;
    if (values['sub-category'] !== undefined) edit.sub_category_id = values['sub-category'];
    if (values.website !== undefined && !/^https?:\/\/\S+$/.test(values.website)) {
      return usageError('--website must be an http(s) URL');
    }
    let id = 0;
    if (sub === 'add') {
      if (!edit.name || !edit.sub_category_id) return usageError('needs --name and --sub-category');
    } else {
      id = Number(arg);
      if (!Number.isInteger(id) || id <= 0) return usageError('needs a brand id');
      if (Object.keys(edit).length === 0 && !values.alias?.length) return usageError('nothing to change');
    }
    const session = await openOperatorSession();
    try {
      const ctx = await operatorApplyContext(session);
      const outcome =
        sub === 'add'
          ? await applyBrandAdd(ctx, {
              name: edit.name as string,
              name_ar: edit.name_ar ?? null,
              website: edit.website ?? null,
              logo: edit.logo ?? null,
              sub_category_id: edit.sub_category_id as string,
              aliases: values.alias ?? [],
              mccs: values.mcc ?? [],
              countries: (values.country ?? []).map((c) => c.toUpperCase()),
              subscription: values.subscription ?? false,
            })
          : await applyBrandEdit(ctx, id, edit, values.alias ?? []);
      if (outcome.status === 'rejected') {
        process.stderr.write(`tx-enrich brands ${sub}: ${describeRejection(outcome.error)}\n`);
        return 1;
      }
      const published = await publishFromCli(session.config, session.log, session.db);
      out({ outcome, published }, `${formatOutcome(outcome)}\n${formatPublished(published)}`);
      return 0;
    } finally {
      await session.close();
    }
  }
  return usageError(`unknown command "${sub}"`);
}

export function formatOutcome(outcome: ApplyOutcome): string {
  switch (outcome.status) {
    case 'applied':
      return (
        `applied ${outcome.correctionId} (${outcome.action}${outcome.brandId ? `, brand ${outcome.brandId}` : ''}): ` +
        `${outcome.reenriched} transactions re-enriched, ${outcome.events} brand-change events`
      );
    case 'proposed':
      return (
        `proposed ${outcome.correctionId}: ${outcome.agreeing} of ${outcome.needed} agreeing customers, ` +
        `${outcome.tenants} of ${outcome.neededTenants} tenants`
      );
    case 'rejected':
      return `rejected ${outcome.correctionId}: ${outcome.error.code}: ${outcome.error.message}`;
    default:
      return `already applied: ${outcome.correctionId}`;
  }
}

export function formatPublished(published: {
  published: number | null;
  pending: number;
  error?: string;
}): string {
  if (published.error) {
    return `not published yet (${published.error}); ${published.pending} records wait in the outbox for the relay`;
  }
  if (published.published === null) {
    return `a running worker's outbox relay publishes it (${published.pending} records pending now)`;
  }
  return `published ${published.published} records (brand-change events, re-enriched transactions)`;
}
