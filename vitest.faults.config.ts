import { defineConfig } from 'vitest/config';

// The broker fault suite (npm run test:faults): each file starts its own 3-broker cluster
// (test/support/cluster.ts), so files run one at a time and there is no global stack.
export default defineConfig({
  test: {
    name: 'faults',
    include: ['test/faults/**/*.test.ts'],
    setupFiles: ['test/support/kafkajs-first.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
