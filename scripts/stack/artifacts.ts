/** Kafka's jars and the registry's archive from Maven Central (cached in ~/.m2 and .stack/downloads). */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT, paths, type Component, type StackOptions } from './options.js';
import { runLogged, runStep } from './util.js';

/** Maven copies the Kafka jars and the registry archive into .stack/downloads (cached in ~/.m2). */
export async function fetchArtifacts(o: StackOptions, need: readonly Component[]): Promise<void> {
  const p = paths(o);
  const kafkaDone = join(p.kafkaLib, '.complete');
  const registryDone = join(p.registryHome, '.complete');
  const goals: string[] = [];
  if (need.includes('kafka') && !existsSync(kafkaDone)) goals.push('dependency:copy-dependencies@kafka');
  if (need.includes('registry') && !existsSync(registryDone) && !existsSync(p.registryArchive)) {
    goals.push('dependency:copy@registry');
  }
  if (goals.length > 0) {
    // The fault suite may be the first stack command of a fresh checkout: nothing made .stack/run yet.
    mkdirSync(dirname(p.mavenLog), { recursive: true });
    o.log(`fetching ${goals.map((g) => g.split('@')[1]).join(' and ')} with Maven (log: ${p.mavenLog})`);
    await runStep('fetch artifacts with Maven', 'maven', p.mavenLog, () =>
      runLogged(
        o.mvn,
        [
          '-B',
          '-q',
          '-Dstyle.color=never',
          '-f',
          join(PROJECT_ROOT, 'scripts', 'stack', 'pom.xml'),
          ...goals,
          `-Dkafka.version=${o.kafkaVersion}`,
          `-Dapicurio.version=${o.apicurioVersion}`,
          `-Dstack.kafka.dir=${p.kafkaLib}`,
          `-Dstack.registry.dir=${p.downloads}`,
        ],
        p.mavenLog,
      ),
    );
    if (goals.some((g) => g.endsWith('@kafka'))) writeFileSync(kafkaDone, new Date().toISOString());
  }
  if (need.includes('registry') && !existsSync(registryDone)) {
    o.log(`unpacking Apicurio Registry ${o.apicurioVersion}`);
    await runStep('unpack registry archive', 'maven', p.mavenLog, () => {
      rmSync(p.registryHome, { recursive: true, force: true });
      mkdirSync(p.registryHome, { recursive: true });
      runLogged('tar', ['-xzf', p.registryArchive, '-C', p.registryHome], p.mavenLog);
      if (findRegistryJar(p.registryHome) === undefined) throw new Error('no quarkus-run.jar in the archive');
      writeFileSync(registryDone, new Date().toISOString());
      rmSync(p.registryArchive, { force: true });
    });
  }
}

export function findRegistryJar(dir: string): string | undefined {
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    for (const entry of readdirSync(current)) {
      const full = join(current, entry);
      if (entry === 'quarkus-run.jar' || entry.endsWith('-runner.jar')) return full;
      if (statSync(full).isDirectory()) stack.push(full);
    }
  }
  return undefined;
}
