// vitest globalSetup: runs once per `vitest run` in the main process. It picks the seed
// (so `LAPIS_FC_SEED=random` means one seed for the whole run), prints it once, and hands
// it to every test file through provide/inject (test/setup/fast-check-config.ts).
import type { TestProject } from 'vitest/node';
import { runsScaleFromEnv, seedFromEnv } from './policy.js';

declare module 'vitest' {
  export interface ProvidedContext {
    fcSeed: number;
    fcRunsScale: number;
  }
}

export default function setup(project: TestProject): void {
  const seed = seedFromEnv();
  const scale = runsScaleFromEnv();
  project.provide('fcSeed', seed);
  project.provide('fcRunsScale', scale);
  console.log(`fast-check seed ${seed} (LAPIS_FC_SEED to override), runs ×${scale} (LAPIS_FC_RUNS_SCALE)`);
}
