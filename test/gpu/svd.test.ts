// GPU SVD (src/backend/gpu/svd.ts) and its exact power-of-two scaling
// (src/backend/gpu/svd_scale.ts). Scaling: bit-exact against x·2^k in double rounded once
// (Math.fround), subnormals, overflow to Inf and NaN fill included. SVD: LAPACK's ratios
// (‖A − U·S·Vh‖/(max(m,n)·eps·‖A‖), ‖I − UᴴU‖/(m·eps), ‖I − Vh·Vhᴴ‖/(n·eps), all < 50) and S
// against the CPU's float64 SVD of the same float32 data, on every path: the one-workgroup
// kernel, QR + the small kernel on X = Rᴴ, QR + the blocked Jacobi (+ finalize/completion).
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, tensor, Tensor, Rng, LinAlgError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { scaleToRangeGpu, ldexpBatchGpu } from '../../src/backend/gpu/svd_scale.js';
import { svdGpu, type SvdGpuParams } from '../../src/backend/gpu/svd.js';
import { Mat, randomMatrix, randomUnitary, toTensor, fromTensor } from '../helpers/matrices.js';

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

type D = 'float32' | 'complex64';
const EPS = 2 ** -23;

/** The float32/complex64 data of mats as a CPU tensor, and the same values as Mats (float64). */
function data32(mats: Mat[], dtype: D, batch?: number[]): { t: Tensor; m32: Mat[] } {
  const t = toTensor(mats, dtype, batch);
  return { t, m32: mats.map((_, b) => fromTensor(t.reshape([mats.length, mats[0].rows, mats[0].cols]), b)) };
}

/** Reference singular values: the CPU SVD in float64 / complex128. */
function refS(A: Mat, dtype: D): number[] {
  return Array.from(linalg.svdvals(toTensor([A], dtype === 'complex64' ? 'complex128' : 'float64')).dataSync() as Float64Array);
}

interface Ratios { back: number; orthU: number; orthV: number; sErr: number }

/** LAPACK's ratios for member b, and max |S − S_ref| / S_ref[0]. */
function ratios(A: Mat, U: Mat, S: number[], Vh: Mat, dtype: D, full: boolean): Ratios {
  const m = A.rows, n = A.cols, k = Math.min(m, n);
  expect([U.rows, U.cols]).toEqual([m, full ? m : k]);
  expect([Vh.rows, Vh.cols]).toEqual([full ? n : k, n]);
  for (let i = 0; i < k; i++) {
    expect(S[i]).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(S[i]).toBeLessThanOrEqual(S[i - 1]);
  }
  const Uk = new Mat(m, k), Vk = new Mat(k, n);
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) Uk.set(i, j, U.re(i, j) * S[j], U.im(i, j) * S[j]);
  for (let i = 0; i < k; i++) for (let j = 0; j < n; j++) Vk.set(i, j, Vh.re(i, j), Vh.im(i, j));
  const na = A.normFro();
  const back = A.sub(Uk.mul(Vk)).normFro() / ((na || 1) * Math.max(m, n) * EPS);
  const orthU = U.adjoint().mul(U).sub(Mat.eye(U.cols)).normFro() / (m * EPS);
  const orthV = Vh.mul(Vh.adjoint()).sub(Mat.eye(Vh.rows)).normFro() / (n * EPS);
  const ref = refS(A, dtype);
  let sErr = 0;
  for (let i = 0; i < k; i++) sErr = Math.max(sErr, Math.abs(S[i] - ref[i]) / (ref[0] || 1));
  return { back, orthU, orthV, sErr };
}

/** GPU SVD of mats (one tensor, batch shape `batch`), every member checked; returns the worst ratios. */
async function checkSvd(mats: Mat[], dtype: D, full: boolean, batch?: number[], params: SvdGpuParams = {}, vals = false): Promise<Ratios> {
  const { t, m32 } = data32(mats, dtype, batch);
  const r = svdGpu(t.to('gpu'), { computeUV: true, fullMatrices: full }, params);
  const U = await r.U!.toAsync('cpu'), Vh = await r.Vh!.toAsync('cpu'), S = await r.S.data(), info = await r.info.data();
  const m = mats[0].rows, n = mats[0].cols, k = Math.min(m, n);
  expect(r.S.shape).toEqual([...t.shape.slice(0, -2), k]);
  expect(Array.from(info).every((v) => v === 0)).toBe(true);
  const Uf = U.reshape([mats.length, U.rows, U.cols]), Vf = Vh.reshape([mats.length, Vh.rows, Vh.cols]);
  const worst: Ratios = { back: 0, orthU: 0, orthV: 0, sErr: 0 };
  m32.forEach((A, b) => {
    const q = ratios(A, fromTensor(Uf, b), Array.from(S.subarray(b * k, (b + 1) * k)), fromTensor(Vf, b), dtype, full);
    for (const key of Object.keys(worst) as (keyof Ratios)[]) worst[key] = Math.max(worst[key], q[key]);
  });
  expect(worst.back).toBeLessThan(50);
  expect(worst.orthU).toBeLessThan(50);
  expect(worst.orthV).toBeLessThan(50);
  if (!vals) return worst;
  // svdvals: no vectors, the same S
  const sv = svdGpu(t.to('gpu'), { computeUV: false, fullMatrices: false }, params);
  expect(sv.U).toBeNull();
  const S2 = await sv.S.data();
  for (let i = 0; i < S.length; i++) expect(Math.abs(S2[i] - S[i])).toBeLessThanOrEqual(8 * Math.sqrt(m) * EPS * (S[Math.floor(i / k) * k] || 1));
  return worst;
}

const rand = (m: number, n: number, seed: number, dtype: D, count = 1) => {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => randomMatrix(m, n, rng, { complex: dtype === 'complex64' }));
};

describe('gpu svd: every path against the float64 CPU SVD', () => {
  gpuIt('one-workgroup path: tall, square, wide, fullMatrices both, complex64, batch dims [2, 2]', async () => {
    for (const full of [true, false]) {
      for (const [m, n] of [[7, 5], [8, 8], [5, 7]]) {
        const w = await checkSvd(rand(m, n, 10 * m + n, 'float32', 4), 'float32', full, [2, 2], {}, m === 5);
        expect(w.sErr).toBeLessThan(20 * EPS);
      }
    }
    const w = await checkSvd(rand(8, 6, 3, 'complex64', 3), 'complex64', true);
    expect(w.sErr).toBeLessThan(20 * EPS);
  });

  // (sizes shared between tests: every new size or dtype compiles kernel variants, 1–20 s each on lavapipe)
  gpuIt('QR + small kernel on X = Rᴴ: tall full/thin, wide, complex64', async () => {
    const p: SvdGpuParams = { path: 'qr-small' };
    for (const full of [true, false]) expect((await checkSvd(rand(40, 16, 1, 'float32', 2), 'float32', full, undefined, p, full)).sErr).toBeLessThan(20 * EPS);
    expect((await checkSvd(rand(16, 40, 2, 'float32'), 'float32', true, undefined, p)).sErr).toBeLessThan(20 * EPS);
    expect((await checkSvd(rand(40, 16, 4, 'complex64', 2), 'complex64', true, undefined, p)).sErr).toBeLessThan(20 * EPS);
  }, 120_000);

  gpuIt('QR + blocked Jacobi: 48×40 full and thin, 40×48 wide, 48×48 complex64 batched', async () => {
    const p: SvdGpuParams = { path: 'qr-blocked' };
    for (const full of [true, false]) expect((await checkSvd(rand(48, 40, 5, 'float32'), 'float32', full, undefined, p, full)).sErr).toBeLessThan(30 * EPS);
    expect((await checkSvd(rand(40, 48, 6, 'float32'), 'float32', true, undefined, p)).sErr).toBeLessThan(30 * EPS);
    expect((await checkSvd(rand(48, 48, 7, 'complex64', 3), 'complex64', false, [3], p, true)).sErr).toBeLessThan(30 * EPS);
  }, 120_000);
});

/** Orthonormality ratios of U's and Vh's members and the S of a GPU result (CPU copies). */
async function orthOf(r: { U: Tensor | null; S: Tensor; Vh: Tensor | null }, count: number) {
  const U = await r.U!.toAsync('cpu'), Vh = await r.Vh!.toAsync('cpu');
  const Uf = U.reshape([count, U.rows, U.cols]), Vf = Vh.reshape([count, Vh.rows, Vh.cols]);
  let orthU = 0, orthV = 0;
  for (let b = 0; b < count; b++) {
    const u = fromTensor(Uf, b), v = fromTensor(Vf, b);
    orthU = Math.max(orthU, u.adjoint().mul(u).sub(Mat.eye(u.cols)).normFro() / (u.rows * EPS));
    orthV = Math.max(orthV, v.mul(v.adjoint()).sub(Mat.eye(v.rows)).normFro() / (v.cols * EPS));
  }
  return { orthU, orthV, S: Array.from(await r.S.data()) };
}

describe('gpu svd: random shapes on the QR + blocked Jacobi path (fast-check)', () => {
  // m, n multiples of 4 with min(m, n) ≥ 20 and m ≤ 48: one QR panel width (16) and panel shape and the
  // same GEMM variants (they depend on dims mod 4) as the tests above: few kernels to compile on lavapipe
  gpuIt('ratios < 50 and S vs float64 for m in 36..48, n in 20..40 (multiples of 4), tall and wide, fullMatrices both', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 9, max: 12 }).map((x) => 4 * x), fc.integer({ min: 5, max: 10 }).map((x) => 4 * x), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 1e6 }),
      async (m, n, wide, full, seed) => {
        const [r, c] = wide ? [Math.min(m, n), m] : [m, Math.min(m, n)];
        const w = await checkSvd(rand(r, c, seed, 'float32', 2), 'float32', full, undefined, { path: 'qr-blocked' });
        expect(w.sErr).toBeLessThan(30 * EPS);
      }), { numRuns: 3 });
  }, 120_000);
});

describe('gpu svd: non-finite members, extreme scales, graded, rank-deficient and empty inputs', () => {
  gpuIt('a NaN member: svdEx info −1 and NaN outputs there, neighbours fine; svd throws LinAlgError naming it at the first read; sweep cap → info > 0', async () => {
    for (const [path, m, n] of [['auto', 8, 6], ['qr-blocked', 48, 40], ['qr-small', 40, 16]] as const) {
      const mats = rand(m, n, 21, 'float32', 3);
      mats[1].set(2, 3, NaN);
      const { t, m32 } = data32(mats, 'float32');
      const r = svdGpu(t.to('gpu'), { computeUV: true, fullMatrices: true }, { path });
      expect(Array.from(await r.info.data())).toEqual([0, -1, 0]);
      const S = await r.S.data(), U = await r.U!.data(), Vh = await r.Vh!.data();
      const k = n;
      expect(Array.from(S.subarray(k, 2 * k)).every(Number.isNaN)).toBe(true);
      expect(Array.from(U.subarray(m * m, 2 * m * m)).every(Number.isNaN)).toBe(true);
      expect(Array.from(Vh.subarray(n * n, 2 * n * n)).every(Number.isNaN)).toBe(true);
      for (const b of [0, 2]) {
        const q = ratios(m32[b], fromTensor((await r.U!.toAsync('cpu')), b), Array.from(S.subarray(b * k, (b + 1) * k)),
          fromTensor(await r.Vh!.toAsync('cpu'), b), 'float32', true);
        expect(Math.max(q.back, q.orthU, q.orthV)).toBeLessThan(50);
      }
    }
    // the blocked Jacobi's sweep cap reached: info > 0 merged into the result, outputs still finite and sorted
    const capped = svdGpu(toTensor(rand(48, 40, 23, 'float32', 2), 'float32').to('gpu'), { computeUV: true, fullMatrices: false },
      { path: 'qr-blocked', jacobi: { maxSweeps: 1 } });
    const ci = Array.from(await capped.info.data());
    expect(ci.every((v) => v > 0)).toBe(true);
    const cs = Array.from(await capped.S.data());
    expect(cs.every((v, i) => Number.isFinite(v) && (i % 40 === 0 || v <= cs[i - 1]))).toBe(true);
    // through the public functions: Inf in member 2 of a [2, 2] batch
    const mats = rand(6, 6, 22, 'float32', 4);
    mats[2].set(0, 0, Infinity);
    const A = toTensor(mats, 'float32', [2, 2]).to('gpu');
    const ex = linalg.svdEx(A);
    expect(Array.from(await ex.info.data())).toEqual([0, 0, -1, 0]);
    const s = linalg.svd(A, { fullMatrices: false });
    await expect(s.S.data()).rejects.toThrow(LinAlgError);
    await expect(linalg.svd(A).U.data()).rejects.toThrow(/svd: \(batch element 2\)/);
    await expect(linalg.svdvals(A).data()).rejects.toThrow(/svdvals: \(batch element 2\)/);
  });

  gpuIt('inputs at 1e-38 (subnormal entries) and 1e38: finite, correct σ and orthonormal U, V on every path', async () => {
    for (const [path, m, n] of [['auto', 8, 5], ['qr-small', 40, 16], ['qr-blocked', 48, 40]] as const) {
      for (const scale of [1e-38, 3e-39, 1e38]) {
        // σ₁ = scale: entries of 1e-38·(…) are subnormal, and σ₁ = 1e38 is representable
        const base = rand(m, n, 31, 'float32')[0];
        const A = base.clone(), s1 = refS(base, 'float32')[0];
        for (let i = 0; i < A.data.length; i++) A.data[i] *= scale / s1;
        const { t, m32 } = data32([A], 'float32');
        const r = svdGpu(t.to('gpu'), { computeUV: true, fullMatrices: false }, { path });
        expect((await r.info.data())[0]).toBe(0);
        const o = await orthOf(r, 1);
        expect(o.orthU).toBeLessThan(50);
        expect(o.orthV).toBeLessThan(50);
        const ref = refS(m32[0], 'float32');
        for (let i = 0; i < n; i++) {
          expect(Number.isFinite(o.S[i])).toBe(true);
          // subnormal data carry fewer bits: the error is relative to the largest σ, plus its last bits
          expect(Math.abs(o.S[i] - ref[i])).toBeLessThanOrEqual(30 * EPS * ref[0] + 4 * 2 ** -149 * Math.sqrt(m * n));
        }
      }
    }
  });

  gpuIt('graded D₁·Q·D₂ over 1e-30…1: relative σ error on the blocked path and the small kernel', async () => {
    const rng = new Rng(41);
    const errs: Record<string, number> = {};
    for (const [path, n, spread] of [['qr-blocked', 40, 1e-25], ['qr-small', 16, 1e-12]] as const) {
      // Q: n orthonormal columns of a 40×40 unitary; rows graded in shuffled order (the GPU path sorts them)
      const m = 40;
      const d1 = Array.from({ length: m }, (_, i) => 10 ** (-15 * ((i * 11) % m) / (m - 1)));
      const d2 = Array.from({ length: n }, (_, i) => 10 ** (-15 * ((i * 7) % n) / (n - 1)));
      const Qf = randomUnitary(m, rng), Q = new Mat(m, n);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) Q.set(i, j, Qf.re(i, j));
      const A = Q.scaleRows(d1).scaleCols(d2);
      const { t, m32 } = data32([A], 'float32');
      const r = svdGpu(t.to('gpu'), { computeUV: true, fullMatrices: false }, { path });
      expect((await r.info.data())[0]).toBe(0);
      const o = await orthOf(r, 1);
      expect(o.orthU).toBeLessThan(50);
      expect(o.orthV).toBeLessThan(50);
      const ref = refS(m32[0], 'float32');
      let worst = 0;
      for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(o.S[i] - ref[i]) / ref[i]);
      errs[path] = Math.round(worst / EPS);
      expect(ref[n - 1] / ref[0]).toBeLessThan(spread);
      expect(worst).toBeLessThan(256 * EPS);
    }
    console.log(`graded 1e-30…1: max relative σ error / eps: ${JSON.stringify(errs)}`);
  });

  gpuIt('zero and rank-deficient matrices: S exact zeros, U and V orthonormal (completion)', async () => {
    for (const [path, m, n] of [['auto', 8, 6], ['qr-small', 40, 16], ['qr-blocked', 48, 40]] as const) {
      const rng = new Rng(51);
      const zero = new Mat(m, n);
      const r3 = randomMatrix(m, 3, rng).mul(randomMatrix(3, n, rng));
      const zc = randomMatrix(m, n, rng);
      for (let i = 0; i < m; i++) { zc.set(i, 1, 0); zc.set(i, n - 2, 0); }
      for (const dtype of ['float32', 'complex64'] as const) {
        if (dtype === 'complex64' && path !== 'qr-blocked') continue;
        const { t, m32 } = data32([zero, r3, zc], dtype);
        for (const full of [true, false]) {
          const r = svdGpu(t.to('gpu'), { computeUV: true, fullMatrices: full }, { path });
          expect(Array.from(await r.info.data())).toEqual([0, 0, 0]);
          const o = await orthOf(r, 3);
          expect(o.orthU).toBeLessThan(50);
          expect(o.orthV).toBeLessThan(50);
          expect(o.S.slice(0, n).every((v) => v === 0)).toBe(true);
          const U = await r.U!.toAsync('cpu'), Vh = await r.Vh!.toAsync('cpu');
          for (const b of [1, 2]) {
            const q = ratios(m32[b], fromTensor(U, b), o.S.slice(b * n, (b + 1) * n), fromTensor(Vh, b), dtype, full);
            expect(q.back).toBeLessThan(50);
            expect(q.sErr).toBeLessThan(30 * EPS);
          }
          // rank 3: the trailing σ are tiny relative to σ₁
          expect(o.S[n + 3]).toBeLessThan(1e-5 * o.S[n]);
        }
      }
    }
  });

  gpuIt('empty shapes as the CPU: k = 0 (identity U/Vh under fullMatrices), empty batches', async () => {
    for (const [shape, dtype] of [[[0, 5], 'float32'], [[3, 0], 'complex64'], [[2, 4, 0], 'float32'], [[0, 3, 3], 'complex64'], [[2, 0, 7, 4], 'float32']] as const) {
      for (const full of [true, false]) {
        const A = Tensor.empty(dtype, shape);
        const c = linalg.svdEx(A, { fullMatrices: full });
        const g = linalg.svdEx(A.to('gpu'), { fullMatrices: full });
        expect(g.S.device).toBe('gpu');
        for (const key of ['U', 'S', 'Vh', 'info'] as const) {
          expect(g[key].shape).toEqual(c[key].shape);
          expect(Array.from(await g[key].data())).toEqual(Array.from(c[key].dataSync()));
        }
        expect(linalg.svdvals(A.to('gpu')).shape).toEqual(linalg.svdvals(A).shape);
      }
    }
  });
});
