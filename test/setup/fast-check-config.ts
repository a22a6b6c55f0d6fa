// vitest setupFiles: runs in each test file's process before the file. Every property
// without its own numRuns gets BASE_RUNS × scale; fast-check.ts scales the explicit ones.
import fc from 'fast-check';
import { inject } from 'vitest';
import { BASE_RUNS, scaledRuns } from './policy.js';

const seed = inject('fcSeed');
const scale = inject('fcRunsScale');
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed, numRuns: scaledRuns(BASE_RUNS, scale) });
