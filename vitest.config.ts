import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The native addon and the WebGPU device are process-wide singletons; one fork keeps
    // a single Dawn instance alive instead of one per worker (lavapipe is slow to start).
    pool: 'forks',
    fileParallelism: false,
  },
});
