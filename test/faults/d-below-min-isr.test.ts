// Guarantee: exactly once when two of three brokers die by kill -9 for 30 s (below min.insync.replicas
// = 2: nothing can be written or committed) and come back: the worker waits, then resumes by itself.
// Every input record is in the output exactly once, the worker needs no manual restart, and output
// resumes within 60 s of the cluster being healthy again.
import { BROKER_IDS } from '../support/cluster.js';
import { faultTest } from '../support/fault-scenario.js';
import { sleep } from '../support/wait.js';

faultTest('broker faults (d): two brokers killed for 30 s (below min ISR)', {
  name: 'd-below-min-isr',
  faultAfterMs: 15_000,
  inject: async ({ cluster, group, log }) => {
    const coordinator = await cluster.groupCoordinator(group);
    const victims = [coordinator, BROKER_IDS.find((b) => b !== coordinator) as number];
    log(`kill -9 brokers ${victims.join(' and ')} (group coordinator ${coordinator})`);
    await Promise.all(victims.map((b) => cluster.stopBroker(b, 'SIGKILL')));
    await sleep(30_000);
    log(`restarting brokers ${victims.join(' and ')}`);
    await Promise.all(victims.map((b) => cluster.restart(b)));
    await cluster.waitFullIsr(180_000, `full ISR after brokers ${victims.join(' and ')} came back`);
    return Date.now();
  },
});
