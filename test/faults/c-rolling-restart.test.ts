// Guarantee: exactly once through a rolling restart (what every Kafka upgrade does): each broker in
// turn gets SIGTERM (controlled shutdown), is started again, and the next one goes only when every
// partition is back in full ISR. Every input record is in the output exactly once, the worker needs
// no manual restart, and output resumes within 60 s of the cluster being healthy again.
import { BROKER_IDS } from '../support/cluster.js';
import { faultTest } from '../support/fault-scenario.js';

faultTest('broker faults (c): rolling restart of all three brokers', {
  name: 'c-rolling-restart',
  faultAfterMs: 10_000,
  inject: async ({ cluster, log }) => {
    for (const broker of BROKER_IDS) {
      log(`SIGTERM broker ${broker}`);
      await cluster.stopBroker(broker, 'SIGTERM');
      log(`restarting broker ${broker}`);
      await cluster.restart(broker);
      await cluster.waitFullIsr(180_000, `full ISR after broker ${broker} restarted`);
    }
    return Date.now();
  },
});
