import { describe, expect, it } from 'vitest';
import { withDeadline, withinDeadline } from '../../../src/errors/deadline.js';

describe('withDeadline', () => {
  it('passes the answer through', async () => {
    await expect(withDeadline(Promise.resolve(3), 1000, 'KAFKA_UNAVAILABLE', 'x')).resolves.toBe(3);
  });

  it('turns a wait that never ends into an infrastructure error naming the step', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withDeadline(never, 20, 'KAFKA_UNAVAILABLE', 'committing')).rejects.toMatchObject({
      code: 'KAFKA_UNAVAILABLE',
      kind: 'infrastructure',
      message: 'KAFKA_UNAVAILABLE: committing: no answer within 20 ms',
    });
  });

  it('a late failure of abandoned work is not an unhandled rejection', async () => {
    let fail: (e: Error) => void = () => undefined;
    const late = new Promise<never>((_, reject) => {
      fail = reject;
    });
    await expect(withDeadline(late, 5, 'REGISTRY_UNAVAILABLE', 'fetching')).rejects.toThrow();
    fail(new Error('too late'));
    await new Promise((r) => setTimeout(r, 10));
  });
});

describe('withinDeadline', () => {
  it('says done when the work ends in time', async () => {
    await expect(withinDeadline(Promise.resolve(), 1000)).resolves.toBe('done');
  });

  it('says late, without failing, when the work goes on past the deadline', async () => {
    await expect(withinDeadline(new Promise<void>(() => undefined), 10)).resolves.toBe('late');
  });

  it('throws a failure within the deadline', async () => {
    await expect(withinDeadline(Promise.reject(new Error('no broker')), 1000)).rejects.toThrow('no broker');
  });

  it('a failure after the deadline is not an unhandled rejection', async () => {
    let fail: (e: Error) => void = () => undefined;
    const work = new Promise<void>((_, reject) => {
      fail = reject;
    });
    await expect(withinDeadline(work, 5)).resolves.toBe('late');
    fail(new Error('too late'));
    await new Promise((r) => setTimeout(r, 10));
  });
});
