// Guarantee (issue 12, E2): on SIGTERM an idle worker leaves the group, stops and exits 0 promptly,
// not after the whole SHUTDOWN_DEADLINE_MS (a timer nobody cleared used to keep it alive).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodTransaction, startHostileRun, type HostileRun } from './hostile-input-harness.js';

describe('worker: prompt exit (E2)', () => {
  let run: HostileRun;
  beforeAll(async () => {
    run = await startHostileRun('e2', { SHUTDOWN_DEADLINE_MS: '120000' });
  });
  afterAll(async () => {
    if (run && run.worker.child.exitCode === null) run.worker.child.kill('SIGKILL');
  });

  it('exits 0 within seconds of SIGTERM while the deadline is two minutes', async () => {
    await run.send([{ case: 'one', value: JSON.stringify(goodTransaction('e2-one')) }]);
    await run.enriched(['e2-one']);
    const started = Date.now();
    const exit = await run.stop();
    const seconds = (Date.now() - started) / 1000;
    expect(exit).toEqual({ code: 0, signal: null });
    // Far below the 120 s deadline: nothing waits for it when there is nothing to finish.
    expect(seconds).toBeLessThan(30);
    expect(run.worker.logs()).toContain('worker stopped');
  });
});
