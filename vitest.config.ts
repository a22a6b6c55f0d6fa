import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// lavapipe (the software Vulkan driver of the GPU tests without a GPU) compiles each shader
// with LLVM, which is nearly all of test/gpu's time there; at 4-wide vectors it compiles in
// about half the time. Only lavapipe reads it; a setting in the environment wins.
process.env.LP_NATIVE_VECTOR_WIDTH ??= '128';

// GPU test files run two at a time: lavapipe compiles a process's shaders one after another
// on one thread, so a second process keeps the second core of a 2-core runner compiling
// (test/helpers/gpu.ts stops Dawn's polling from taking it). LAPIS_GPU_TEST_WORKERS overrides.
const gpuWorkers = Number(process.env.LAPIS_GPU_TEST_WORKERS) || Math.min(2, availableParallelism());

export default defineConfig({
  resolve: {
    // Tests import `fast-check` through a thin wrapper that applies the suite's run policy
    // (fixed printed seed, LAPIS_FC_RUNS_SCALE): see test/setup/ and docs/testing.md.
    alias: [{ find: /^fast-check$/, replacement: fileURLToPath(new URL('./test/setup/fast-check.ts', import.meta.url)) }],
  },
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/fast-check-config.ts'],
    pool: 'forks',
    projects: [
      {
        extends: true,
        // The native addon's thread pool and the timing-sensitive hardening tests want the
        // machine to themselves: one file at a time, before the GPU files.
        // (test/gpu is left out by the include, not by an exclude of its own, which would replace
        // the command line's --exclude instead of adding to it)
        test: { name: 'cpu', include: ['test/*.test.ts', 'test/!(gpu|property|core)/**/*.test.ts', 'test/gpu-*/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // The property and core tests keep no state between files: one process for all of them
        // (a fork per file spent about 1.5 s importing the library and mathjs again each time).
        test: { name: 'cpu-shared', include: ['test/property/**/*.test.ts', 'test/core/**/*.test.ts'], fileParallelism: false, isolate: false, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'gpu', include: ['test/gpu/**/*.test.ts'], maxWorkers: gpuWorkers, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
