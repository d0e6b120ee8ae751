/**
 * Runs `tx-enrich worker` as a child process for the tests that kill it, restart it or run two of
 * them: the real binary, the real configuration path, real signals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/stack.js';
import { waitFor, withTimeout } from './wait.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines the worker printed (stdout and stderr), for failure messages. */
  logs(): string;
  waitUntilReady(timeoutMs?: number): Promise<void>;
  /**
   * `exited`, bounded: a worker that does not exit fails the test naming the step (`why`) and
   * showing its last lines, instead of hanging until the suite's timeout.
   */
  exit(why?: string, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `logFile`: every line the worker prints is also appended there (evidence for fault runs). */
export async function startWorkerProcess(
  env: Record<string, string>,
  logFile?: string,
): Promise<WorkerProcess> {
  const port = await freePort('127.0.0.1');
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'tx-enrich.js'), 'worker'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env, HTTP_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    if (logFile !== undefined) appendFileSync(logFile, chunk);
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(line);
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const logs = (): string => lines.slice(-60).join('\n');
  return {
    child,
    port,
    exited,
    logs,
    exit: (why = 'the worker to exit', timeoutMs = 60_000) =>
      withTimeout(exited, timeoutMs, `waiting for ${why} (worker on port ${port})`).catch((error: Error) => {
        throw new Error(`${error.message}\n${logs()}`);
      }),
    async waitUntilReady(timeoutMs = 60_000) {
      // A worker that dies while starting fails the wait at once (waitFor would take the error
      // thrown by its probe for a passing one and keep polling until its timeout).
      let ready = false;
      const died = exited.then(() => {
        if (!ready) throw new Error(`worker exited before it was ready:\n${logs()}`);
      });
      died.catch(() => undefined);
      await Promise.race([
        waitFor(
          async () => {
            const res = await fetch(`http://127.0.0.1:${port}/readyz`, {
              signal: AbortSignal.timeout(5_000),
            }).catch(() => null);
            return res?.status === 200;
          },
          { timeoutMs, intervalMs: 200, description: `worker on port ${port} ready` },
        ),
        died,
      ]);
      ready = true;
    },
  };
}
