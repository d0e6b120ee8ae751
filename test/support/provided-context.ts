/**
 * What test/support/global-setup.ts provides to integration tests (read them with `stackEnv()` from
 * ./stack-env.ts, or `inject('kafkaBrokers')` etc. from vitest).
 */
export type StackMode = 'env' | 'containers' | 'local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Comma-separated host:port list. */
    kafkaBrokers: string;
    /** Confluent-compatible registry base URL (Apicurio: .../apis/ccompat/v7). */
    schemaRegistryUrl: string;
    /** postgres:// URL. */
    databaseUrl: string;
    /** Where the stack came from. */
    stackMode: StackMode;
  }
}
