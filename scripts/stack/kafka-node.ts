/** The single-node Kafka: one KRaft JVM that is broker and controller, formatted fresh at each start. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findJava, kafkaJvmArgs } from './java.js';
import { paths, type StackOptions } from './options.js';
import { spawnJava } from './processes.js';
import { rotateLog, runLogged, runStep } from './util.js';

/**
 * A cluster id: 16 random bytes, base64url without padding (what StorageTool random-uuid prints).
 * Like Kafka's own Uuid.randomUuid, never one that starts with '-': StorageTool's argument parser
 * reads `-t -XBT...` as a missing value followed by an unknown option (1 start in 64 failed so).
 */
export function randomClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export function kafkaProperties(o: StackOptions, dataDir: string): string {
  const h = o.host;
  return [
    '# Written by scripts/stack.ts: one node that is broker and controller (KRaft).',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@${h}:${o.controllerPort}`,
    `listeners=PLAINTEXT://${h}:${o.kafkaPort},CONTROLLER://${h}:${o.controllerPort}`,
    `advertised.listeners=PLAINTEXT://${h}:${o.kafkaPort}`,
    'inter.broker.listener.name=PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=1',
    'default.replication.factor=1',
    'min.insync.replicas=1',
    // One node: internal topics must not ask for three replicas, or groups and transactions hang.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    // Small footprint: the stack shares a 2-core machine with the tests.
    'num.network.threads=2',
    'num.io.threads=4',
    'background.threads=4',
    'log.cleaner.dedupe.buffer.size=16777216',
    '',
  ].join('\n');
}

export async function startKafka(o: StackOptions): Promise<void> {
  const p = paths(o);
  const logFile = p.logFile('kafka');
  const java = await runStep('find Java for Kafka', 'kafka', undefined, () =>
    findJava(o.kafkaJava, 17, 'Kafka 4.x'),
  );
  const classpath = `${p.kafkaLib}/*`;
  rotateLog(logFile);
  await runStep('format Kafka storage', 'kafka', logFile, () => {
    rmSync(join(p.run, 'kafka'), { recursive: true, force: true });
    mkdirSync(p.kafkaData, { recursive: true });
    writeFileSync(p.kafkaConfig, kafkaProperties(o, p.kafkaData));
    const clusterId = randomClusterId();
    runLogged(
      java,
      [
        '-Xmx256m',
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
        '-cp',
        classpath,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        clusterId,
        '-c',
        p.kafkaConfig,
      ],
      logFile,
    );
  });
  await runStep('start Kafka', 'kafka', logFile, () =>
    spawnJava(
      o,
      'kafka',
      java,
      kafkaJvmArgs(
        { min: '128m', max: o.kafkaHeap },
        ['-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20'],
        classpath,
        p.kafkaConfig,
      ),
      join(p.run, 'kafka'),
    ),
  );
}
