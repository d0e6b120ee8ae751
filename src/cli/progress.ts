/**
 * A one-line progress bar for long offline runs, drawn on a terminal only.
 */
import type { WriteStream } from 'node:tty';

const WIDTH = 30;
const REDRAW_MS = 100;

export class ProgressBar {
  private lastDraw = 0;
  private readonly started = Date.now();

  constructor(
    private readonly stream: WriteStream,
    private readonly total: number,
  ) {}

  update(done: number, lines: number): void {
    const now = Date.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const share = Math.min(1, done / this.total);
    const filled = Math.round(share * WIDTH);
    const rate = Math.round(lines / Math.max(0.001, (now - this.started) / 1000));
    this.stream.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(1)}%  ${lines} lines  ${rate}/s`,
    );
  }

  finish(lines: number): void {
    const seconds = (Date.now() - this.started) / 1000;
    this.stream.write(`\r[${'#'.repeat(WIDTH)}] 100.0%  ${lines} lines in ${seconds.toFixed(1)} s\n`);
  }
}
