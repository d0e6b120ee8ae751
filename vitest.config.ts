import { defineConfig } from 'vitest/config';

// Two projects: `unit` is pure and needs no infrastructure; `integration` talks to a real Kafka
// broker, schema registry and PostgreSQL brought up (or found) by test/support/global-setup.ts.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/support/kafkajs-first.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/kafkajs-first.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
