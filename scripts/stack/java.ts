/** Finding a java binary of a sufficient version for Kafka and for the registry. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function javaMajor(java: string): number | undefined {
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (result.status !== 0) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (match === null) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

/** First java among the candidates with at least `minMajor`. */
export function findJava(explicit: string | undefined, minMajor: number, purpose: string): string {
  const candidates: string[] = [];
  if (explicit !== undefined) candidates.push(explicit);
  else {
    if (process.env.JAVA_HOME) candidates.push(join(process.env.JAVA_HOME, 'bin', 'java'));
    candidates.push('java');
    if (existsSync('/usr/lib/jvm')) {
      const jvms = readdirSync('/usr/lib/jvm')
        .map((d) => join('/usr/lib/jvm', d, 'bin', 'java'))
        .filter((j) => existsSync(j));
      candidates.push(...jvms);
    }
  }
  const seen: string[] = [];
  for (const java of candidates) {
    const major = javaMajor(java);
    seen.push(`${java}: ${major ?? 'not runnable'}`);
    if (major !== undefined && major >= minMajor) return java;
  }
  throw new Error(
    `${purpose} needs Java ${minMajor}+; none found (${seen.join('; ')}). Set ${
      purpose.startsWith('Kafka') ? 'STACK_KAFKA_JAVA' : 'STACK_REGISTRY_JAVA'
    } to a java binary.`,
  );
}

/** Apicurio Registry 3.2+ is built for Java 21; earlier 3.x run on 17. */
export function registryJavaMajor(version: string): number {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 3 || (major === 3 && minor >= 2) ? 21 : 17;
}

/**
 * A Kafka node's JVM command line. `gc` is the collector's flags: G1 with short pauses for the single
 * node the tests share, the serial collector for the six small JVMs of a cluster on two cores.
 */
export function kafkaJvmArgs(
  heap: { min: string; max: string },
  gc: readonly string[],
  classpath: string,
  config: string,
): string[] {
  return [
    `-Xms${heap.min}`,
    `-Xmx${heap.max}`,
    ...gc,
    '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true',
    '-Dorg.slf4j.simpleLogger.showDateTime=true',
    "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS",
    '-cp',
    classpath,
    'kafka.Kafka',
    config,
  ];
}
