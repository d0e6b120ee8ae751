/** Steps of the stack: failures that name their step, logged child commands, log files. */
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Component } from './options.js';

/** A failed step: names the step and carries the tail of the component's log. */
export class StackError extends Error {
  constructor(
    readonly step: string,
    readonly component: Component | 'maven',
    readonly detail: string,
    readonly logFile: string | undefined,
  ) {
    super(`step "${step}" failed: ${detail}`);
    this.name = 'StackError';
  }

  /**
   * The same failure with the log's last lines in its message, for a log about to be deleted (a
   * cluster's folder goes with the cluster).
   */
  withLogTail(lines = 30): StackError {
    if (this.logFile === undefined || !existsSync(this.logFile)) return this;
    const where = relative(process.cwd(), this.logFile);
    return new StackError(
      this.step,
      this.component,
      `${this.detail}\n--- last ${lines} lines of ${where} ---\n${tail(this.logFile, lines)}`,
      undefined,
    );
  }

  /** The message plus the last lines of the log, ready to print. */
  report(lines = 40): string {
    if (this.logFile === undefined || !existsSync(this.logFile)) return this.message;
    return `${this.message}\n--- last ${lines} lines of ${relative(process.cwd(), this.logFile)} ---\n${tail(this.logFile, lines)}`;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function tail(file: string, lines: number): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

export async function runStep<T>(
  step: string,
  component: Component | 'maven',
  logFile: string | undefined,
  fn: () => Promise<T> | T,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StackError) throw error;
    throw new StackError(step, component, (error as Error).message, logFile);
  }
}

export function runLogged(command: string, args: readonly string[], logFile: string, cwd?: string): void {
  const fd = openSync(logFile, 'a');
  try {
    writeFileSync(fd, `\n$ ${command} ${args.join(' ')}\n`);
    const result = spawnSync(command, args, { stdio: ['ignore', fd, fd], cwd });
    if (result.error) throw result.error;
    if (result.status !== 0)
      throw new Error(`${command} exited with status ${result.status ?? result.signal}`);
  } finally {
    closeSync(fd);
  }
}

/** Each start gets a fresh log; the previous one is kept as <component>.previous.log. */
export function rotateLog(logFile: string): void {
  if (existsSync(logFile)) renameSync(logFile, logFile.replace(/\.log$/, '.previous.log'));
}
