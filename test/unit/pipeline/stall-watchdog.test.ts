/**
 * The stall watchdog: publishes progress as metrics on every tick, restarts the Kafka side when
 * records have waited with nothing committed for STALL_RESTART_MS, and gives up loudly (fatal)
 * after MAX_RESTARTS restarts without progress in between.
 */
import type { Admin } from 'kafkajs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RetryBoard } from '../../../src/errors/retry.js';
import { createWorkerMetrics } from '../../../src/pipeline/metrics.js';
import { ProgressMonitor } from '../../../src/pipeline/progress.js';
import { MAX_RESTARTS, StallWatchdog } from '../../../src/pipeline/stall-watchdog.js';

function setup(
  options: {
    assigned?: boolean;
    restartFails?: boolean;
    restartHangs?: boolean;
    awaitingJoin?: () => number;
  } = {},
) {
  const clock = { now: 0 };
  const admin = {
    fetchTopicOffsets: async () => [{ partition: 0, offset: '500', high: '500', low: '0' }],
  } as unknown as Admin;
  const monitor = new ProgressMonitor(admin, { probeTimeoutMs: 1000, now: () => clock.now });
  monitor.assign([{ topic: 't', partition: 0 }]);
  monitor.skipped('t', 0, 0n);
  const board = new RetryBoard(() => clock.now);
  const metrics = createWorkerMetrics();
  const events = { restarts: 0, fatal: [] as Error[] };
  const dog = new StallWatchdog({
    monitor,
    board,
    metrics,
    log: pino({ level: 'silent' }),
    stallRestartMs: 60_000,
    isAssigned: () => options.assigned ?? true,
    secondsAwaitingJoin: options.awaitingJoin ?? (() => 0),
    restart: async () => {
      events.restarts++;
      if (options.restartFails) throw new Error('the consumer could not be recreated');
      if (options.restartHangs) await new Promise(() => undefined);
    },
    restartDeadlineMs: 20,
    fatal: (error) => events.fatal.push(error),
  });
  dog.start();
  const later = (seconds: number) => (clock.now += seconds * 1000);
  const gauge = async (name: string) =>
    (await metrics.registry.getSingleMetricAsString(name)).split('\n').filter((l) => !l.startsWith('#'));
  return { dog, monitor, board, events, later, gauge, stop: () => dog.stop() };
}

describe('StallWatchdog', () => {
  it('publishes seconds since progress and which loops retry, without restarting below the bound', async () => {
    const { dog, board, events, later, gauge, stop } = setup();
    board.failing('index', { code: 'DATABASE_UNAVAILABLE', kind: 'infrastructure', message: 'down' });
    later(20);
    await dog.tick();
    expect(await gauge('txenrich_seconds_since_progress')).toEqual(['txenrich_seconds_since_progress 20']);
    expect(await gauge('txenrich_retrying_since_seconds')).toEqual([
      'txenrich_retrying_since_seconds{loop="index"} 20',
    ]);
    expect(events.restarts).toBe(0);
    stop();
  });

  it('restarts the Kafka side once the stall passes STALL_RESTART_MS, and counts it', async () => {
    const { dog, events, later, gauge, stop } = setup();
    later(61);
    await dog.tick();
    expect(events.restarts).toBe(1);
    expect(await gauge('txenrich_consumer_restarts_total')).toEqual(['txenrich_consumer_restarts_total 1']);
    expect(events.fatal).toEqual([]);
    stop();
  });

  it(`gives up (fatal, RETRIES_EXHAUSTED) after ${MAX_RESTARTS} restarts without progress`, async () => {
    const { dog, events, later, stop } = setup();
    for (let i = 0; i < MAX_RESTARTS + 1; i++) {
      later(61);
      await dog.tick();
    }
    expect(events.restarts).toBe(MAX_RESTARTS);
    expect(events.fatal).toHaveLength(1);
    expect(events.fatal[0]).toMatchObject({ code: 'RETRIES_EXHAUSTED' });
    stop();
  });

  it('counts restarts from zero again after progress', async () => {
    const { dog, monitor, events, later, stop } = setup();
    for (let i = 0; i < MAX_RESTARTS; i++) {
      later(61);
      await dog.tick();
    }
    monitor.committed('t', 0, 10n);
    dog.progressed();
    later(61);
    await dog.tick();
    expect(events.restarts).toBe(MAX_RESTARTS + 1);
    expect(events.fatal).toEqual([]);
    stop();
  });

  it('does nothing without partitions, or once stopped', async () => {
    const unassigned = setup({ assigned: false });
    unassigned.later(600);
    await unassigned.dog.tick();
    expect(unassigned.events.restarts).toBe(0);
    unassigned.stop();

    const stopped = setup();
    stopped.stop();
    stopped.later(600);
    await stopped.dog.tick();
    expect(stopped.events.restarts).toBe(0);
  });

  it('restarts a consumer that has waited STALL_RESTART_MS to join its group, under the same count', async () => {
    let waiting = 0;
    const { dog, events, later, stop } = setup({ assigned: false, awaitingJoin: () => waiting });
    waiting = 30;
    later(30);
    await dog.tick();
    expect(events.restarts).toBe(0);
    for (let i = 0; i < MAX_RESTARTS + 1; i++) {
      waiting = 61;
      later(61);
      await dog.tick();
    }
    expect(events.restarts).toBe(MAX_RESTARTS);
    expect(events.fatal).toHaveLength(1);
    expect(events.fatal[0]?.message).toMatch(/has not joined its group/);
    stop();
  });

  it('a restart that does not finish in time is waited out, not waited on: the next tick still runs', async () => {
    const { dog, events, later, stop } = setup({ restartHangs: true });
    later(61);
    await dog.tick();
    expect(events.restarts).toBe(1);
    expect(events.fatal).toEqual([]);
    later(61);
    await dog.tick();
    expect(events.restarts).toBe(2);
    stop();
  });

  it('reports a failed restart as fatal rather than looping on it', async () => {
    const { dog, events, later, stop } = setup({ restartFails: true });
    later(61);
    await dog.tick();
    expect(events.fatal.map((e) => e.message)).toEqual(['the consumer could not be recreated']);
    stop();
  });
});
