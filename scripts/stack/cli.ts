/** The command line of scripts/stack.ts: up, down, status, logs; `--brokers N` for the cluster. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { stackDown, stackStatus, stackUp } from './commands.js';
import { paths, stackOptions } from './options.js';
import { tail } from './util.js';

export function usage(): string {
  return 'usage: tsx scripts/stack.ts up | down | status [--brokers N] | logs [kafka|registry|maven] [-n LINES] [-f]';
}

/** `--brokers N` (N > 1) selects the cluster mode (scripts/stack/cluster.ts); 1 is the single node. */
export function takeBrokers(args: string[]): number {
  const at = args.findIndex((a) => a === '--brokers' || a.startsWith('--brokers='));
  if (at < 0) return 1;
  const [flag] = args.splice(at, 1) as [string];
  const raw = flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : args.splice(at, 1)[0];
  const brokers = Number(raw);
  if (!Number.isInteger(brokers) || brokers < 1 || brokers > 5) {
    throw new Error(`--brokers must be 1-5 (got ${JSON.stringify(raw)})`);
  }
  return brokers;
}

export async function clusterCommand(command: string | undefined, brokers: number): Promise<number> {
  const cluster = await import('./cluster.js');
  const o = cluster.clusterOptions(process.env, brokers);
  switch (command) {
    case 'up': {
      const t0 = Date.now();
      const state = await cluster.clusterUp(o);
      o.log(
        `cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s (env: ${relative(process.cwd(), o.envFile)})`,
      );
      process.stdout.write(`KAFKA_BROKERS=${state.brokers}\nSCHEMA_REGISTRY_URL=${state.registryUrl}\n`);
      return 0;
    }
    case 'down':
      await cluster.clusterDown(o);
      return 0;
    case 'status':
      for (const line of cluster.clusterStatus(o)) process.stdout.write(`${line}\n`);
      return 0;
    default:
      process.stderr.write(`${usage()}\n`);
      return 2;
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const brokers = takeBrokers(rest);
  if (brokers > 1) return clusterCommand(command, brokers);
  const o = stackOptions();
  switch (command) {
    case 'up': {
      const t0 = Date.now();
      const result = await stackUp(o);
      o.log(
        result.started.length === 0
          ? `already running; nothing started (${o.envFile} refreshed)`
          : `started ${result.started.join(' and ')} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      process.stdout.write(`KAFKA_BROKERS=${result.addresses.KAFKA_BROKERS}\n`);
      process.stdout.write(`SCHEMA_REGISTRY_URL=${result.addresses.SCHEMA_REGISTRY_URL}\n`);
      return 0;
    }
    case 'down':
      await stackDown(o);
      return 0;
    case 'status': {
      const rows = stackStatus(o);
      for (const r of rows) {
        const where = r.address === undefined ? '' : ` ${r.address}`;
        const pid = r.pid === undefined ? '' : ` pid ${r.pid}`;
        process.stdout.write(`${r.component.padEnd(9)}${r.state}${pid}${where} (${r.detail})\n`);
      }
      const env = existsSync(o.envFile) ? relative(process.cwd(), o.envFile) : 'none';
      process.stdout.write(`env file: ${env}\n`);
      return 0;
    }
    case 'logs': {
      const p = paths(o);
      let lines = 60;
      let follow = false;
      const files: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const arg = rest[i];
        if (arg === '-n' || arg === '--lines') lines = Number(rest[++i] ?? '60');
        else if (arg === '-f' || arg === '--follow') follow = true;
        else if (arg === 'kafka' || arg === 'registry') files.push(p.logFile(arg));
        else if (arg === 'maven') files.push(p.mavenLog);
        else throw new Error(usage());
      }
      if (files.length === 0) files.push(p.logFile('kafka'), p.logFile('registry'));
      const present = files.filter((f) => existsSync(f));
      if (present.length === 0) {
        process.stdout.write('no logs yet (run npm run stack:up)\n');
        return 0;
      }
      if (follow) {
        const child = spawn('tail', ['-n', String(lines), '-F', ...present], { stdio: 'inherit' });
        await new Promise((r) => child.once('exit', r));
        return 0;
      }
      for (const f of present) {
        process.stdout.write(`==> ${relative(process.cwd(), f)} <==\n${tail(f, lines)}\n`);
      }
      return 0;
    }
    default:
      process.stderr.write(`${usage()}\n`);
      return 2;
  }
}
