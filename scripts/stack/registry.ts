/** The Apicurio Registry JVM (Confluent-compatible API, schemas in memory). */
import { dirname } from 'node:path';
import { findRegistryJar } from './artifacts.js';
import { findJava, registryJavaMajor } from './java.js';
import { paths, type StackOptions } from './options.js';
import { spawnJava } from './processes.js';
import { StackError, rotateLog, runStep } from './util.js';

export async function startRegistry(o: StackOptions): Promise<void> {
  const p = paths(o);
  const logFile = p.logFile('registry');
  const java = await runStep('find Java for the registry', 'registry', undefined, () =>
    findJava(o.registryJava, registryJavaMajor(o.apicurioVersion), `Apicurio Registry ${o.apicurioVersion}`),
  );
  rotateLog(logFile);
  const jar = findRegistryJar(p.registryHome);
  if (jar === undefined)
    throw new StackError('start registry', 'registry', 'quarkus-run.jar not found', logFile);
  await runStep('start registry', 'registry', logFile, () =>
    spawnJava(
      o,
      'registry',
      java,
      [
        '-Xms64m',
        `-Xmx${o.registryHeap}`,
        '-XX:+UseSerialGC',
        '-XX:+ExitOnOutOfMemoryError',
        `-Dquarkus.http.host=${o.host}`,
        `-Dquarkus.http.port=${o.registryPort}`,
        // Health lives on Quarkus' management interface, by default 0.0.0.0:9000: keep it local and ours.
        `-Dquarkus.management.host=${o.host}`,
        `-Dquarkus.management.port=${o.registryManagementPort}`,
        // So tests can clean up after themselves.
        '-Dapicurio.rest.deletion.group.enabled=true',
        '-Dapicurio.rest.deletion.artifact.enabled=true',
        '-Dapicurio.rest.deletion.artifact-version.enabled=true',
        '-jar',
        jar,
      ],
      dirname(jar),
    ),
  );
}
