/**
 * `tx-enrich logos mirror [--only slug,...] [--limit N]`: downloads the Wikimedia Commons logo
 * files the catalog names (`logo_source`) into LOGO_DIR, each with its licence beside it.
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import { CommonsUnreachable, mirrorLogos, type MirrorSubject } from '../logos/mirror.js';

const HELP = `usage: tx-enrich logos mirror [--only <slug>[,<slug>...]] [--limit N] [--json]

  Downloads each brand's logo file named in the catalog (logo_source, a Wikimedia Commons file)
  from COMMONS_URL into LOGO_DIR as <slug>.<ext>, with its licence in <slug>.<ext>.licence.json.
  Brands that already have an image there are left alone. GET /logos/{brand_id} serves the files;
  a brand without one gets a generated SVG.
`;

export async function runLogosCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      only: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals[0] !== 'mirror' || positionals.length > 1) {
    process.stderr.write(`tx-enrich logos: expected the sub-command "mirror"\n${HELP}`);
    return 2;
  }
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  if (values.limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    process.stderr.write(
      `tx-enrich logos mirror: --limit must be a positive integer, got "${values.limit}"\n`,
    );
    return 2;
  }
  const config = loadConfigOrExit();
  const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : null;
  const subjects: MirrorSubject[] = loadReferenceData()
    .brands.filter((b) => b.logo_source && (!only || only.has(b.slug)))
    .map((b) => ({ slug: b.slug, logo_source: b.logo_source as string }))
    .slice(0, limit);
  if (only && subjects.length === 0) {
    process.stderr.write(`tx-enrich logos mirror: no brand with a logo_source among --only ${values.only}\n`);
    return 2;
  }
  try {
    const result = await mirrorLogos(subjects, { commonsUrl: config.commonsUrl, dir: config.logoDir });
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      process.stdout.write(
        `logos mirror: ${result.downloaded.length} downloaded, ${result.present.length} already present, ${result.failed.length} failed (into ${config.logoDir})\n`,
      );
      for (const f of result.failed) process.stdout.write(`  ${f.slug} (${f.file}): ${f.reason}\n`);
    }
    return result.failed.length > 0 && result.downloaded.length === 0 && result.present.length === 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof CommonsUnreachable) {
      process.stderr.write(`tx-enrich logos mirror: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
