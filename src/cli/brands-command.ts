/**
 * `tx-enrich brands search|show|add|update`: the operator's view of the brand store. `add` and
 * `update` go through the same application path as customer corrections (audit, outbox,
 * brand-change event; `update` re-enriches the transactions indexed with the brand).
 */
import { operatorApplyContext } from '../feedback/operator.js';
import { describeRejection, type ApplyContext, type ApplyOutcome } from '../feedback/outcome.js';
import { publishFromCli } from '../feedback/services.js';
import { applyBrandAdd, applyBrandEdit, promoteBrand } from '../feedback/use-cases/operator-brands.js';
import { searchBrands, showBrand, type BrandEdit } from '../store/brands.js';
import {
  defineCommand,
  JSON_OPTION,
  option,
  positiveId,
  runGroup,
  UsageError,
  withOperatorSession,
  type CommandContext,
  type CommandGroup,
  type OptionValues,
} from './command-kit.js';

const HELP = `usage: tx-enrich brands <command> [options]

  search <text> [--limit N]            brands and product lines whose name, Arabic name, slug or an
                                       alias contains <text> (--limit 1-1000, default 25)
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

const SEARCH_LIMIT = { min: 1, max: 1000 } as const;

const EDIT_OPTIONS = {
  ...JSON_OPTION,
  name: option.text(),
  'name-ar': option.text(),
  website: option.text(),
  logo: option.text(),
  'sub-category': option.text(),
  alias: option.list(),
} as const;

function brandEdit(values: OptionValues<typeof EDIT_OPTIONS>): BrandEdit {
  const edit: BrandEdit = {};
  if (values.name !== undefined) edit.name = values.name;
  if (values['name-ar'] !== undefined) edit.name_ar = values['name-ar'];
  if (values.website !== undefined) {
    if (!/^https?:\/\/\S+$/.test(values.website)) throw new UsageError('--website must be an http(s) URL');
    edit.website = values.website;
  }
  if (values.logo !== undefined) edit.logo = values.logo;
  if (values['sub-category'] !== undefined) edit.sub_category_id = values['sub-category'];
  return edit;
}

/** Applies an operator's change, publishes it when no worker relay will, and reports both. */
async function applyAndPublish(
  context: CommandContext<{ readonly json: boolean }>,
  apply: (ctx: ApplyContext) => Promise<ApplyOutcome>,
): Promise<number> {
  return withOperatorSession(async (session) => {
    const outcome = await apply(await operatorApplyContext(session));
    if (outcome.status === 'rejected') return context.fail(describeRejection(outcome.error));
    const published = await publishFromCli(session.config, session.log, session.db);
    context.out({ outcome, published }, `${formatOutcome(outcome)}\n${formatPublished(published)}`);
    return 0;
  });
}

const search = defineCommand({
  help: HELP,
  options: { ...JSON_OPTION, limit: option.integer(SEARCH_LIMIT, 25) },
  args: [{ name: 'text', missing: 'needs the text to search for' }],
  run: async (context) =>
    withOperatorSession(async (session) => {
      const found = await searchBrands(session.db, context.args[0] ?? '', context.values.limit);
      context.out(
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
    }),
});

const BRAND_ID = [{ name: 'id', missing: 'needs a brand id' }] as const;

const show = defineCommand({
  help: HELP,
  options: JSON_OPTION,
  args: BRAND_ID,
  run: async (context) => {
    const id = positiveId('the brand id', context.args[0]);
    return withOperatorSession(async (session) => {
      const brand = await showBrand(session.db, id);
      if (!brand) return context.fail(`no brand ${id}`);
      context.out(
        brand,
        Object.entries(brand)
          .map(
            ([k, v]) =>
              `${k.padEnd(21)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`,
          )
          .join('\n'),
      );
      return 0;
    });
  },
});

const promote = defineCommand({
  help: HELP,
  options: JSON_OPTION,
  args: BRAND_ID,
  run: async (context) => {
    const id = positiveId('the brand id', context.args[0]);
    return applyAndPublish(context, (ctx) => promoteBrand(ctx, id));
  },
});

const add = defineCommand({
  help: HELP,
  options: {
    ...EDIT_OPTIONS,
    mcc: option.list(),
    country: option.list(),
    subscription: option.flag(),
  },
  run: async (context) => {
    const { values } = context;
    const edit = brandEdit(values);
    if (!edit.name || !edit.sub_category_id) throw new UsageError('needs --name and --sub-category');
    const name = edit.name;
    const subCategory = edit.sub_category_id;
    return applyAndPublish(context, (ctx) =>
      applyBrandAdd(ctx, {
        name,
        name_ar: edit.name_ar ?? null,
        website: edit.website ?? null,
        logo: edit.logo ?? null,
        sub_category_id: subCategory,
        aliases: values.alias,
        mccs: values.mcc,
        countries: values.country.map((c) => c.toUpperCase()),
        subscription: values.subscription,
      }),
    );
  },
});

const update = defineCommand({
  help: HELP,
  options: EDIT_OPTIONS,
  args: BRAND_ID,
  run: async (context) => {
    const id = positiveId('the brand id', context.args[0]);
    const edit = brandEdit(context.values);
    if (Object.keys(edit).length === 0 && context.values.alias.length === 0) {
      throw new UsageError('nothing to change');
    }
    return applyAndPublish(context, (ctx) => applyBrandEdit(ctx, id, edit, context.values.alias));
  },
});

export const BRANDS_COMMANDS: CommandGroup = {
  name: 'tx-enrich brands',
  help: HELP,
  commands: { search, show, add, update, promote },
};

export function runBrandsCommand(argv: string[]): Promise<number> {
  return runGroup(BRANDS_COMMANDS, argv);
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
