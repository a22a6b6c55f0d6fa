// GPU SVD (src/backend/gpu/svd.ts) and its exact power-of-two scaling
// (src/backend/gpu/svd_scale.ts). Scaling: bit-exact against x·2^k in double rounded once
// (Math.fround), subnormals, overflow to Inf and NaN fill included.
import { describe, expect } from 'vitest';
import { tensor, Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { scaleToRangeGpu, ldexpBatchGpu } from '../../src/backend/gpu/svd_scale.js';

useGpu();

/** Deterministic float32 bit patterns: normals of every exponent, subnormals, ±0 (no NaN/Inf). */
function finitePatterns(n: number, seed: number, expRange: [number, number] = [1, 254]): Float32Array {
  const u = new Uint32Array(n);
  let s = seed >>> 0;
  const next = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
  for (let i = 0; i < n; i++) {
    const sign = (next() & 1) << 31;
    const [lo, hi] = expRange;
    switch (i % 5) {
      case 0: u[i] = sign | ((next() & 0x7fffff) || 1); break; // subnormal
      case 1: u[i] = sign; break; // ±0
      default: u[i] = sign | ((lo + (next() % (hi - lo + 1))) << 23) | (next() & 0x7fffff);
    }
  }
  return new Float32Array(u.buffer);
}

const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

/** frexp's exponent of |x| (x finite, nonzero): |x| = m·2^e with m in [0.5, 1). */
function frexpExp(x: number): number {
  let e = Math.floor(Math.log2(Math.abs(x))) + 1;
  while (Math.abs(x) / 2 ** e >= 1) e++;
  while (Math.abs(x) / 2 ** e < 0.5) e--;
  return e;
}

describe('svd scaling kernels', () => {
  gpuIt('scaleToRangeGpu is exact per matrix, subnormal matrices included; NaN/Inf → info −1, t = 0', async () => {
    // 5 matrices of 37×41 float32: wide exponents, all-subnormal, zero, one holding Inf, one holding NaN;
    // a sixth matrix large enough to take several workgroups (chunks)
    const m = 37, n = 41, mn = m * n;
    const data = new Float32Array(6 * mn);
    data.set(finitePatterns(mn, 1), 0);
    data.set(finitePatterns(mn, 2).map((x, i) => (i % 5 === 0 ? x : 0)), mn); // subnormals and zeros only
    // matrix 2 stays zero
    data.set(finitePatterns(mn, 3, [1, 100]), 3 * mn); data[3 * mn + 17] = -Infinity;
    data.set(finitePatterns(mn, 4, [1, 100]), 4 * mn); data[4 * mn + 600] = NaN;
    data.set(finitePatterns(mn, 5, [1, 120]), 5 * mn);
    const A = tensor({ data, shape: [2, 3, m, n] });
    const { t, exps, info } = scaleToRangeGpu(A.to('gpu'), 'test');
    expect(t.shape).toEqual([2, 3, m, n]);
    expect(exps.shape).toEqual([2, 3]);
    const T = await t.data(), E = await exps.data(), I = await info.data();
    expect(Array.from(I)).toEqual([0, 0, 0, -1, -1, 0]);
    for (let b = 0; b < 6; b++) {
      const slice = data.subarray(b * mn, (b + 1) * mn);
      if (I[b] === -1) {
        expect(E[b]).toBe(0);
        expect(Array.from(T.subarray(b * mn, (b + 1) * mn)).every((v) => v === 0)).toBe(true);
        continue;
      }
      let mx = 0;
      for (const v of slice) mx = Math.max(mx, Math.abs(v));
      const e = mx === 0 ? 0 : frexpExp(mx);
      expect(E[b]).toBe(e);
      let bad = 0, tmax = 0;
      for (let i = 0; i < mn; i++) {
        const want = Math.fround(slice[i] * 2 ** -e);
        if (!same(T[b * mn + i], want)) bad++;
        tmax = Math.max(tmax, Math.abs(T[b * mn + i]));
      }
      expect(bad).toBe(0);
      if (mx > 0) { expect(tmax).toBeGreaterThanOrEqual(0.5); expect(tmax).toBeLessThan(1); }
    }
    expect(E[1]).toBeLessThanOrEqual(-126); // the subnormal matrix scaled up exactly
    // complex64 (max over both parts), a big single matrix (several chunks), empty shapes
    const c = scaleToRangeGpu(tensor({ data: Float32Array.from([0, 3e-41, -1e-42, 0]), shape: [1, 2], dtype: 'complex64' }).to('gpu'), 'test');
    const ce = (await c.exps.data())[0];
    expect(ce).toBe(frexpExp(3e-41));
    expect(Array.from(await c.t.data())).toEqual([0, Math.fround(Math.fround(3e-41) * 2 ** -ce), Math.fround(Math.fround(-1e-42) * 2 ** -ce), 0]);
    const big = finitePatterns(300 * 200, 9, [90, 130]);
    const g = scaleToRangeGpu(tensor({ data: big, shape: [300, 200] }).to('gpu'), 'test');
    let bm = 0; for (const v of big) bm = Math.max(bm, Math.abs(v));
    const be = (await g.exps.data())[0];
    expect(be).toBe(frexpExp(bm));
    const bt = await g.t.data();
    expect(Array.from(bt).every((v, i) => same(v, Math.fround(big[i] * 2 ** -be)))).toBe(true);
    const z = scaleToRangeGpu(Tensor.empty('float32', [3, 0, 4]).to('gpu'), 'test');
    expect(z.t.shape).toEqual([3, 0, 4]);
    expect(Array.from(await z.exps.data())).toEqual([0, 0, 0]);
    expect(Array.from(await z.info.data())).toEqual([0, 0, 0]);
    expect(scaleToRangeGpu(Tensor.empty('float32', [0, 4, 4]).to('gpu'), 'test').exps.shape).toEqual([0]);
  });

  gpuIt('ldexpBatchGpu: exact per matrix and per row, rounding into subnormals, overflow to Inf, NaN fill', async () => {
    const rows = 4, k = 1000;
    const data = finitePatterns(rows * k, 11);
    const X = tensor({ data, shape: [rows, k] }).to('gpu');
    const ks = [-149, 300, 17, -60];
    const exps = tensor({ data: Int32Array.from(ks), shape: [rows] }).to('gpu') as Tensor<'int32'>;
    for (const sign of [1, -1] as const) {
      const out = await ldexpBatchGpu(X, exps, sign, 'test').data();
      let bad = 0;
      for (let r = 0; r < rows; r++) {
        for (let i = 0; i < k; i++) if (!same(out[r * k + i], Math.fround(data[r * k + i] * 2 ** (sign * ks[r])))) bad++;
      }
      expect(bad).toBe(0);
    }
    // ties to even into the subnormals, overflow to ±Inf, ±0 and Inf kept
    const tie = Float32Array.from([3 * 2 ** -149, 2 ** -126 * 1.5, 2 ** 127, -(2 ** 127), -0, Infinity, 1]);
    const tt = await ldexpBatchGpu(tensor({ data: tie, shape: [1, 7] }).to('gpu'),
      tensor({ data: Int32Array.from([-1]), shape: [1] }).to('gpu') as Tensor<'int32'>, 1, 'test').data();
    expect(Array.from(tt)).toEqual([2 * 2 ** -149, 2 ** -127 * 1.5, 2 ** 126, -(2 ** 126), -0, Infinity, 0.5]);
    const ov = await ldexpBatchGpu(tensor({ data: tie, shape: [7] }).to('gpu'),
      tensor({ data: Int32Array.from([2]), shape: [] }).to('gpu') as Tensor<'int32'>, 1, 'test').data();
    expect(Array.from(ov)).toEqual([12 * 2 ** -149, 2 ** -124 * 1.5, Infinity, -Infinity, -0, Infinity, 4]);
    // per matrix with info: NaN where info = −1
    const M = tensor({ data: Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), shape: [2, 2, 2] }).to('gpu');
    const e2 = tensor({ data: Int32Array.from([3, 1]), shape: [2] }).to('gpu') as Tensor<'int32'>;
    const i2 = tensor({ data: Int32Array.from([-1, 0]), shape: [2] }).to('gpu') as Tensor<'int32'>;
    const r2 = Array.from(await ldexpBatchGpu(M, e2, 1, 'test', i2).data());
    expect(r2.slice(0, 4).every(Number.isNaN)).toBe(true);
    expect(r2.slice(4)).toEqual([10, 12, 14, 16]);
    expect(() => ldexpBatchGpu(M, tensor({ data: Int32Array.from([1, 2, 3]), shape: [3] }).to('gpu') as Tensor<'int32'>, 1, 'test')).toThrow(/does not lead/);
  });
});
