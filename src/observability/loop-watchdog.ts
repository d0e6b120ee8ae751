/**
 * A thread that watches the main thread's event loop from outside. Everything else that guards the
 * worker (the stall watchdog, deadlines, bounded retries, /healthz) runs on that loop: if
 * synchronous code, or a chain of promises that never waits for I/O, holds it, they all stop at once
 * and the worker goes silent. (Once, after a rolling restart of the brokers, a worker logged nothing
 * for minutes: no retry, no stall restart, no exit.) When the loop has not turned for `stallMs`, this
 * thread logs where the main thread is (its JavaScript stack, read through the inspector) and ends
 * the process with SIGKILL, the one signal that needs no JavaScript handler on the blocked thread,
 * so that its supervisor starts a new one and the reason is in the log.
 */
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../errors/catalog.js';

const CODE: ErrorCode = 'EVENT_LOOP_BLOCKED';

/** How often the main thread marks that its loop turned (so a limit is good to about two of these). */
const BEAT_MS = 1_000;

export interface LoopWatchdogOptions {
  /** How long the loop may stay blocked before the process ends; 0 turns the watchdog off. */
  readonly stallMs: number;
  /** The `name` field of the log line (the logger's name). */
  readonly name: string;
  /** The watcher thread itself failed: the process runs on, unwatched. */
  onFailure(error: Error): void;
}

export interface LoopWatchdog {
  stop(): Promise<void>;
}

export function startLoopWatchdog({ stallMs, name, onFailure }: LoopWatchdogOptions): LoopWatchdog {
  if (stallMs <= 0) return { stop: () => Promise.resolve() };
  const beats = new Int32Array(new SharedArrayBuffer(4));
  const beat = setInterval(() => Atomics.add(beats, 0, 1), BEAT_MS);
  // Neither keeps the process alive: the watchdog watches a process, it is not a reason for one.
  beat.unref();
  const thread = new Worker(WATCHER, {
    eval: true,
    workerData: { beats, stallMs, checkMs: BEAT_MS, name, code: CODE },
    // Not the process's own flags (`--input-type=module` would make the source a module).
    execArgv: [],
  });
  thread.on('error', onFailure);
  thread.unref();
  return {
    async stop() {
      clearInterval(beat);
      await thread.terminate();
    },
  };
}

/**
 * The watcher, as source for a worker thread (plain CommonJS: it must run the same under tsx and
 * from the compiled build). It writes its log line itself, synchronously, in pino's format: the
 * main thread's logger is on the blocked thread.
 */
const WATCHER = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const inspector = require('node:inspector');
const { beats, stallMs, checkMs, name, code } = workerData;
let seen = Atomics.load(beats, 0);
let since = Date.now();
let firing = false;
const check = setInterval(() => {
  const now = Atomics.load(beats, 0);
  if (now !== seen) {
    seen = now;
    since = Date.now();
    return;
  }
  if (firing || Date.now() - since < stallMs) return;
  firing = true;
  clearInterval(check);
  let stack = null;
  const session = new inspector.Session();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    writeSync(1, JSON.stringify({
      level: 60,
      time: new Date().toISOString(),
      pid: process.pid,
      name,
      code,
      blockedMs: Date.now() - since,
      stack: stack === null ? 'not read (the inspector did not answer)' : stack,
      msg: 'the event loop has been blocked: ending the process for its supervisor to restart it',
    }) + '\\n');
    process.kill(process.pid, 'SIGKILL');
  };
  try {
    session.connectToMainThread();
    session.on('Debugger.paused', (message) => {
      stack = message.params.callFrames
        .slice(0, 20)
        .map((f) => (f.functionName || '(anonymous)') + ' ' + f.url + ':' + (f.location.lineNumber + 1));
      end();
    });
    session.post('Debugger.enable', () => session.post('Debugger.pause'));
  } catch {
    end();
    return;
  }
  // The inspector answers through interrupts of the main thread; a thread stuck outside JavaScript
  // may never take one.
  setTimeout(end, 5000);
}, checkMs);
`;
