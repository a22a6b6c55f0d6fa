import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// lavapipe (the software Vulkan driver of the GPU tests without a GPU) compiles each shader
// with LLVM, which is nearly all of test/gpu's time there; at 4-wide vectors it compiles in
// about half the time. Only lavapipe reads it; a setting in the environment wins.
process.env.LP_NATIVE_VECTOR_WIDTH ??= '128';

export default defineConfig({
  resolve: {
    // Tests import `fast-check` through a thin wrapper that applies the suite's run policy
    // (fixed printed seed, LAPIS_FC_RUNS_SCALE): see test/setup/ and docs/testing.md.
    alias: [{ find: /^fast-check$/, replacement: fileURLToPath(new URL('./test/setup/fast-check.ts', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/fast-check-config.ts'],
    // The native addon and the WebGPU device are process-wide singletons; one fork keeps
    // a single Dawn instance alive instead of one per worker (lavapipe is slow to start).
    pool: 'forks',
    fileParallelism: false,
  },
});
