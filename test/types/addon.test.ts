// Type-level test of the native boundary (issue 11: "tsc rejects a native call with a
// misspelt option"): each `@ts-expect-error` line is a call tsc must reject
// (`npx tsc -p .ci/tsconfig.tests.json` fails if it accepts one); the runtime assertions
// check that the addon rejects the same calls with a TypeError naming the option.
import { describe, it, expect } from 'vitest';
import { native } from '../../src/backend/cpu/binding.js';

describe('Addon types: a misspelt native option does not compile, and throws at run time', () => {
  it('luFactor / inv / qr / solve with a misspelt or positional argument', () => {
    const A = Float64Array.of(4, 3, 6, 3), LU = new Float64Array(4), pivots = new Int32Array(2), info = new Int32Array(1);
    // the correct call compiles and factors [[4, 3], [6, 3]]
    native().luFactor({ dtype: 1, A, LU, pivots, info, count: 1, m: 2, n: 2, async: false });
    expect(Array.from(pivots)).toEqual([2, 2]);
    expect(info[0]).toBe(0);
    expect(LU[0]).toBe(6);

    // misspelt `n` (as `N`)
    // @ts-expect-error N is not an option of luFactor, and n is missing
    expect(() => native().luFactor({ dtype: 1, A, LU, pivots, info, count: 1, m: 2, N: 2, async: false }))
      .toThrow(new TypeError('luFactor: option n is missing'));

    // the old positional form
    // @ts-expect-error the addon takes one options object
    expect(() => native().inv(1, A, new Float64Array(4), info, 1, 2, false)).toThrow(new TypeError('inv: expects one options object'));

    // misspelt `mode` (as `mod`)
    // @ts-expect-error mod is not an option of qr
    expect(() => native().qr({ dtype: 1, A, Q: null, R: new Float64Array(4), batch: 1, m: 2, n: 2, mod: 2 }))
      .toThrow(new TypeError('qr: option mode is missing'));

    // an optional-in-meaning field may not be left out: it is passed as null
    // @ts-expect-error bIdx is required (null for no broadcast map)
    expect(() => native().solve({ dtype: 1, A, B: Float64Array.of(1, 2), X: new Float64Array(2), info, count: 1, n: 2, k: 1, aIdx: null, aCount: 1, bCount: 1, async: false }))
      .toThrow(new TypeError('solve: option bIdx is missing'));

    // a wrong field type (a dtype code that does not exist)
    // @ts-expect-error 7 is not a DTypeCode
    expect(() => native().inv({ dtype: 7, A, X: new Float64Array(4), info, count: 1, n: 2, async: false }))
      .toThrow(new TypeError('inv: unsupported dtype code 7'));

    // async: true returns a Promise (typed), async: false returns nothing
    const p: Promise<void> = native().inv({ dtype: 1, A, X: new Float64Array(4), info, count: 1, n: 2, async: true });
    expect(p).toBeInstanceOf(Promise);
    return p;
  });
});
