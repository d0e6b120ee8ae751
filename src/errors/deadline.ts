/**
 * A bound on any wait for a dependency. Every call to the broker, the registry or the database that
 * could hang (a broker frozen by SIGSTOP answers nothing, and kafkajs waits on some calls for ever)
 * goes through here, so a stuck dependency becomes an infrastructure error the caller's failure
 * policy handles, never a silent hang.
 */
import { InfrastructureError, type InfraErrorCode } from './catalog.js';

export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  code: InfraErrorCode,
  what: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new InfrastructureError(code, `${what}: no answer within ${ms} ms`)), ms);
  });
  // The abandoned work may still fail later: that must not become an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
