/**
 * The `tx-enrich` binary: one entry point, one sub-command per job. Commands load lazily so that
 * `tx-enrich enrich` never pulls in Kafka or HTTP code.
 */

type Command = (args: string[]) => Promise<number>;

/** name → summary, module and export; modules are imported only when their command runs. */
const COMMANDS: Record<string, { summary: string; module: string; exportName: string }> = {
  worker: {
    summary: 'run the enrichment worker: raw topics in, enriched v3 records out (exactly once)',
    module: './worker-command.js',
    exportName: 'runWorkerCommand',
  },
  demo: {
    summary: 'bring up a local stack, start the worker and stream sample traffic',
    module: './demo-command.js',
    exportName: 'runDemoCommand',
  },
  produce: {
    summary: 'send realistic sample transactions to a raw topic',
    module: './produce-command.js',
    exportName: 'runProduceCommand',
  },
  tail: {
    summary: 'print the decoded records of a topic as a table or JSON',
    module: './tail-command.js',
    exportName: 'runTailCommand',
  },
  enrich: {
    summary: 'enrich a JSON Lines file offline (no network)',
    module: './enrich-command.js',
    exportName: 'runEnrichCommand',
  },
  api: {
    summary: 'serve the v3 and v2 HTTP enrichment API',
    module: './api-command.js',
    exportName: 'runApiCommand',
  },
  tenants: {
    summary: 'manage API tenants and credentials (add, rotate-key, list)',
    module: './tenants-command.js',
    exportName: 'runTenantsCommand',
  },
  brands: {
    summary: 'search, show, add and update brands in the brand store',
    module: './brands-command.js',
    exportName: 'runBrandsCommand',
  },
  corrections: {
    summary: 'list and apply feedback corrections',
    module: './corrections-command.js',
    exportName: 'runCorrectionsCommand',
  },
  logos: {
    summary: 'mirror brand logos from Wikimedia Commons into the logo folder (with their licences)',
    module: './logos-command.js',
    exportName: 'runLogosCommand',
  },
  store: {
    summary: 'brand store maintenance (migrate, seed, purge)',
    module: './store-command.js',
    exportName: 'runStoreCommand',
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return `usage: tx-enrich <command> [options]   (tx-enrich <command> --help for its options)\n\ncommands:\n${lines.join('\n')}\n`;
}

async function resolve(name: string): Promise<Command | null> {
  const entry = COMMANDS[name];
  if (!entry) return null;
  const module = (await import(entry.module)) as Record<string, Command>;
  const command = module[entry.exportName];
  if (!command) throw new Error(`${entry.module} does not export ${entry.exportName}`);
  return command;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = await resolve(name);
  if (!command) {
    process.stderr.write(`tx-enrich: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`tx-enrich: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
