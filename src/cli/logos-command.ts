/**
 * `tx-enrich logos mirror [--only slug,...] [--limit N]`: downloads the Wikimedia Commons logo
 * files the catalog names (`logo_source`) into LOGO_DIR, each with its licence beside it.
 */
import { loadConfigOrExit } from '../config.js';
import { loadReferenceData } from '../data/load.js';
import { CommonsUnreachable, mirrorLogos, type MirrorSubject } from '../logos/mirror.js';
import { defineCommand, JSON_OPTION, option, printJson, runGroup, type CommandGroup } from './command-kit.js';

const HELP = `usage: tx-enrich logos mirror [--only <slug>[,<slug>...]] [--limit N] [--json]

  Downloads each brand's logo file named in the catalog (logo_source, a Wikimedia Commons file)
  from COMMONS_URL into LOGO_DIR as <slug>.<ext>, with its licence in <slug>.<ext>.licence.json.
  Brands that already have an image there are left alone. GET /logos/{brand_id} serves the files;
  a brand without one gets a generated SVG.
`;

const mirror = defineCommand({
  help: HELP,
  options: { ...JSON_OPTION, only: option.text(), limit: option.integer({ min: 1 }) },
  run: async (context) => {
    const { values } = context;
    const config = loadConfigOrExit();
    const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : null;
    const subjects: MirrorSubject[] = loadReferenceData()
      .brands.filter((b) => b.logo_source && (!only || only.has(b.slug)))
      .map((b) => ({ slug: b.slug, logo_source: b.logo_source as string }))
      .slice(0, values.limit ?? Infinity);
    if (only && subjects.length === 0) {
      return context.fail(`no brand with a logo_source among --only ${values.only}`, 2);
    }
    try {
      const result = await mirrorLogos(subjects, { commonsUrl: config.commonsUrl, dir: config.logoDir });
      if (values.json) printJson(result);
      else {
        process.stdout.write(
          `logos mirror: ${result.downloaded.length} downloaded, ${result.present.length} already present, ${result.failed.length} failed (into ${config.logoDir})\n`,
        );
        for (const f of result.failed) process.stdout.write(`  ${f.slug} (${f.file}): ${f.reason}\n`);
      }
      return result.failed.length > 0 && result.downloaded.length === 0 && result.present.length === 0
        ? 1
        : 0;
    } catch (error) {
      if (error instanceof CommonsUnreachable) return context.fail(error.message);
      throw error;
    }
  },
});

export const LOGOS_COMMANDS: CommandGroup = { name: 'tx-enrich logos', help: HELP, commands: { mirror } };

export function runLogosCommand(argv: string[]): Promise<number> {
  return runGroup(LOGOS_COMMANDS, argv);
}
