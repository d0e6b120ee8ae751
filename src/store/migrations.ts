/**
 * The brand store's schema, as numbered migrations. Each runs once, in order, inside one
 * transaction that holds an advisory lock, so several workers starting together migrate once.
 * Never edit a released migration: add the next one.
 */
import { XACT_LOCK_SQL, type Database } from './db.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'brand store',
    sql: `
-- Every change to brands, product lines, aliases and learned mappings takes a number from this
-- sequence (under the store's apply lock, so numbers commit in order); workers reload what is newer
-- than the last number they saw.
CREATE SEQUENCE change_seq;

-- The catalog: seeded from data/brands/*.json, plus brands operators and feedback add. Operator
-- edits of seeded brands live in "overrides" (field -> value), so re-seeding never undoes them;
-- the *_effective views apply them.
CREATE TABLE brands (
  id              integer PRIMARY KEY,
  slug            text NOT NULL UNIQUE,
  position        integer NOT NULL,
  name            text NOT NULL,
  name_ar         text,
  name_ar_source  text,
  website         text,
  logo            text,
  sub_category_id text NOT NULL,
  subscription    boolean NOT NULL DEFAULT false,
  name_alias      boolean NOT NULL DEFAULT true,
  mccs            text[] NOT NULL DEFAULT '{}',
  countries       text[] NOT NULL DEFAULT '{*}',
  venue           boolean NOT NULL DEFAULT false,
  origin          text NOT NULL CHECK (origin IN ('catalog', 'operator', 'feedback')),
  seed_digest     text,
  overrides       jsonb NOT NULL DEFAULT '{}'::jsonb,
  version         bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE product_lines (
  id              integer PRIMARY KEY,
  brand_id        integer NOT NULL REFERENCES brands (id),
  slug            text NOT NULL UNIQUE,
  position        integer NOT NULL,
  name            text NOT NULL,
  name_ar         text,
  name_ar_source  text,
  website         text,
  sub_category_id text NOT NULL,
  subscription    boolean NOT NULL DEFAULT false,
  name_alias      boolean NOT NULL DEFAULT true,
  mccs            text[],
  origin          text NOT NULL CHECK (origin IN ('catalog', 'operator', 'feedback')),
  seed_digest     text,
  overrides       jsonb NOT NULL DEFAULT '{}'::jsonb,
  version         bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX product_lines_brand ON product_lines (brand_id);

-- Aliases keep their catalog order (the engine breaks some ties by it).
CREATE TABLE brand_aliases (
  brand_id  integer NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  weak      boolean NOT NULL,
  position  integer NOT NULL,
  alias     text NOT NULL,
  origin    text NOT NULL DEFAULT 'catalog',
  PRIMARY KEY (brand_id, weak, position)
);
CREATE INDEX brand_aliases_alias ON brand_aliases (lower(alias));

CREATE TABLE product_line_aliases (
  product_line_id integer NOT NULL REFERENCES product_lines (id) ON DELETE CASCADE,
  position        integer NOT NULL,
  alias           text NOT NULL,
  origin          text NOT NULL DEFAULT 'catalog',
  PRIMARY KEY (product_line_id, position)
);

CREATE VIEW brands_effective AS
SELECT id, slug, position,
       coalesce(overrides ->> 'name', name) AS name,
       coalesce(overrides ->> 'name_ar', name_ar) AS name_ar,
       CASE WHEN overrides ? 'name_ar' THEN 'official' ELSE name_ar_source END AS name_ar_source,
       coalesce(overrides ->> 'website', website) AS website,
       coalesce(overrides ->> 'logo', logo) AS logo,
       coalesce(overrides ->> 'sub_category_id', sub_category_id) AS sub_category_id,
       subscription, name_alias, mccs, countries, venue, origin, overrides, version, updated_at
FROM brands;

CREATE VIEW product_lines_effective AS
SELECT id, brand_id, slug, position,
       coalesce(overrides ->> 'name', name) AS name,
       coalesce(overrides ->> 'name_ar', name_ar) AS name_ar,
       CASE WHEN overrides ? 'name_ar' THEN 'official' ELSE name_ar_source END AS name_ar_source,
       coalesce(overrides ->> 'website', website) AS website,
       coalesce(overrides ->> 'sub_category_id', sub_category_id) AS sub_category_id,
       subscription, name_alias, mccs, origin, overrides, version, updated_at
FROM product_lines;

-- Learned mappings: a merchant id or a normalized merchant key (what the engine looks up) of one
-- tenant, or of every tenant ('*'), mapped to a brand and/or a sub-category.
CREATE TABLE learned_mappings (
  tenant          text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('merchant_id', 'merchant_key')),
  key             text NOT NULL CHECK (key <> ''),
  brand_id        integer,
  sub_category_id text,
  correction_id   text NOT NULL,
  version         bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, kind, key),
  CHECK (brand_id IS NOT NULL OR sub_category_id IS NOT NULL)
);
CREATE INDEX learned_mappings_version ON learned_mappings (version);

-- The audit of every correction, customer or operator, applied, proposed or rejected. Idempotency
-- key: correction_id (rejected records without one get "<topic>:<partition>:<offset>").
-- The reporter is a digest of tenant and customer id: enough to count distinct customers.
CREATE TABLE corrections (
  correction_id   text PRIMARY KEY,
  tenant          text,
  transaction_id  text,
  reporter        text,
  actor           text NOT NULL CHECK (actor IN ('customer', 'operator')),
  scope           text NOT NULL CHECK (scope IN ('transaction', 'merchant', 'global', 'brand', 'invalid')),
  status          text NOT NULL CHECK (status IN ('applied', 'proposed', 'rejected')),
  reason          text,
  payload         jsonb NOT NULL DEFAULT '{}'::jsonb,
  merchant_key    text,
  merchant_id     text,
  proposal_key    text,
  brand_id        integer,
  sub_category_id text,
  reenriched      integer NOT NULL DEFAULT 0,
  source          text NOT NULL,
  reported_at     timestamptz,
  received_at     timestamptz NOT NULL DEFAULT now(),
  applied_at      timestamptz
);
CREATE INDEX corrections_proposals ON corrections (proposal_key) WHERE status = 'proposed';
CREATE INDEX corrections_tenant ON corrections (tenant, received_at);

-- Index of enriched transactions, for re-enrichment and recurring history: the engine's inputs it
-- needs to run again (no account, card or card name) and its last outcome.
CREATE TABLE enriched_index (
  tenant                   text NOT NULL,
  transaction_id           text NOT NULL,
  customer_id              text NOT NULL,
  merchant_key             text NOT NULL,
  merchant_id              text NOT NULL,
  brand_id                 integer,
  category_id              text NOT NULL,
  sub_category_id          text NOT NULL,
  recurring                boolean NOT NULL,
  revision                 integer NOT NULL DEFAULT 1,
  enriched_at              timestamptz NOT NULL DEFAULT now(),
  raw_description          text NOT NULL,
  merchant_name            text NOT NULL,
  mcc                      text NOT NULL,
  amount                   double precision NOT NULL,
  direction                text NOT NULL,
  is_transfer              boolean NOT NULL,
  is_self_transaction      boolean,
  iso_currency_cd          text NOT NULL,
  occurred_at              text NOT NULL,
  occurred_ts              timestamptz NOT NULL,
  country                  text NOT NULL,
  ref_id                   text,
  override_brand_id        integer,
  override_sub_category_id text,
  PRIMARY KEY (tenant, transaction_id)
);
CREATE INDEX enriched_index_history ON enriched_index (customer_id, merchant_key, occurred_ts);
CREATE INDEX enriched_index_merchant_key ON enriched_index (merchant_key, tenant);
CREATE INDEX enriched_index_merchant_id ON enriched_index (tenant, merchant_id) WHERE merchant_id <> '';
CREATE INDEX enriched_index_brand ON enriched_index (brand_id) WHERE brand_id IS NOT NULL;
CREATE INDEX enriched_index_occurred ON enriched_index (occurred_ts);

-- The transactional outbox: what must reach Kafka because of a committed change. The relay
-- publishes rows in id order and marks them sent; ids commit in order (the apply lock).
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('reenriched', 'brand-change', 'dead-letter')),
  msg_key       bytea,
  msg_value     bytea,
  record        jsonb,
  headers       jsonb NOT NULL DEFAULT '[]'::jsonb,
  correction_id text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  sent_at       timestamptz
);
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;
`,
  },
  {
    version: 2,
    name: 'merchant index leads to recent history',
    sql: `
-- Recurring history is read per (tenant, customer, merchant key), the latest first, a few rows each
-- (historyFor). The planner may serve that from either index that starts with its equality columns;
-- with (merchant_key, tenant) alone it could pick that one (it did, with statistics gathered on a
-- smaller table) and scan every customer's rows at the merchant. Extended by customer and time, the
-- merchant index serves it as one short backward range too, and still serves re-enrichment by
-- merchant (its first two columns), so either choice is cheap.
CREATE INDEX enriched_index_merchant ON enriched_index (merchant_key, tenant, customer_id, occurred_ts);
DROP INDEX enriched_index_merchant_key;
`,
  },
  {
    version: 3,
    name: 'trust in corrections, tenant brands, outbox dead letters',
    sql: `
-- A correction id is unique per tenant: two tenants may both send "c-1" and mean two corrections.
-- Rows without a tenant (operator brand actions, records whose tenant could not be trusted) share ''.
-- content_digest tells a redelivery (same content: a duplicate) from a re-used id (dead-lettered).
ALTER TABLE corrections DROP CONSTRAINT corrections_pkey;
CREATE UNIQUE INDEX corrections_key ON corrections ((coalesce(tenant, '')), correction_id);
ALTER TABLE corrections ADD COLUMN content_digest text;

-- A brand created from a correction belongs to its tenant (owner_tenant) until an operator promotes
-- it (NULL: every tenant may use it). Brands feedback created before this migration go to the tenant
-- of the earliest correction that created them.
ALTER TABLE brands ADD COLUMN owner_tenant text;
UPDATE brands b SET owner_tenant = first.tenant
FROM (SELECT DISTINCT ON (brand_id) brand_id, tenant FROM corrections
      WHERE status = 'applied' AND brand_id IS NOT NULL AND tenant IS NOT NULL AND payload ? 'new_brand'
        AND payload -> 'new_brand' <> 'null'::jsonb
      ORDER BY brand_id, received_at) AS first
WHERE b.id = first.brand_id AND b.origin = 'feedback';
CREATE INDEX brands_owner_name ON brands (owner_tenant, lower(name)) WHERE origin <> 'catalog';

-- An outbox row Kafka will never take (larger than the topic accepts, rejected as a record, or one
-- our code cannot encode) is set aside with its reason, so the rows after it are still published.
ALTER TABLE outbox ADD COLUMN failed_at timestamptz;
ALTER TABLE outbox ADD COLUMN failure_code text;
ALTER TABLE outbox ADD COLUMN failure_reason text;
DROP INDEX outbox_pending;
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL AND failed_at IS NULL;
`,
  },
  {
    version: 4,
    name: 'catalog: wikidata ids, commons logos, lines of business, weak product-line aliases',
    sql: `
-- Brands linked to Wikidata (through name-suggestion-index), the Commons file of their logo, and
-- their other lines of business (data/business-lines.json ids).
ALTER TABLE brands ADD COLUMN wikidata_id text;
ALTER TABLE brands ADD COLUMN logo_source text;
ALTER TABLE brands ADD COLUMN lines text[] NOT NULL DEFAULT '{}';

-- A product line's one-word alias can be an ordinary word too (Audible, Kindle): weak, as for brands.
ALTER TABLE product_line_aliases ADD COLUMN weak boolean NOT NULL DEFAULT false;
ALTER TABLE product_line_aliases DROP CONSTRAINT product_line_aliases_pkey;
ALTER TABLE product_line_aliases ADD PRIMARY KEY (product_line_id, weak, position);

-- New columns go last: a view keeps the columns it had, in order.
CREATE OR REPLACE VIEW brands_effective AS
SELECT id, slug, position,
       coalesce(overrides ->> 'name', name) AS name,
       coalesce(overrides ->> 'name_ar', name_ar) AS name_ar,
       CASE WHEN overrides ? 'name_ar' THEN 'official' ELSE name_ar_source END AS name_ar_source,
       coalesce(overrides ->> 'website', website) AS website,
       coalesce(overrides ->> 'logo', logo) AS logo,
       coalesce(overrides ->> 'sub_category_id', sub_category_id) AS sub_category_id,
       subscription, name_alias, mccs, countries, venue, origin, overrides, version, updated_at,
       wikidata_id, logo_source, lines
FROM brands;
`,
  },
  {
    version: 5,
    name: 'catalog: the name-suggestion-index item of imported brands',
    sql: `
-- An imported brand's aliases were generated, not reviewed: the engine asks more of them, so the
-- store must keep what marks a brand as imported, or a store-backed worker matches differently from
-- the catalog files.
ALTER TABLE brands ADD COLUMN nsi_id text;
-- Catalog rows seeded before this column existed hold it empty under an unchanged digest: forget the
-- digests, so the next seed writes every catalog brand again.
UPDATE brands SET seed_digest = NULL WHERE origin = 'catalog';

CREATE OR REPLACE VIEW brands_effective AS
SELECT id, slug, position,
       coalesce(overrides ->> 'name', name) AS name,
       coalesce(overrides ->> 'name_ar', name_ar) AS name_ar,
       CASE WHEN overrides ? 'name_ar' THEN 'official' ELSE name_ar_source END AS name_ar_source,
       coalesce(overrides ->> 'website', website) AS website,
       coalesce(overrides ->> 'logo', logo) AS logo,
       coalesce(overrides ->> 'sub_category_id', sub_category_id) AS sub_category_id,
       subscription, name_alias, mccs, countries, venue, origin, overrides, version, updated_at,
       wikidata_id, logo_source, lines, nsi_id
FROM brands;
`,
  },
  {
    version: 6,
    name: 'catalog: airlines ticket prefixes',
    sql: `
-- An airline's IATA accounting code (the first digits of its ticket numbers) names it beside an
-- ordinary first word (UNITED 0169091841258): the store must keep it, or a store-backed worker
-- matches differently from the catalog files.
ALTER TABLE brands ADD COLUMN ticket_prefix text;
-- Rows seeded before this column hold it empty under an unchanged digest: forget the digests, so the
-- next seed writes every catalog brand again.
UPDATE brands SET seed_digest = NULL WHERE origin = 'catalog';

CREATE OR REPLACE VIEW brands_effective AS
SELECT id, slug, position,
       coalesce(overrides ->> 'name', name) AS name,
       coalesce(overrides ->> 'name_ar', name_ar) AS name_ar,
       CASE WHEN overrides ? 'name_ar' THEN 'official' ELSE name_ar_source END AS name_ar_source,
       coalesce(overrides ->> 'website', website) AS website,
       coalesce(overrides ->> 'logo', logo) AS logo,
       coalesce(overrides ->> 'sub_category_id', sub_category_id) AS sub_category_id,
       subscription, name_alias, mccs, countries, venue, origin, overrides, version, updated_at,
       wikidata_id, logo_source, lines, nsi_id, ticket_prefix
FROM brands;
`,
  },
];

/** Applies the migrations this database lacks; returns the versions it applied. */
export async function migrate(db: Database): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query(XACT_LOCK_SQL, [`${db.schema}:migrate`]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

export async function migrationStatus(
  db: Database,
): Promise<{ version: number; name: string; applied: boolean }[]> {
  const { rows } = await db
    .query<{ version: number }>('SELECT version FROM schema_migrations')
    .catch(() => ({ rows: [] as { version: number }[] }));
  const done = new Set(rows.map((r) => Number(r.version)));
  return MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied: done.has(m.version) }));
}
