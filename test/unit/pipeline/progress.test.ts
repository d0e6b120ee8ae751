import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { ProgressMonitor } from '../../../src/pipeline/progress.js';

/** An admin whose end offsets a test sets, or makes fail (brokers unreachable). */
function fakeAdmin(ends: Record<number, number>, fail = { now: false }) {
  return {
    fetchTopicOffsets: async () => {
      if (fail.now) throw new Error('ECONNREFUSED');
      return Object.entries(ends).map(([partition, offset]) => ({
        partition: Number(partition),
        offset: String(offset),
        high: String(offset),
        low: '0',
      }));
    },
  } as unknown as Admin;
}

function monitor(ends: Record<number, number>, fail = { now: false }) {
  let now = 0;
  const m = new ProgressMonitor(fakeAdmin(ends, fail), { probeTimeoutMs: 1000, now: () => now });
  return { m, tick: (seconds: number) => (now += seconds * 1000) };
}

describe('ProgressMonitor', () => {
  it('counts seconds without a commit while records wait', async () => {
    const ends = { 0: 100, 1: 50 };
    const { m, tick } = monitor(ends);
    m.assign([
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 },
    ]);
    m.skipped('t', 0, 10n);
    m.skipped('t', 1, 50n);
    tick(40);
    await m.probe();
    expect(m.lag()).toBe(90);
    expect(m.secondsSinceProgress()).toBe(40);
    m.committed('t', 0, 60n);
    expect(m.secondsSinceProgress()).toBe(0);
    expect(m.lag()).toBe(40);
  });

  it('is at 0 while every partition is caught up, however long nothing arrives', async () => {
    const { m, tick } = monitor({ 0: 7 });
    m.assign([{ topic: 't', partition: 0 }]);
    m.skipped('t', 0, 7n);
    tick(300);
    await m.probe();
    expect(m.lag()).toBe(0);
    expect(m.secondsSinceProgress()).toBe(0);
  });

  it('a failed probe proves nothing: the clock keeps running', async () => {
    const fail = { now: false };
    const { m, tick } = monitor({ 0: 7 }, fail);
    m.assign([{ topic: 't', partition: 0 }]);
    m.skipped('t', 0, 7n);
    fail.now = true;
    tick(45);
    await m.probe();
    expect(m.secondsSinceProgress()).toBe(45);
  });

  it('a partition whose position is unknown makes the lag unknown unless it is empty', async () => {
    const { m } = monitor({ 0: 0, 1: 12 });
    m.assign([{ topic: 't', partition: 0 }]);
    await m.probe();
    expect(m.lag()).toBe(0);
    m.assign([{ topic: 't', partition: 1 }]);
    await m.probe();
    expect(m.lag()).toBeNull();
  });

  it('a new assignment restarts the clock', async () => {
    const { m, tick } = monitor({ 0: 10 });
    m.assign([{ topic: 't', partition: 0 }]);
    m.skipped('t', 0, 0n);
    tick(50);
    m.assign([{ topic: 't', partition: 0 }]);
    expect(m.secondsSinceProgress()).toBe(0);
  });
});
