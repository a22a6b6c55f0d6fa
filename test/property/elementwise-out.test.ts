// The elementwise functions' `out` option on the CPU (numpy's and torch's out=): the result
// is written into out's own storage, bit for bit the call without it, and out is returned;
// out may be an operand (in place) or overlap one partly (computed apart, then copied);
// a bad out is a typed error naming it; under grad a differentiated operand or out is refused.
import { describe, it, expect } from 'vitest';
import * as lapis from '../../src/index.js';
import {
  Tensor, tensor, zeros, randn, grad, sum, ArgumentError, DeviceError, DTypeError, ShapeError,
} from '../../src/index.js';
import { UNARY_OPS, BINARY_OPS, binaryOutDtype } from '../../src/backend/ops.js';

type Fn = (...a: unknown[]) => Tensor;
const fn = (name: string) => (lapis as unknown as Record<string, Fn>)[name];

/** A tensor of the dtype and shape filled with a value no op returns everywhere (NaN, or 7 for integers). */
function junk(dtype: lapis.DType, shape: number[]): Tensor {
  const t = zeros(shape, { dtype });
  const d = t.dataSync() as Float64Array;
  d.fill(dtype.startsWith('float') || dtype.startsWith('complex') ? NaN : 7);
  return t;
}

const same = (a: Tensor, b: Tensor) => expect(Array.from(a.dataSync() as Float64Array)).toEqual(Array.from(b.dataSync() as Float64Array));

describe('elementwise out on the CPU', () => {
  const x64 = randn([3, 5], { seed: 1 }), y64 = randn([5], { seed: 2 });
  const z = randn([3, 5], { dtype: 'complex128', seed: 3 });
  const i32 = tensor([[1, -2, 3], [4, 5, -6]], { dtype: 'int32' });

  it('every unary op: out gets the bits of the call without it and is returned', () => {
    for (const op of UNARY_OPS) {
      for (const x of [x64, z, i32]) {
        let want: Tensor;
        try { want = fn(op)(x); } catch { continue; } // (op, dtype) pairs the function refuses
        const out = junk(want.dtype, [...want.shape]);
        expect(fn(op)(x, { out }), op).toBe(out);
        same(out, want);
        expect(out.dtype).toBe(want.dtype);
      }
    }
  });

  it('every binary op, broadcasting: the same', () => {
    for (const op of BINARY_OPS) {
      const want = fn(op)(x64, y64);
      const out = junk(want.dtype, [3, 5]);
      expect(fn(op)(x64, y64, { out }), op).toBe(out);
      same(out, want);
      expect(out.dtype).toBe(binaryOutDtype(op, 'float64'));
    }
  });

  it('in place: out an operand (exp(x, { out: x }), add(a, b, { out: a }), a broadcast row into the matrix)', () => {
    const a = randn([4, 6], { seed: 4 }), r = randn([6], { seed: 5 });
    const wantExp = lapis.exp(a), wantAdd = lapis.add(wantExp, r);
    const a2 = Tensor.fromStorage('float64', [4, 6], Float64Array.from(a.dataSync() as Float64Array));
    expect(lapis.exp(a2, { out: a2 })).toBe(a2);
    same(a2, wantExp);
    expect(lapis.add(a2, r, { out: a2 })).toBe(a2);
    same(a2, wantAdd);
    const b = randn([4, 6], { seed: 6 });
    const wantMul = lapis.mul(b, b);
    expect(lapis.mul(b, b, { out: b })).toBe(b);
    same(b, wantMul);
  });

  it('out overlapping an operand partly is computed apart, then copied in', () => {
    // out one element ahead of x in one buffer: an in-order or vector-wide loop would read
    // elements it had already overwritten.
    const n = 1000;
    const vals = Array.from({ length: n }, (_, i) => Math.sin(i));
    for (const [name, f] of [
      ['exp', (x: Tensor, out?: Tensor) => lapis.exp(x, { out })],
      ['add', (x: Tensor, out?: Tensor) => lapis.add(x, x, { out })],
    ] as const) {
      const want = Array.from(f(tensor({ data: Float64Array.from(vals), shape: [n] })).dataSync());
      const buf = new Float64Array(n + 1);
      buf.set(vals);
      const x = Tensor.fromStorage('float64', [n], buf.subarray(0, n));
      const out = Tensor.fromStorage('float64', [n], buf.subarray(1, n + 1));
      expect(f(x, out)).toBe(out);
      expect(Array.from(out.dataSync()), name).toEqual(want);
    }
  });

  it('a bad out is a typed error naming it, before any write', () => {
    const x = randn([2, 3], { seed: 7 });
    expect(() => lapis.exp(x, { out: zeros([2, 3], { dtype: 'float32' }) })).toThrow(DTypeError);
    expect(() => lapis.exp(x, { out: zeros([3, 2]) })).toThrow(ShapeError);
    expect(() => lapis.gt(x, 0, { out: zeros([2, 3]) })).toThrow(/out is float64, the result is bool/);
    expect(() => lapis.add(x, x, { out: [1, 2] as never })).toThrow(ArgumentError);
    expect(() => lapis.exp(x, { bad: 1 } as never)).toThrow(ArgumentError);
    const gone = zeros([2, 3]);
    gone.dispose();
    expect(() => lapis.exp(x, { out: gone })).toThrow(DeviceError);
    const keep = junk('float64', [2, 3]);
    expect(() => lapis.add(x, zeros([4]), { out: keep })).toThrow(ShapeError);
    expect(Array.from(keep.dataSync()).every(Number.isNaN)).toBe(true);
  });

  it('under grad: refused for a differentiated operand or out, allowed for constants', () => {
    const c = randn([3], { seed: 8 });
    expect(() => grad((x: Tensor) => sum(lapis.exp(x, { out: zeros([3]) })))(randn([3], { seed: 9 }))).toThrow(/out option writes in place/);
    const out = zeros([3]);
    const g = grad((x: Tensor) => { lapis.mul(c, c, { out }); return sum(lapis.mul(x, out)); })(tensor([1, 2, 3]));
    same(out, lapis.mul(c, c));
    same(g[0] as Tensor, lapis.mul(c, c));
  });
});
