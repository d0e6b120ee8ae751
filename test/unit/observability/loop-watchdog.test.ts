import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MODULE = join(ROOT, 'src', 'observability', 'loop-watchdog.ts');

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lines: Record<string, unknown>[];
}

/** Runs `body` in a fresh process with the watchdog started (stallMs as given); its stdout as JSON lines. */
function runWith(stallMs: number, body: string): Promise<Run> {
  const source = `
    const { startLoopWatchdog } = await import(${JSON.stringify(MODULE)});
    startLoopWatchdog({ stallMs: ${stallMs}, name: 'test', onFailure: (e) => { console.log(JSON.stringify({ failed: e.message })); } });
    ${body}
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('waiting for the child process to end (the watchdog did not end it)'));
    }, 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, signal, lines });
    });
  });
}

describe('startLoopWatchdog', () => {
  it('ends a process whose loop a synchronous function holds, naming that function', async () => {
    const run = await runWith(
      1_000,
      `setTimeout(function holdTheLoop() { const until = Date.now() + 60_000; while (Date.now() < until); }, 100);`,
    );
    expect(run.signal).toBe('SIGKILL');
    const line = run.lines.find((l) => l.code === 'EVENT_LOOP_BLOCKED');
    expect(line).toMatchObject({ level: 60, name: 'test' });
    expect(line?.blockedMs).toBeGreaterThanOrEqual(1_000);
    expect(JSON.stringify(line?.stack)).toContain('holdTheLoop');
  });

  it('ends a process whose loop an endless chain of promises holds (timers never run)', async () => {
    const run = await runWith(
      1_000,
      `async function promisesForever() { for (;;) await Promise.resolve(); }
       setTimeout(() => void promisesForever(), 100);`,
    );
    expect(run.signal).toBe('SIGKILL');
    const line = run.lines.find((l) => l.code === 'EVENT_LOOP_BLOCKED');
    expect(JSON.stringify(line?.stack)).toContain('promisesForever');
  });

  it('leaves alone a process whose loop keeps turning, and does not keep it alive', async () => {
    // Busy in slices much shorter than the limit, twice over it in all, then done. (The loop is seen
    // to turn once a second, so a limit is good to a second or two.)
    const run = await runWith(
      2_000,
      `let n = 0;
       const slice = setInterval(() => { const until = Date.now() + 300; while (Date.now() < until); if (++n === 14) clearInterval(slice); }, 10);`,
    );
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.lines).toEqual([]);
  });

  it('is off at 0', async () => {
    const run = await runWith(0, `const until = Date.now() + 2_500; while (Date.now() < until);`);
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.lines).toEqual([]);
  });
});
