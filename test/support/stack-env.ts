import { inject } from 'vitest';
import type { StackMode } from './provided-context.js';

export interface StackEnv {
  readonly kafkaBrokers: readonly string[];
  readonly schemaRegistryUrl: string;
  readonly databaseUrl: string;
  readonly mode: StackMode;
}

/**
 * The addresses the global setup provided (call inside a test file of the integration project). Also
 * sets KAFKA_BROKERS, SCHEMA_REGISTRY_URL and DATABASE_URL in this worker's process.env, so code that
 * reads its configuration from the environment finds the test stack.
 */
export function stackEnv(): StackEnv {
  const kafkaBrokers = inject('kafkaBrokers');
  const schemaRegistryUrl = inject('schemaRegistryUrl');
  const databaseUrl = inject('databaseUrl');
  const mode = inject('stackMode');
  if (kafkaBrokers === undefined || schemaRegistryUrl === undefined || databaseUrl === undefined) {
    throw new Error('no test stack provided: run this file in the vitest "integration" project');
  }
  process.env.KAFKA_BROKERS = kafkaBrokers;
  process.env.SCHEMA_REGISTRY_URL = schemaRegistryUrl;
  process.env.DATABASE_URL = databaseUrl;
  return {
    kafkaBrokers: kafkaBrokers.split(',').map((b) => b.trim()),
    schemaRegistryUrl,
    databaseUrl,
    mode,
  };
}
