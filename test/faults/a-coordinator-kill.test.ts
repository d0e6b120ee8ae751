// Guarantee: exactly once when the broker that coordinates the worker's group (and some of its
// transactional ids) dies by kill -9 mid-stream and comes back 20 s later: every input record is in
// the output exactly once, the worker never needs a manual restart, and output resumes within 60 s
// of the cluster being healthy again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultScenario, RESUME_BOUND_MS } from '../support/fault-scenario.js';
import { sleep } from '../support/wait.js';

const scenario = new FaultScenario({
  name: 'a-coordinator-kill',
  records: Number(process.env.FAULTS_RECORDS ?? 24_000),
  rate: 400,
  faultAfterMs: 15_000,
  inject: async ({ cluster, group, log }) => {
    const victim = await cluster.groupCoordinator(group);
    log(`kill -9 broker ${victim} (group coordinator)`);
    await cluster.stopBroker(victim, 'SIGKILL');
    await sleep(20_000);
    log(`restarting broker ${victim}`);
    await cluster.restart(victim);
    await cluster.waitFullIsr(180_000, `full ISR after broker ${victim} came back`);
    return Date.now();
  },
});

describe('broker faults (a): kill -9 of the coordinators’ broker', () => {
  beforeAll(async () => {
    await scenario.setup();
  });
  afterAll(async () => {
    await scenario.teardown();
  });

  it('loses nothing, doubles nothing, needs no restart', async () => {
    const r = await scenario.run();
    expect(r.missing, `lost records; notes:\n${r.notes.join('\n')}\nworker log: ${r.workerLog}`).toBe(0);
    expect(r.duplicated, `duplicated records; worker log: ${r.workerLog}`).toBe(0);
    expect(r.workerExits, `the worker exited on its own; worker log: ${r.workerLog}`).toBe(0);
    expect(r.resumeMs).toBeLessThanOrEqual(RESUME_BOUND_MS);
  });
});
