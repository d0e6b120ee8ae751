/**
 * Loads the service configuration from the environment exactly as the service does, and prints it
 * (secrets masked). A bad value prints every bad variable with its rule to stderr and exits 78.
 *
 *   npm run config:check            # or: BATCH_MAX_RECORDS=0 npx tsx scripts/check-config.ts
 */
import { SETTINGS, loadConfigOrExit } from '../src/config.js';

const config = loadConfigOrExit();
const secret = new Set(
  Object.entries(SETTINGS)
    .filter(([, def]) => 'secret' in def && def.secret === true)
    .map(([key]) => key),
);
const printable = Object.fromEntries(
  Object.entries(config).map(([key, value]) => [
    key,
    secret.has(key) && typeof value === 'string'
      ? value.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')
      : value instanceof RegExp
        ? value.source
        : value,
  ]),
);
process.stdout.write(`${JSON.stringify(printable, null, 2)}\n`);
