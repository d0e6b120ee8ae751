// Guarantee: exactly once when the broker that coordinates the worker's group (and some of its
// transactional ids) dies by kill -9 mid-stream and comes back 20 s later: every input record is in
// the output exactly once, the worker needs no manual restart, and output resumes within 60 s of the
// cluster being healthy again.
import { faultTest } from '../support/fault-scenario.js';
import { sleep } from '../support/wait.js';

faultTest('broker faults (a): kill -9 of the coordinators’ broker, back after 20 s', {
  name: 'a-coordinator-kill',
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
