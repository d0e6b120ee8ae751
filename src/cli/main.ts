/**
 * The `tx-enrich` binary: one entry point, one sub-command per job.
 */
import { runEnrichCommand } from './enrich-command.js';

const USAGE = `usage: tx-enrich <command> [options]

commands:
  enrich     enrich a JSON Lines file offline (no network): tx-enrich enrich --help
`;

const commands: Record<string, (args: string[]) => Promise<number>> = {
  enrich: runEnrichCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`tx-enrich: unknown command "${name}"\n\n${USAGE}`);
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
