// The indexing bindings (native/binding/indexing.cpp) under hostile calls: views that reach
// outside the array (through the offset, a negative stride or a stride large enough to
// overflow the offset arithmetic), short outputs, malformed shapes, flat indices out of
// range, wrong element types. Each must be a RangeError/TypeError naming the op, never a
// read or write out of bounds; a valid call right after still computes.
import { describe, it, expect } from 'vitest';
import { native } from '../../src/backend/cpu/binding.js';

const f64 = (...v: number[]) => Float64Array.from(v);
const x = () => f64(0, 1, 2, 3, 4, 5);

type Strided = Parameters<ReturnType<typeof native>['stridedCopy']>[0];
const view = (o: Partial<Strided>): Strided => ({
  dtype: 1, x: x(), out: new Float64Array(6), shape: f64(2, 3), strides: f64(3, 1), offset: 0, conj: false, ...o,
});

describe('indexing bindings refuse what would leave the arrays', () => {
  it('stridedCopy: every reachable offset checked', () => {
    const bad: [string, Partial<Strided>, RegExp][] = [
      ['offset past the end', { offset: 1 }, /stridedCopy: the view reaches outside x/],
      ['negative offset', { offset: -1, shape: f64(1), strides: f64(1) }, /outside x/],
      ['negative stride before 0', { shape: f64(3), strides: f64(-1), offset: 1 }, /outside x/],
      ['stride too large', { shape: f64(2), strides: f64(6) }, /outside x/],
      ['overflowing stride', { shape: f64(3, 2), strides: f64(2 ** 52, -(2 ** 52)), offset: 0 }, /outside x/],
      ['huge shape, zero stride', { shape: f64(2 ** 40, 2 ** 40), strides: f64(0, 0), out: new Float64Array(6) }, /too large|out holds/],
      ['short out', { out: new Float64Array(5) }, /stridedCopy: out holds 5 elements, needs 6/],
      ['rank mismatch', { strides: f64(1) }, /one entry per dim/],
      ['non-integer stride', { strides: f64(3, 0.5) }, /integers/],
      ['negative size', { shape: f64(-1, 3) }, /integers/],
      ['non-integer offset', { offset: 0.5 }, /offset must be an integer/],
    ];
    for (const [name, o, msg] of bad) {
      expect(() => native().stridedCopy(view(o)), name).toThrow(RangeError);
      expect(() => native().stridedCopy(view(o)), name).toThrow(msg);
    }
    expect(() => native().stridedCopy(view({ x: new Float32Array(6) }))).toThrow(TypeError);
    expect(() => native().stridedCopy(view({ dtype: 9 as never }))).toThrow(/unsupported dtype code 9/);
    // reversed, with a negative stride from the last element: fine
    const o = view({ shape: f64(6), strides: f64(-1), offset: 5 });
    native().stridedCopy(o);
    expect(Array.from(o.out)).toEqual([5, 4, 3, 2, 1, 0]);
    // an empty view reads nothing, whatever its offset
    native().stridedCopy(view({ shape: f64(0, 3), offset: 1e9 }));
  });

  it('triangle, concat: sizes against the arrays', () => {
    const tri = { dtype: 1 as const, x: x(), out: new Float64Array(6), count: 1, m: 2, n: 3, upper: true, k: 0 };
    expect(() => native().triangle({ ...tri, count: 2 })).toThrow(/triangle: x and out must hold count·m·n elements/);
    expect(() => native().triangle({ ...tri, out: new Float64Array(5) })).toThrow(RangeError);
    expect(() => native().triangle({ ...tri, m: -1 })).toThrow(RangeError);
    native().triangle({ ...tri, k: 2 ** 53 - 1 });
    expect(Array.from(tri.out)).toEqual([0, 0, 0, 0, 0, 0]);
    const cat = { dtype: 1 as const, xs: [f64(1, 2), f64(3)], out: new Float64Array(3), outer: 1, sizes: f64(2, 1) };
    expect(() => native().concat({ ...cat, sizes: f64(2, 2) })).toThrow(/concat: xs\[1\] holds 1 elements/);
    expect(() => native().concat({ ...cat, sizes: f64(2) })).toThrow(/one entry per part/);
    expect(() => native().concat({ ...cat, outer: 2 })).toThrow(RangeError);
    expect(() => native().concat({ ...cat, out: new Float64Array(2) })).toThrow(/out is too short/);
    expect(() => native().concat({ ...cat, xs: f64(1) as never })).toThrow(/xs must be an array/);
    expect(() => native().concat({ ...cat, xs: [f64(1, 2), new Float32Array(1)] })).toThrow(TypeError);
    native().concat(cat);
    expect(Array.from(cat.out)).toEqual([1, 2, 3]);
  });

  it('take, put: every index checked', () => {
    const t = { dtype: 1 as const, x: x(), index: Int32Array.of(0, 6), out: new Float64Array(2) };
    expect(() => native().take(t)).toThrow(/take: index 6 at position 1 is out of range for 6 elements/);
    expect(() => native().take({ ...t, index: Int32Array.of(-1) })).toThrow(RangeError);
    expect(() => native().take({ ...t, index: Int32Array.of(0, 1, 2) })).toThrow(/out holds 2 elements, needs 3/);
    const p = { dtype: 1 as const, x: x(), index: Int32Array.of(5, -2), values: f64(1, 2), out: new Float64Array(6), accumulate: false };
    expect(() => native().put(p)).toThrow(/put: index -2 at position 1/);
    expect(() => native().put({ ...p, index: Int32Array.of(1, 2, 3) })).toThrow(/values holds 2 elements, needs 3/);
    expect(() => native().put({ ...p, index: Int32Array.of(0), out: new Float64Array(5) })).toThrow(RangeError);
    const b = { dtype: 6 as const, x: Uint8Array.of(0, 1), index: Int32Array.of(0, 0), values: Uint8Array.of(1, 1), out: new Uint8Array(2), accumulate: true };
    native().put(b);
    expect(Array.from(b.out)).toEqual([1, 1]);
    expect(() => native().put({ ...b, values: Int32Array.of(1, 1) as never })).toThrow(TypeError);
  });
});
