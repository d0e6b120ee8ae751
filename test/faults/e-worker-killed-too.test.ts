// Guarantee: exactly once when, as in (a), the coordinators' broker dies by kill -9 and comes back
// after 20 s, and during that outage the worker itself is killed (SIGKILL) and a new worker starts:
// the new worker fences the old one's transactions and resumes from the committed offsets. Every
// input record is in the output exactly once and output resumes within 60 s of the cluster being
// healthy again.
import { faultTest } from '../support/fault-scenario.js';
import { sleep } from '../support/wait.js';

faultTest('broker faults (e): kill -9 of the coordinators’ broker and of the worker', {
  name: 'e-worker-killed-too',
  faultAfterMs: 15_000,
  inject: async ({ cluster, group, log, replaceWorker }) => {
    const victim = await cluster.groupCoordinator(group);
    log(`kill -9 broker ${victim} (group coordinator)`);
    await cluster.stopBroker(victim, 'SIGKILL');
    await sleep(7_000);
    log('kill -9 the worker; starting a new one');
    await replaceWorker();
    await sleep(13_000);
    log(`restarting broker ${victim}`);
    await cluster.restart(victim);
    await cluster.waitFullIsr(180_000, `full ISR after broker ${victim} came back`);
    return Date.now();
  },
});
