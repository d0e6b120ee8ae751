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

/**
 * The work's outcome within `ms`, or 'late': for work that may go on in the background (a consumer
 * still joining its group), where the caller watches it by other means rather than failing. A
 * failure within `ms` is thrown; one after it is dropped here (the caller's watch sees it).
 */
export async function withinDeadline(work: Promise<void>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined);
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
