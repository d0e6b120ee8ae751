/**
 * Local development stack without Docker: a single-node KRaft Apache Kafka broker (broker + controller
 * in one JVM) and an Apicurio Registry (Confluent-compatible API), both from Maven Central.
 *
 *   tsx scripts/stack.ts up        fetch (cached), start, wait until really ready, write .env.stack
 *   tsx scripts/stack.ts down      stop exactly the processes `up` started (PID files), remove .env.stack
 *   tsx scripts/stack.ts status    show what runs, where
 *   tsx scripts/stack.ts logs [kafka|registry] [-n LINES] [-f]
 *
 *   tsx scripts/stack.ts up|down|status --brokers 3   the 3-broker cluster (scripts/stack/cluster.ts)
 *
 * npm scripts: stack:up, stack:down, stack:status, stack:logs. The vitest global setup imports
 * {@link stackUp} / {@link stackDown} from here. This file is the entry and the public face; the
 * parts live in scripts/stack/: options.ts (environment, paths), processes.ts (PID files, markers,
 * ports, lock), java.ts, artifacts.ts (Maven), kafka-node.ts, registry.ts, probes.ts (readiness),
 * commands.ts (up/down/status), cli.ts, cluster.ts and cluster-node.ts (the cluster mode).
 *
 * Nothing is ever killed by name: each JVM gets a marker system property
 * (-Dtxenrich.stack=<component>@<stack dir>) and a PID file; a PID is only signalled when the process
 * is alive and its command line carries our marker. The stack is ephemeral: each start formats a fresh
 * broker (the registry keeps schemas in memory, so old topic data would point at unknown schema ids).
 *
 * Environment (all optional): STACK_DIR, STACK_ENV_FILE, STACK_KAFKA_VERSION, STACK_APICURIO_VERSION,
 * STACK_KAFKA_PORT, STACK_KAFKA_CONTROLLER_PORT, STACK_REGISTRY_PORT, STACK_REGISTRY_MANAGEMENT_PORT,
 * STACK_KAFKA_HEAP, STACK_REGISTRY_HEAP, STACK_KAFKA_JAVA, STACK_REGISTRY_JAVA, STACK_READY_TIMEOUT_MS,
 * STACK_MVN.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './stack/cli.js';
import { StackError } from './stack/util.js';

export { fetchArtifacts, findRegistryJar } from './stack/artifacts.js';
export { stackDown, stackStatus, stackUp, type ComponentStatus } from './stack/commands.js';
export { findJava, registryJavaMajor } from './stack/java.js';
export { randomClusterId } from './stack/kafka-node.js';
export {
  COMPONENTS,
  PROJECT_ROOT,
  paths,
  stackAddresses,
  stackOptions,
  type Component,
  type StackAddresses,
  type StackOptions,
  type StackUpResult,
} from './stack/options.js';
export { commandLine, freePort, isPortOpen } from './stack/processes.js';
export { probeKafka, probeRegistry } from './stack/probes.js';
export { StackError, rotateLog, runLogged, runStep, tail } from './stack/util.js';

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `stack ${process.argv[2] ?? ''} failed: ${error instanceof StackError ? error.report() : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
