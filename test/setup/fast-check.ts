// `fast-check` as the tests see it (vitest.config.ts aliases the bare name here): the real
// module with `assert` scaling an explicit `numRuns` by LAPIS_FC_RUNS_SCALE, so one knob
// raises every property's runs without editing each file. Everything else is untouched.
import * as real from '../../node_modules/fast-check/lib/fast-check.js';
import { inject } from 'vitest';
import { scaledRuns } from './policy.js';

export * from '../../node_modules/fast-check/lib/fast-check.js';

export const assert = ((property: real.IRawProperty<unknown>, params?: real.Parameters<unknown>) => {
  if (params?.numRuns !== undefined) {
    params = { ...params, numRuns: scaledRuns(params.numRuns, inject('fcRunsScale')) };
  }
  return real.assert(property, params);
}) as typeof real.assert;

const fc: typeof real.default = { ...real.default, assert };
export default fc;
