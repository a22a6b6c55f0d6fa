import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, tensor, LinAlgError, ShapeError, type FloatDType } from '../../src/index.js';
import { kahan, hilbert } from '../helpers/matrices.js';
import {
  type M, fromTensor, toTensor, randomM, randomUnitary, cols, mul, adj, fro, epsD, isComplexD, orthErr, sub,
  withSingularValues, geometric, scaleM, atScale, scaleCols, scaleRows, usv, fromMat, zerosM,
} from '../helpers/spectra.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

const round = (a: M, dtype: FloatDType): M => fromTensor(toTensor([a], dtype));

/** LAPACK-style SVD ratios on one matrix (b-th of the batch). */
function checkSvd(a: M, U: M, s: ArrayLike<number>, Vh: M, dtype: FloatDType): void {
  const eps = epsD(dtype), mx = Math.max(a.m, a.n, 1);
  for (let i = 0; i < s.length; i++) {
    expect(s[i]).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(s[i]).toBeLessThanOrEqual(s[i - 1]);
  }
  const na = fro(a);
  const back = fro(sub(a, usv(U, s, Vh)));
  if (na === 0) expect(back).toBe(0);
  else expect(back / (mx * eps * na)).toBeLessThan(50);
  if (U.n > 0) expect(orthErr(U) / (mx * eps)).toBeLessThan(50);
  if (Vh.m > 0) expect(orthErr(adj(Vh)) / (mx * eps)).toBeLessThan(50);
}

function run(a: M, dtype: FloatDType, fullMatrices: boolean): { U: M; s: Float32Array | Float64Array; Vh: M } {
  const { U, S, Vh } = linalg.svd(toTensor([a], dtype, []), { fullMatrices });
  const k = Math.min(a.m, a.n);
  expect(S.shape).toEqual([k]);
  expect(U.shape).toEqual([a.m, fullMatrices ? a.m : k]);
  expect(Vh.shape).toEqual([fullMatrices ? a.n : k, a.n]);
  expect(S.dtype).toBe(dtype === 'complex64' ? 'float32' : dtype === 'complex128' ? 'float64' : dtype);
  const r = { U: fromTensor(U), s: S.dataSync() as Float64Array, Vh: fromTensor(Vh) };
  checkSvd(a, r.U, r.s, r.Vh, dtype);
  return r;
}

describe('svd: backward error and orthogonality', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: tall, square, wide; reduced and full`, () => {
      const rng = new Rng(101);
      for (const [m, n] of [[1, 1], [1, 5], [5, 1], [4, 4], [9, 4], [4, 9], [33, 17], [17, 33], [40, 40], [100, 97]]) {
        for (const full of [false, true]) run(round(randomM(m, n, rng, isComplexD(dtype)), dtype), dtype, full);
      }
    });
  }

  it('random shapes up to 40 (fast-check; n ≥ 24 takes the V-from-R solve)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 1e6 }),
      fc.constantFrom(...DTYPES), fc.boolean(), (m, n, seed, dtype, full) => {
        run(round(randomM(m, n, new Rng(seed), isComplexD(dtype)), dtype), dtype, full);
      }), { numRuns: 80 });
  });

  it('every way to V: solved from R (well conditioned), Newton–Schulz, accumulation fallback', () => {
    const rng = new Rng(111);
    for (const dtype of DTYPES) {
      const lo = dtype === 'float32' || dtype === 'complex64' ? 1e-2 : 1e-5;
      for (const sig of [geometric(40, 1, 0.5), geometric(40, 1, lo), geometric(40, 1, lo * lo)]) {
        run(round(withSingularValues(48, 40, sig, rng, isComplexD(dtype)), dtype), dtype, false);
      }
    }
  });

  it('a size that takes the parallel Jacobi ordering (with threads: real n ≥ 256, complex n ≥ 128)', () => {
    const rng = new Rng(102);
    run(randomM(270, 260, rng, false), 'float64', false);
    run(randomM(130, 140, rng, true), 'complex128', true);
  });
});

describe('svd: singular values', () => {
  it('match sqrt(eigs(AᴴA)) from mathjs on small well-conditioned matrices', () => {
    const rng = new Rng(103);
    for (const [m, n] of [[5, 3], [4, 4], [6, 2]]) {
      const a = withSingularValues(m, n, geometric(n, 3, 0.5), rng, false);
      const ata = mul(adj(a), a);
      const rows = Array.from({ length: n }, (_, i) => Array.from(ata.re.slice(i * n, (i + 1) * n)));
      const ev = (math.eigs(rows).values as unknown as number[]).map(Number).map(Math.sqrt).sort((x, y) => y - x);
      const s = linalg.svdvals(toTensor([a], 'float64', [])).dataSync();
      for (let i = 0; i < n; i++) expect(Math.abs(s[i] - ev[i])).toBeLessThan(1e-13 * ev[0]);
    }
  });

  for (const dtype of DTYPES) {
    it(`${dtype}: spectrum spread over 1e-12..1 (f32: 1e-6..1) is recovered to eps·σ_max`, () => {
      const rng = new Rng(104);
      const lo = dtype === 'float32' || dtype === 'complex64' ? 1e-6 : 1e-12;
      for (const [m, n] of [[30, 20], [20, 30], [25, 25]]) {
        const sig = geometric(Math.min(m, n), 1, lo);
        const a = round(withSingularValues(m, n, sig, rng, isComplexD(dtype)), dtype);
        const r = run(a, dtype, false);
        for (let i = 0; i < sig.length; i++) expect(Math.abs(r.s[i] - sig[i])).toBeLessThan(10 * Math.max(m, n) * epsD(dtype));
      }
    });
  }

  it('graded matrices (column and row scaling by 1..1e-12) keep every value to high relative accuracy', () => {
    const rng = new Rng(105);
    for (const cplx of [false, true]) {
      const n = 12, m = 20;
      const d = geometric(n, 1, 1e-12);
      const Q = cols(randomUnitary(m, rng, cplx), 0, n);   // orthonormal columns: σ(Q·D) = d
      const dtype = cplx ? 'complex128' : 'float64';
      for (const a of [scaleCols(Q, d), adj(scaleCols(Q, d))]) {
        const r = run(a, dtype, false);
        for (let i = 0; i < n; i++) expect(Math.abs(r.s[i] - d[i]) / d[i]).toBeLessThan(50 * m * epsD(dtype));
      }
      // Row-graded with a random (not orthonormal) middle factor: D·B vs D·B·P are the same
      // matrix up to a permutation, so their values must agree relatively.
      const B = randomM(n, n, rng, cplx);
      const a1 = scaleRows(B, d);
      const a2 = scaleRows(adj(adj(B)), d);
      const s1 = linalg.svdvals(toTensor([a1], dtype, [])).dataSync();
      const s2 = linalg.svdvals(toTensor([a2], dtype, [])).dataSync();
      for (let i = 0; i < n; i++) expect(Math.abs(s1[i] - s2[i]) / s1[i]).toBeLessThan(1e-10);
    }
  });

  it('grading beyond the squared-norm range (1..1e-250: squares underflow) and across several waves', () => {
    // Real Jacobi runs its wavefront on squared column norms while they stay in range;
    // columns below ~1e-66 take the general step. n = 40 spans three waves of 16 rows;
    // n = 280 takes the threaded block order (with threads), whose block pairs are waves.
    const rng = new Rng(109);
    for (const [m, n, lo] of [[48, 40, 1e-250], [44, 36, 1e-100], [70, 33, 1e-12], [300, 280, 1e-200]] as const) {
      const d = geometric(n, 1, lo);
      const Q = cols(randomUnitary(m, rng, false), 0, n);
      for (const a of [scaleCols(Q, d), adj(scaleCols(Q, d))]) {
        const r = run(a, 'float64', false);
        for (let i = 0; i < n; i++) expect(Math.abs(r.s[i] - d[i]) / d[i]).toBeLessThan(50 * m * epsD('float64'));
      }
    }
  });

  it('square strongly row-graded D·Qᴴ (1..1e-100, 1..1e-200): every value to a few ulps', () => {
    // Square D·Qᴴ needs column pivoting in the first QR (Cox–Higham: row sorting and
    // column pivoting); a static column sort left 40×40 over 1e-100 at ~800–2,600 ulps and
    // 140×140 over 1e-200 at ~100,000. Q·D rides along. Sizes 40 (one QR level of waves)
    // and 160 (second QR, threaded block order). Reference: d itself; rounding A's entries
    // perturbs each row relatively by eps, which moves σᵢ/dᵢ by at most about √n·eps.
    const rng = new Rng(110);
    for (const [n, lo, cplx] of [[40, 1e-100, false], [40, 1e-200, false], [40, 1e-100, true], [160, 1e-100, false], [160, 1e-200, false]] as const) {
      const d = geometric(n, 1, lo);
      const Q = randomUnitary(n, rng, cplx);
      const dtype = cplx ? 'complex128' : 'float64';
      for (const a of [adj(scaleCols(Q, d)), scaleCols(Q, d)]) {
        const r = run(a, dtype, false);
        let worst = 0;
        for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(r.s[i] - d[i]) / d[i]);
        // Measured: ≤ 6.5 ulps at n = 40, ≤ 12 at n = 160.
        expect(worst).toBeLessThan(4 * Math.sqrt(n) * epsD(dtype));
      }
    }
  });

  it('duplicated singular values: values exact to eps, vectors still orthonormal', () => {
    const rng = new Rng(106);
    for (const dtype of DTYPES) {
      const sig = [2, 2, 2, 1, 1, 0.5, 0.5, 0.5];
      const a = round(withSingularValues(10, 8, sig, rng, isComplexD(dtype)), dtype);
      const r = run(a, dtype, true);
      for (let i = 0; i < 8; i++) expect(Math.abs(r.s[i] - sig[i])).toBeLessThan(40 * epsD(dtype));
    }
  });

  it('exactly rank-deficient inputs: zero values come out ≤ eps·σ_max, U and V are completed', () => {
    const rng = new Rng(107);
    for (const dtype of DTYPES) {
      for (const [m, n, r] of [[12, 9, 4], [9, 12, 4], [10, 10, 1]]) {
        // Integer factors: the product is exact in every dtype.
        const X = zerosM(m, r), Y = zerosM(r, n);
        for (let i = 0; i < X.re.length; i++) X.re[i] = Math.round(rng.normal() * 3);
        for (let i = 0; i < Y.re.length; i++) Y.re[i] = Math.round(rng.normal() * 3);
        const a = round(mul(X, Y), dtype);
        const res = run(a, dtype, true);
        for (let i = r; i < Math.min(m, n); i++) expect(res.s[i]).toBeLessThan(20 * Math.max(m, n) * epsD(dtype) * res.s[0]);
        expect(linalg.matrixRank(toTensor([a], dtype, [])).dataSync()[0]).toBe(r);
      }
    }
    // The zero matrix: zero values and identity factors, exactly.
    const z = linalg.svd(tensor({ data: new Float64Array(12), shape: [3, 4] }));
    expect(Array.from(z.S.dataSync())).toEqual([0, 0, 0]);
    checkSvd(zerosM(3, 4), fromTensor(z.U), z.S.dataSync(), fromTensor(z.Vh), 'float64');
  });

  it('scales near over/underflow: 1e±300 (float64) and 1e±30 (float32)', () => {
    const rng = new Rng(108);
    for (const [dtype, scales] of [['float64', [1e300, 1e-300, 1e-310]], ['complex128', [1e300, 1e-300]], ['float32', [1e30, 1e-30]], ['complex64', [1e30, 1e-30]]] as const) {
      const sig = geometric(8, 1, 1e-3);
      const base = withSingularValues(11, 8, sig, rng, isComplexD(dtype));
      for (const sc of scales) {
        const a = round(scaleM(base, sc), dtype);
        const { U, S, Vh } = linalg.svd(toTensor([a], dtype, []), { fullMatrices: false });
        const r = { s: Array.from(S.dataSync()) };
        // Ratios in units of the scale (‖A‖·eps itself underflows at 1e-310).
        const unit: M = { m: a.m, n: a.n, re: a.re.map((x) => x / sc), im: a.im.map((x) => x / sc) };
        checkSvd(unit, fromTensor(U), r.s.map((x) => x / sc), fromTensor(Vh), dtype);
        // Subnormal data (1e-310) carries fewer significant bits: a looser bound.
        const tol = sc < 1e-307 ? 1e-4 : 40 * 11 * epsD(dtype);
        for (let i = 0; i < 8; i++) expect(Math.abs(r.s[i] / sc - sig[i])).toBeLessThan(tol);
      }
    }
  });

  // Kahan and Hilbert are not graded enough to tell relative accuracy from the ordinary
  // eps·σ_max kind (κ(D⁻¹K) is within 10× of κ(K), κ(D·H·D) within 3× of κ(H)); these two
  // tests check one-sided Jacobi's guarantee, relative error ≤ n·eps·κ(B) with B the
  // equilibrated factor (Demmel–Veselić), against exact-inverse references. The graded
  // tests above are the ones that separate relative from absolute accuracy.
  it('Kahan matrix: σ_min·σ_max(K⁻¹) = 1 within n·eps·κ(D⁻¹K) (row-graded bound)', () => {
    for (const n of [20, 40]) {
      const K = fromMat(kahan(n, 1.2));
      const s = linalg.svdvals(toTensor([K], 'float64', [])).dataSync();
      // K is upper triangular: K⁻¹ by back substitution is accurate (row-graded).
      const Kinv = zerosM(n, n);
      for (let j = 0; j < n; j++) {
        for (let i = n - 1; i >= 0; i--) {
          let acc = i === j ? 1 : 0;
          for (let p = i + 1; p < n; p++) acc -= K.re[i * n + p] * Kinv.re[p * n + j];
          Kinv.re[i * n + j] = acc / K.re[i * n + i];
        }
      }
      const si = linalg.svdvals(toTensor([Kinv], 'float64', [])).dataSync();
      const B = scaleRows(K, Array.from({ length: n }, (_, i) => 1 / K.re[i * n + i]));
      const sb = linalg.svdvals(toTensor([B], 'float64', [])).dataSync();
      const bound = n * epsD('float64') * (sb[0] / sb[n - 1]);  // n = 40: 7.5e-9 (measured 6.5e-13)
      expect(Math.abs(s[n - 1] * si[0] - 1) / bound).toBeLessThan(1);
      expect(Math.abs(s[0] * si[n - 1] - 1) / bound).toBeLessThan(1);
      run(K, 'float64', true);
    }
  });

  it('Hilbert matrix (exact: 360360·H): σ_min·σ_max(H⁻¹) = 1 within n·eps·κ(D·H·D)', () => {
    // 360360 = lcm(1…15): every entry 360360/(i + j − 1) is an integer, so the input is
    // exact and the integer inverse H⁻¹ (binomial formula) is its exact inverse × 360360.
    const n = 8, L = 360360;
    const H = fromMat(hilbert(n));
    for (let i = 0; i < n * n; i++) H.re[i] = Math.round(L * H.re[i]);
    const s = linalg.svdvals(toTensor([H], 'float64', [])).dataSync();
    const binom = (a: number, b: number) => { let r = 1; for (let i = 1; i <= b; i++) r = (r * (a - b + i)) / i; return r; };
    const Hi = zerosM(n, n);
    for (let i = 1; i <= n; i++)
      for (let j = 1; j <= n; j++)
        Hi.re[(i - 1) * n + j - 1] = (-1) ** (i + j) * (i + j - 1) * binom(n + i - 1, n - j) * binom(n + j - 1, n - i) * binom(i + j - 2, i - 1) ** 2;
    const si = linalg.svdvals(toTensor([Hi], 'float64', [])).dataSync();
    const dd = Array.from({ length: n }, (_, i) => 1 / Math.sqrt(H.re[i * n + i]));
    const sd = linalg.svdvals(toTensor([scaleRows(scaleCols(H, dd), dd)], 'float64', [])).dataSync();
    const bound = n * epsD('float64') * (sd[0] / sd[n - 1]);  // 1.1e-5 (measured 3e-8 and 9e-8)
    expect(Math.abs((s[n - 1] * si[0]) / L - 1) / bound).toBeLessThan(1);
    expect(Math.abs((s[0] * si[n - 1]) / L - 1) / bound).toBeLessThan(1);
    run(H, 'float64', false);
  });
});

describe('svd: shapes, batches, status', () => {
  it('0×n and n×0: no values, identity factors for fullMatrices', () => {
    const a = linalg.svd(tensor({ data: new Float64Array(0), shape: [0, 3] }));
    expect(a.S.shape).toEqual([0]);
    expect(a.U.shape).toEqual([0, 0]);
    expect(a.Vh.toArray()).toEqual([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    const b = linalg.svd(tensor({ data: new Float64Array(0), shape: [2, 0] }), { fullMatrices: false });
    expect(b.U.shape).toEqual([2, 0]);
    expect(b.Vh.shape).toEqual([0, 0]);
    expect(linalg.svdvals(tensor({ data: new Float32Array(0), shape: [4, 0, 5] })).shape).toEqual([4, 0]);
  });

  it('batched: each member equals its own SVD; svdvals equals S', () => {
    const rng = new Rng(109);
    const mats = Array.from({ length: 6 }, () => randomM(7, 5, rng, true));
    const A = toTensor(mats, 'complex64', [3, 2]);
    const { U, S, Vh } = linalg.svd(A, { fullMatrices: false });
    expect(S.shape).toEqual([3, 2, 5]);
    const sv = linalg.svdvals(A).dataSync();
    for (let b = 0; b < 6; b++) {
      const a = round(mats[b], 'complex64');
      const s = S.dataSync().slice(b * 5, b * 5 + 5);
      checkSvd(a, fromTensor(U, b), s, fromTensor(Vh, b), 'complex64');
      for (let i = 0; i < 5; i++) expect(Math.abs(sv[b * 5 + i] - s[i])).toBeLessThan(1e-5 * s[0]);
    }
  });

  it('NaN/Inf input: svd throws LinAlgError(info −1), svdEx flags only that member, no hang', () => {
    const rng = new Rng(110);
    const good = randomM(4, 3, rng, false), bad = randomM(4, 3, rng, false), inf = randomM(4, 3, rng, false);
    bad.re[5] = NaN;
    inf.re[0] = Infinity;
    const A = toTensor([good, bad, inf], 'float64');
    expect(() => linalg.svd(A)).toThrow(LinAlgError);
    try { linalg.svd(A); } catch (e) { expect((e as LinAlgError).batchIndex).toBe(1); expect((e as LinAlgError).info).toBe(-1); }
    expect(() => linalg.svdvals(A)).toThrow(LinAlgError);
    const r = linalg.svdEx(A);
    expect(Array.from(r.info.dataSync())).toEqual([0, -1, -1]);
    expect(Array.from(r.S.dataSync().slice(3)).every(Number.isNaN)).toBe(true);
    checkSvd(good, fromTensor(r.U, 0), r.S.dataSync().slice(0, 3), fromTensor(r.Vh, 0), 'float64');
  });

  it('bad arguments throw typed errors', () => {
    expect(() => linalg.svd(tensor([1, 2]))).toThrow(ShapeError);
    expect(() => linalg.svdvals(tensor({ data: new Int32Array(4), shape: [2, 2] }))).toThrow(/int32/);
  });
});

describe('svd: float32 at subnormal and near-overflow scales', () => {
  // float32 data between 1e-45 and 1e-38 gave info 0 with S = [Inf, 0] and NaN U: the
  // power-of-two scaling overflowed (2^133 is Inf in float). The float64 SVD of the same
  // (exactly representable) matrix is the reference; S's own rounding onto the subnormal
  // grid (2^-149 apart) enters every bound as one grid step.
  const grid = 2 ** -149;
  // At 3e38: ‖A‖₂ = 3e38, so σ_max fits; below 1 see atScale.
  for (const dtype of ['float32', 'complex64'] as const) {
    it(`${dtype}: scales 1e-45, 1e-41, 1e-38 and 3e38, sizes up to the n ≥ 24 path`, () => {
      const rng = new Rng(120);
      const cplx = isComplexD(dtype), ref64 = cplx ? 'complex128' : 'float64';
      for (const [m, n] of [[3, 2], [2, 3], [8, 5], [30, 26]]) {
        const k = Math.min(m, n), mx = Math.max(m, n), eps = epsD(dtype);
        const base = withSingularValues(m, n, geometric(k, 1, 0.1), rng, cplx);  // ‖·‖₂ = 1: σ_max fits at 3e38
        for (const sc of [1e-45, 1e-41, 1e-38, 3e38]) {
          const a = round(atScale(base, sc), dtype);
          const r = linalg.svdEx(toTensor([a], dtype, []), { fullMatrices: false });
          expect(r.info.dataSync()[0]).toBe(0);
          for (const t of [r.U, r.S, r.Vh]) expect(Array.from(t.dataSync()).every(Number.isFinite)).toBe(true);
          const s = r.S.dataSync(), U = fromTensor(r.U), Vh = fromTensor(r.Vh);
          const ref = linalg.svdvals(toTensor([a], ref64, [])).dataSync();
          for (let i = 0; i < k; i++) {
            expect(Math.abs(s[i] - ref[i]) / (mx * eps * ref[0] + grid)).toBeLessThan(30);
            if (i > 0) expect(s[i]).toBeLessThanOrEqual(s[i - 1]);
          }
          expect(fro(sub(a, usv(U, s, Vh))) / (mx * (eps * fro(a) + grid * k))).toBeLessThan(30);
          expect(orthErr(U) / (mx * eps)).toBeLessThan(30);
          expect(orthErr(adj(Vh)) / (mx * eps)).toBeLessThan(30);
        }
      }
    });
  }
});

describe('svd: column-graded input (scales spread over 300 orders of magnitude)', () => {
  // A = G·diag(10^(−300·j/(n−1))), G Gaussian, and the reversed grading: column norms
  // more than 1/eps apart made Rutishauser's ζ overflow (t = 0, a "rotation" with no
  // progress), so Jacobi hit its sweep cap: svdEx reported non-convergence, svd and
  // matrixRank threw, pinv returned NaN.
  const graded = (n: number, seed: number, reverse: boolean, cplx: boolean): M => {
    const d = Array.from({ length: n }, (_, j) => 10 ** (-300 * (reverse ? n - 1 - j : j) / (n - 1)));
    return scaleCols(randomM(n, n, new Rng(seed), cplx), d);
  };
  // Relative accuracy where it is determined: σ(G·D) to about κ(G)·eps (Demmel–Veselić).
  // With 10 columns the neighbouring scales are 1e-33 apart, so σ_j = d_j·|r_jj|·(1 + O(1e-33))
  // for G = Q·R (columns in decreasing-scale order): an independent reference from a
  // Householder QR of G in float64.
  const rDiag = (g: M): number[] => {
    const n = g.n, a = Float64Array.from(g.re), out: number[] = [];
    for (let j = 0; j < n; j++) {
      let nv = 0;
      for (let i = j; i < n; i++) nv += a[i * n + j] ** 2;
      nv = Math.sqrt(nv);
      const alpha = a[j * n + j], beta = alpha > 0 ? -nv : nv;
      out.push(Math.abs(beta));
      const v = new Float64Array(n);
      v[j] = alpha - beta;
      for (let i = j + 1; i < n; i++) v[i] = a[i * n + j];
      const vv = v.reduce((s, x) => s + x * x, 0);
      if (vv === 0) continue;
      for (let c = j; c < n; c++) {
        let dot = 0;
        for (let i = j; i < n; i++) dot += v[i] * a[i * n + c];
        const f = (2 * dot) / vv;
        for (let i = j; i < n; i++) a[i * n + c] -= f * v[i];
      }
    }
    return out;
  };

  const reversal = (n: number): M => {
    const p = zerosM(n, n);
    for (let j = 0; j < n; j++) p.re[j * n + n - 1 - j] = 1;
    return p;
  };

  for (const n of [10, 64]) {
    it(`${n}×${n}, float64 and complex128, several seeds, both directions: info 0, ratios, relative accuracy`, () => {
      const eps = epsD('float64');
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        for (const reverse of [false, true]) {
          const a = graded(n, seed, reverse, false);
          const t = toTensor([a], 'float64', []);
          const r = linalg.svdEx(t, { fullMatrices: true });
          expect(r.info.dataSync()[0]).toBe(0);
          const s = r.S.dataSync();
          // Ratios column by column: ‖A‖ is the first column's, the last column's entries are 1e-300 of it.
          checkSvd(a, fromTensor(r.U), s, fromTensor(r.Vh), 'float64');
          const G = randomM(n, n, new Rng(seed), false);
          const kappa = linalg.cond(toTensor([G], 'float64', [])).dataSync()[0];
          const d = Array.from({ length: n }, (_, j) => 10 ** (-300 * j / (n - 1)));
          if (n === 10) {
            // Reference d_j·|r_jj| from the columns in decreasing-scale order.
            const Gd = reverse ? cols(mul(G, reversal(n)), 0, n) : G;
            const rd = rDiag(Gd).map((x, j) => x * d[j]);
            for (let i = 0; i < n; i++) expect(Math.abs(s[i] - rd[i]) / rd[i] / (n * eps * kappa)).toBeLessThan(30);
          }
          // complex128 of the same matrix (the general Jacobi path, no wavefront kernels)
          // must give the same values to the same relative accuracy.
          const sc = linalg.svdEx(toTensor([a], 'complex128', [])).S.dataSync();
          for (let i = 0; i < n; i++) expect(Math.abs(s[i] - sc[i]) / s[i] / (n * eps * kappa)).toBeLessThan(30);
          // matrixRank no longer throws; it counts the values above n·eps·σ_max.
          expect(linalg.matrixRank(t).dataSync()[0]).toBe(Array.from(s).filter((x) => x > n * eps * s[0]).length);
          const X = linalg.pinv(t);
          expect(Array.from(X.dataSync()).every(Number.isFinite)).toBe(true);
        }
      }
      // Complex data graded the same way.
      for (const reverse of [false, true]) {
        const a = graded(n, 7, reverse, true);
        const r = linalg.svdEx(toTensor([a], 'complex128', []), { fullMatrices: false });
        expect(r.info.dataSync()[0]).toBe(0);
        checkSvd(a, fromTensor(r.U), r.S.dataSync(), fromTensor(r.Vh), 'complex128');
      }
    });
  }
});

describe('svd: ordering with repeated and clustered singular values', () => {
  // Jacobi leaves its columns in pivot order, which is not sorted when values repeat or
  // cluster: without the final sort, 377 of 3,003 such SVDs came out unsorted and no test
  // saw it. S must be non-increasing and non-negative from svd and svdvals alike.
  const spectra = (k: number, rng: Rng): number[][] => {
    const rep = Array.from({ length: k }, (_, i) => [3, 3, 1, 1, 1, 0.5][i % 6]);
    const clustered = Array.from({ length: k }, (_, i) => 1 + 1e-9 * rng.normal() + (i % 3 === 0 ? 0 : 1e-3 * (i % 7)));
    const pairs = Array.from({ length: k }, (_, i) => 2 ** -Math.floor(i / 2));
    const zeros = Array.from({ length: k }, (_, i) => (i % 4 === 3 ? 0 : 1 + (i % 2)));
    return [rep, clustered, pairs, zeros];
  };
  const sorted = (s: ArrayLike<number>): boolean => {
    for (let i = 0; i < s.length; i++) if (!(s[i] >= 0) || (i > 0 && s[i] > s[i - 1])) return false;
    return true;
  };
  for (const dtype of DTYPES) {
    it(`${dtype}: sizes 2…64 (n ≥ 24 solves for V), svd and svdvals, batched`, () => {
      const rng = new Rng(130);
      const cplx = isComplexD(dtype);
      for (const [m, n] of [[2, 2], [5, 3], [3, 5], [8, 8], [16, 12], [24, 24], [30, 26], [26, 30], [40, 40], [64, 64]]) {
        const k = Math.min(m, n);
        const mats = spectra(k, rng).map((sig) => round(withSingularValues(m, n, sig, rng, cplx), dtype));
        const t = toTensor(mats, dtype);
        const { U, S, Vh } = linalg.svd(t, { fullMatrices: false });
        const sv = linalg.svdvals(t).dataSync();
        const s = S.dataSync();
        for (let b = 0; b < mats.length; b++) {
          const sb = s.slice(b * k, (b + 1) * k);
          expect(sorted(sb)).toBe(true);
          expect(sorted(sv.slice(b * k, (b + 1) * k))).toBe(true);
          checkSvd(mats[b], fromTensor(U, b), sb, fromTensor(Vh, b), dtype);
        }
      }
    });
  }

  it('random clustered spectra (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 1e6 }),
      fc.constantFrom(...DTYPES), (m, n, seed, dtype) => {
        const rng = new Rng(seed), k = Math.min(m, n);
        // Three clusters of nearly equal values in random order.
        const sig = Array.from({ length: k }, () => [1, 0.25, 0.0625][Math.floor(rng.uniform() * 3)] * (1 + 1e-12 * rng.normal()));
        const a = round(withSingularValues(m, n, sig, rng, isComplexD(dtype)), dtype);
        const t = toTensor([a], dtype, []);
        expect(sorted(linalg.svdvals(t).dataSync())).toBe(true);
        run(a, dtype, false);
      }), { numRuns: 40 });
  });
});
