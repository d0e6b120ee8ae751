// Guarantee: exactly once when the broker that coordinates the worker's group is paused (SIGSTOP)
// for 30 s mid-stream and then continues (SIGCONT): connections stay open but nothing answers. Every
// input record is in the output exactly once, the worker needs no manual restart, and output resumes
// within 60 s of the cluster being healthy again.
import { faultTest } from '../support/fault-scenario.js';
import { sleep } from '../support/wait.js';

faultTest('broker faults (b): SIGSTOP of the coordinators’ broker for 30 s', {
  name: 'b-coordinator-pause',
  faultAfterMs: 15_000,
  inject: async ({ cluster, group, log }) => {
    const victim = await cluster.groupCoordinator(group);
    log(`SIGSTOP broker ${victim} (group coordinator)`);
    cluster.signal(victim, 'SIGSTOP');
    await sleep(30_000);
    log(`SIGCONT broker ${victim}`);
    cluster.signal(victim, 'SIGCONT');
    await cluster.waitFullIsr(180_000, `full ISR after broker ${victim} continued`);
    return Date.now();
  },
});
