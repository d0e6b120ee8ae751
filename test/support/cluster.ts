/**
 * A 3-broker KRaft cluster for one fault test file (scripts/stack/cluster.ts in its own directory,
 * .stack/faults-cluster, on free ports): start and stop it, kill, pause and restart one broker, wait
 * for full ISR, and find who leads a partition or coordinates a group or a transactional id.
 */
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  clusterDown,
  clusterOptions,
  clusterUp,
  findNode,
  restartNode,
  signalNode,
  waitFullIsr,
  waitNodeGone,
  type ClusterOptions,
  type ClusterState,
} from '../../scripts/stack/cluster.js';
import { PROJECT_ROOT } from '../../scripts/stack.js';

export const BROKER_IDS = [1, 2, 3] as const;

/** Java's String.hashCode (UTF-16 code units, 32-bit wrap), which Kafka uses to place coordinators. */
export function javaHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** Kafka's Utils.abs(id.hashCode) % partitions: the __consumer_offsets / __transaction_state partition. */
export function coordinatorPartition(id: string, partitions: number): number {
  return (javaHashCode(id) & 0x7fffffff) % partitions;
}

export class TestCluster {
  readonly brokers: readonly string[];
  readonly registryUrl: string;

  private constructor(
    private readonly options: ClusterOptions,
    readonly state: ClusterState,
  ) {
    this.brokers = state.brokers.split(',');
    this.registryUrl = state.registryUrl;
  }

  static async start(log: (line: string) => void = () => undefined): Promise<TestCluster> {
    const env = {
      ...process.env,
      STACK_CLUSTER_DIR: join(PROJECT_ROOT, '.stack', 'faults-cluster'),
      STACK_CLUSTER_ENV_FILE: join(PROJECT_ROOT, '.stack', 'faults-cluster.env'),
    };
    const options = { ...clusterOptions(env, 3), log };
    // A fresh cluster per file: a scenario must not inherit the last one's damage.
    await clusterDown(options);
    return new TestCluster(options, await clusterUp(options));
  }

  async stop(): Promise<void> {
    await clusterDown(this.options);
  }

  private node(broker: number) {
    return findNode(this.state, `broker-${broker}`);
  }

  /** Sends a signal to one broker (SIGKILL, SIGTERM, SIGSTOP, SIGCONT). */
  signal(broker: number, signal: NodeJS.Signals): void {
    if (!signalNode(this.state, this.node(broker), signal))
      throw new Error(`broker-${broker} is not running`);
  }

  /** SIGKILL or SIGTERM, and waits until the process is gone. */
  async stopBroker(broker: number, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    this.signal(broker, signal);
    await waitNodeGone(this.state, this.node(broker), 60_000);
  }

  /** Starts a stopped broker again (same port, same data). */
  async restart(broker: number): Promise<void> {
    await restartNode(this.state, this.node(broker));
  }

  /** Waits until every broker is registered and every partition has all its replicas in sync. */
  async waitFullIsr(timeoutMs = 180_000, what = 'full ISR on every partition'): Promise<void> {
    await waitFullIsr(this.brokers, timeoutMs, what);
  }

  private async withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
    const kafka = new Kafka({
      clientId: 'faults-cluster-admin',
      brokers: [...this.brokers],
      logLevel: logLevel.NOTHING,
      connectionTimeout: 2000,
      requestTimeout: 5000,
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 1000 },
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** The broker id leading topic[partition] (-1 when it has none). */
  async leaderOf(topic: string, partition: number): Promise<number> {
    return this.withAdmin(async (admin) => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0]?.partitions.find((p) => p.partitionId === partition)?.leader ?? -1;
    });
  }

  /** The broker coordinating a consumer group: the leader of its __consumer_offsets partition. */
  async groupCoordinator(groupId: string): Promise<number> {
    return this.leaderOf('__consumer_offsets', coordinatorPartition(groupId, this.state.internalPartitions));
  }

  /** The broker coordinating a transactional id: the leader of its __transaction_state partition. */
  async transactionCoordinator(transactionalId: string): Promise<number> {
    return this.leaderOf(
      '__transaction_state',
      coordinatorPartition(transactionalId, this.state.internalPartitions),
    );
  }
}
