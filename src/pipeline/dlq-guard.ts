/**
 * The dead-letter guard: when the dead-letter share of the last `window` records passes `maxShare`,
 * something upstream is broken (a producer bug, a schema mix-up), and dead-lettering everything
 * would only hide it. The guard trips once and stays tripped until the worker restarts.
 */
export class DeadLetterGuard {
  private readonly outcomes: Uint8Array;
  private next = 0;
  private filled = 0;
  private dead = 0;
  private trippedAt: number | null = null;

  constructor(
    private readonly window: number,
    private readonly maxShare: number,
  ) {
    this.outcomes = new Uint8Array(window);
  }

  /** Records outcomes; returns true when this call tripped the guard. */
  record(good: number, bad: number): boolean {
    for (let i = 0; i < good + bad; i++) {
      const isDead = i >= good ? 1 : 0;
      if (this.filled === this.window) this.dead -= this.outcomes[this.next] as number;
      else this.filled++;
      this.outcomes[this.next] = isDead;
      this.dead += isDead;
      this.next = (this.next + 1) % this.window;
    }
    // Judge only a full window: three bad records at start-up are not a trend.
    if (this.trippedAt === null && this.filled === this.window && this.share() > this.maxShare) {
      this.trippedAt = this.filled;
      return true;
    }
    return false;
  }

  share(): number {
    return this.filled === 0 ? 0 : this.dead / this.filled;
  }

  get tripped(): boolean {
    return this.trippedAt !== null;
  }
}
