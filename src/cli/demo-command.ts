/**
 * `tx-enrich demo` (`npm run demo`): the one command that shows the product working. It brings up a
 * local stack (Docker compose where a Docker daemon answers, else Kafka and the registry from Maven
 * Central jars), starts the worker, streams sample traffic and prints the enriched records as they
 * are committed. Ctrl-C stops the worker and the traffic; the stack keeps running until
 * `npm run stack:down` (or `docker compose down`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCommand, option, runCommand, type CommandContext, type OptionValues } from './command-kit.js';
import { WORKER_NODE_OPTIONS } from './worker-command.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'tx-enrich.js');

const HELP = `usage: tx-enrich demo [--rate R] [--count N] [--bad-share P]

Brings up a local stack (docker compose if a Docker daemon answers, else Kafka + Apicurio Registry
from Maven Central jars), starts the worker, sends sample transactions and prints enriched records.
When KAFKA_BROKERS and SCHEMA_REGISTRY_URL are set, uses that stack instead.
  --rate R        sample transactions per second (default 20)
  --count N       how many to send (default 100000)
  --bad-share P   share of invalid records, to see the dead-letter topic at work (default 0.02)
`;

const DEMO_OPTIONS = {
  rate: option.number({ min: 0, exclusive: true, rule: 'must be a positive number' }, 20),
  count: option.integer({ min: 1 }, 100_000),
  'bad-share': option.number({ min: 0, max: 1, rule: 'must be a number between 0 and 1' }, 0.02),
} as const;

export function runDemoCommand(argv: string[]): Promise<number> {
  return runCommand('tx-enrich demo', defineCommand({ help: HELP, options: DEMO_OPTIONS, run: demo }), argv);
}

async function demo({ values }: CommandContext<OptionValues<typeof DEMO_OPTIONS>>): Promise<number> {
  const say = (line: string): void => void process.stderr.write(`[demo] ${line}\n`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!env.KAFKA_BROKERS || !env.SCHEMA_REGISTRY_URL) {
    const addresses = dockerAnswers() ? composeUp(say) : jarStackUp(say);
    if (!addresses) return 1;
    Object.assign(env, addresses);
  } else {
    say(`using KAFKA_BROKERS=${env.KAFKA_BROKERS} SCHEMA_REGISTRY_URL=${env.SCHEMA_REGISTRY_URL}`);
  }
  env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  const output = env.OUTPUT_TOPIC ?? 'transactions.enriched';

  const children: ChildProcess[] = [];
  const run = (args: string[], stdio: 'inherit' | 'ignore' | 'log'): ChildProcess => {
    const nodeOptions = args[0] === 'worker' ? WORKER_NODE_OPTIONS : [];
    const child = spawn(process.execPath, [...nodeOptions, BIN, ...args], {
      cwd: ROOT,
      env,
      stdio:
        stdio === 'log'
          ? ['ignore', 'ignore', 'inherit']
          : stdio === 'inherit'
            ? ['ignore', 'inherit', 'inherit']
            : 'ignore',
    });
    children.push(child);
    return child;
  };
  say('starting the worker (logs: LOG_LEVEL=warn by default in the demo)');
  env.LOG_LEVEL = env.LOG_LEVEL ?? 'warn';
  const worker = run(['worker'], 'log');
  say(
    `streaming ${values.count} sample transactions at ${values.rate}/s; enriched records below (Ctrl-C to stop)`,
  );
  run(
    [
      'produce',
      '--count',
      String(values.count),
      '--rate',
      String(values.rate),
      '--bad-share',
      String(values['bad-share']),
    ],
    'log',
  );
  run(['tail', output], 'inherit');

  return new Promise<number>((resolve) => {
    const stop = (code: number): void => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
      say('stopped the worker and the traffic; the stack keeps running (npm run stack:down stops it)');
      resolve(code);
    };
    process.once('SIGINT', () => stop(0));
    process.once('SIGTERM', () => stop(0));
    worker.once('exit', (code) => {
      if (code !== 0 && code !== null) {
        say(`the worker exited with status ${code}`);
        stop(1);
      }
    });
  });
}

function dockerAnswers(): boolean {
  const probe = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    timeout: 5_000,
    stdio: 'ignore',
  });
  return probe.status === 0;
}

function composeUp(say: (line: string) => void): Record<string, string> | null {
  say('a Docker daemon answers: docker compose up -d kafka schema-registry postgres');
  const up = spawnSync('docker', ['compose', 'up', '-d', '--wait', 'kafka', 'schema-registry', 'postgres'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (up.status !== 0) {
    say('docker compose failed; see its output above');
    return null;
  }
  return {
    KAFKA_BROKERS: '127.0.0.1:19092',
    SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081',
    DATABASE_URL: 'postgres://txenrich:txenrich@127.0.0.1:15432/txenrich',
  };
}

function jarStackUp(say: (line: string) => void): Record<string, string> | null {
  say(
    'no Docker daemon: starting Kafka and the schema registry from Maven Central jars (first run downloads ~220 MB)',
  );
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
  const up = spawnSync(
    existsSync(tsx) ? tsx : 'npx',
    existsSync(tsx) ? ['scripts/stack.ts', 'up'] : ['tsx', 'scripts/stack.ts', 'up'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  const envFile = join(ROOT, '.env.stack');
  if (up.status !== 0 || !existsSync(envFile)) {
    say('the local stack did not start; see the step and log tail above');
    return null;
  }
  const addresses: Record<string, string> = {};
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) addresses[m[1] as string] = m[2] as string;
  }
  return addresses;
}
