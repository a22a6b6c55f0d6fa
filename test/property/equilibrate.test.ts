// Issue 10 item 11: finite matrices near the ends of the floating-point range. solve,
// inv and det/slogdet equilibrate (power-of-two R·A·C, LAPACK's dgeequb/dgesvx) when the
// largest entry is near overflow/underflow or the unscaled factors come out non-finite;
// luFactor factors 2^s·A (same pivots and L) and reports info −2 when U itself overflows.
// Every check is scale-free: A = 2^s·M' with M' = 2^−s·A exact, so each result is judged
// against the ordinary-scale problem by the LAPACK ratios.
import { describe, it, expect } from 'vitest';
import { linalg, Rng, LinAlgError, Tensor } from '../../src/index.js';
import { INFO } from '../../src/linalg/index.js';
import { Mat, DTYPES, randomMatrix, fromTensor, toTensor, ratioSolve, ratioInv, withSingularValues } from '../helpers/matrices.js';
import { epsOf, type FloatDType } from '../../src/core/dtype.js';

const cplx = (dt: FloatDType) => dt.startsWith('complex');
const f64 = (dt: FloatDType) => dt === 'float64' || dt === 'complex128';

/** x·2^e without the intermediate 2^e overflowing (|e| up to ~2100). */
function ldexp(x: number, e: number): number {
  while (e > 1000) { x *= 2 ** 1000; e -= 1000; }
  while (e < -1000) { x *= 2 ** -1000; e += 1000; }
  return x * 2 ** e;
}

/** The tensor 2^s·M (one rounding to the dtype) and M' = 2^−s·(that tensor), exact. */
function scaled(mats: readonly Mat[], s: number, dt: FloatDType): { A: Tensor; Mp: Mat[] } {
  const A = toTensor(mats, dt);
  const d = A.dataSync() as Float64Array | Float32Array;
  for (let i = 0; i < d.length; i++) d[i] = ldexp(d[i], s);
  const Mp = mats.map((_, b) => {
    const M = fromTensor(A, b);
    for (let i = 0; i < M.data.length; i++) M.data[i] = ldexp(M.data[i], -s);
    return M;
  });
  return { A, Mp };
}

// Scales: beyond the equilibration threshold (2^±970 / 2^±103), at the very top (factors
// or their updates overflow unscaled) and in the subnormal range (precision and pivots lost).
const SCALES: Record<'f64' | 'f32', number[]> = { f64: [1000, 1021, -1000, -1040], f32: [120, 125, -120, -138] };

describe('the 2×2 and 5×5 cases of the issue', () => {
  it('A = [[1e308, 1e308], [1e308, −1e308]]: solve, inv, slogdet right; luFactor reports −2', () => {
    const A = [[1e308, 1e308], [1e308, -1e308]];
    const x = linalg.solveEx(A, [1e308, 0]);
    expect(Array.from(x.info.dataSync())).toEqual([0]);
    expect(Array.from(x.result.dataSync())).toEqual([0.5, 0.5]);
    const { inverse, info } = linalg.invEx(A);
    expect(Array.from(info.dataSync())).toEqual([0]);
    // inv = [[1, 1], [1, −1]] / 2e308 = ±5e−309 (subnormal: a relative error of 2^−1074/5e−309)
    const h = 0.5 / 1e308;
    const inv = Array.from(inverse.dataSync());
    [h, h, h, -h].forEach((v, i) => expect(Math.abs(inv[i] - v)).toBeLessThanOrEqual(2 ** -1074));
    const { sign, logabsdet } = linalg.slogdet(A);
    expect(sign.dataSync()[0]).toBe(-1);
    const want = Math.log(2) + 2 * Math.log(1e308);
    expect(Math.abs(logabsdet.dataSync()[0] - want)).toBeLessThan(4 * want * epsOf('float64'));
    expect(linalg.det(A).dataSync()[0]).toBe(-Infinity);  // |det| = 2e616: legitimately out of range
    const f = linalg.luFactorEx(A);
    expect(f.info.dataSync()[0]).toBe(INFO.FACTOR_OVERFLOW);
    expect(INFO.FACTOR_OVERFLOW).toBe(-2);
    expect(() => linalg.luFactor(A)).toThrow(LinAlgError);
    expect(() => linalg.luFactor(A)).toThrow(/overflow/);
  });
  it('the 5×5 ±1e308 version: info 0 (not −1), the solution and inverse of the unscaled matrix', () => {
    const S = Mat.from([[1, 1, 1, 1, 1], [1, -1, 1, -1, 1], [1, 1, -1, -1, 1], [1, -1, -1, 1, 1], [1, 1, 1, 1, -1]]);
    for (const dt of DTYPES) {
      const big = f64(dt) ? 1e308 : 3e38;
      const A = S.clone();
      for (let i = 0; i < A.data.length; i++) A.data[i] *= big;
      const b = Mat.from([[1], [2], [3], [4], [5]]);
      const r = linalg.solveEx(toTensor([A], dt), toTensor([b], dt));
      expect(Array.from(r.info.dataSync()), dt).toEqual([0]);
      // S·(big·x) = b
      const y = fromTensor(r.result);
      for (let i = 0; i < y.data.length; i++) y.data[i] *= big;
      expect(ratioSolve(S, y, b, dt), dt).toBeLessThan(30);
      const v = linalg.invEx(toTensor([A], dt));
      expect(Array.from(v.info.dataSync()), dt).toEqual([0]);
      const X = fromTensor(v.inverse);
      for (let i = 0; i < X.data.length; i++) X.data[i] *= big;
      expect(ratioInv(S, X, dt), dt).toBeLessThan(30);
      const { logabsdet } = linalg.slogdet(toTensor([A], dt));
      const ref = linalg.slogdet(toTensor([S], 'float64')).logabsdet.dataSync()[0] + 5 * Math.log(f64(dt) ? big : Math.fround(big));
      expect(Math.abs(logabsdet.dataSync()[0] - ref) / (5 * ref * epsOf(dt)), dt).toBeLessThan(30);
    }
  });
  it('a random 5×5 at the top of the range: info 0, the solution and inverse of the unscaled matrix', () => {
    const rng = new Rng(5);
    for (const dt of DTYPES) {
      const M = withSingularValues([1, 0.8, 0.5, 0.3, 0.2], rng, { complex: cplx(dt) });
      const top = f64(dt) ? 1023 : 127;  // entries up to ~2^top: elimination overflows unscaled
      const { A, Mp } = scaled([M], top, dt);
      const B = randomMatrix(5, 2, rng, { complex: cplx(dt) });
      for (let i = 0; i < B.data.length; i++) B.data[i] /= 16;  // so that 2^top·B stays finite
      const { A: Bs, Mp: Np } = scaled([B], top, dt);
      const r = linalg.solveEx(A, Bs);
      expect(Array.from(r.info.dataSync()), dt).toEqual([0]);
      expect(ratioSolve(Mp[0], fromTensor(r.result), Np[0], dt), dt).toBeLessThan(30);
      const v = linalg.invEx(A);
      expect(Array.from(v.info.dataSync()), dt).toEqual([0]);
      const X = fromTensor(v.inverse);
      for (let i = 0; i < X.data.length; i++) X.data[i] = ldexp(X.data[i], top);
      expect(ratioInv(Mp[0], X, dt), dt).toBeLessThan(30);
    }
  });
});

describe('solve / inv / slogdet / luFactor of 2^s·M against M', () => {
  for (const dt of DTYPES) {
    it(`${dt}: random matrices scaled by ${SCALES[f64(dt) ? 'f64' : 'f32'].map((s) => `2^${s}`).join(', ')}`, () => {
      const rng = new Rng(11);
      const eps = epsOf(dt);
      for (const s of SCALES[f64(dt) ? 'f64' : 'f32']) {
        // n: the tiny lane kernels (2, 3), the small fixed kernel (7), the blocked LU (40),
        // the recursive LU past its crossover (70; smaller blocks: native/tests/test_blocking.cpp)
        for (const n of [2, 3, 7, 40, 70]) {
          const count = n <= 3 ? 17 : 2;  // n ≤ 3: full lane groups (up to 16 lanes) and a tail
          const mats = Array.from({ length: count }, () => randomMatrix(n, n, rng, { complex: cplx(dt) }));
          const { A, Mp } = scaled(mats, s, dt);
          const tag = `${dt} s=${s} n=${n}`;
          // solve, one and several right-hand sides, B on A's scale (X is O(1))
          for (const k of [1, 3]) {
            const { A: B, Mp: Np } = scaled(mats.map(() => randomMatrix(n, k, rng, { complex: cplx(dt) })), s, dt);
            const r = linalg.solveEx(A, B);
            expect(Array.from(r.info.dataSync()), tag).toEqual(Array(count).fill(0));
            for (let b = 0; b < count; b++) expect(ratioSolve(Mp[b], fromTensor(r.result, b), Np[b], dt), `${tag} k=${k}`).toBeLessThan(30);
          }
          // inv(2^s·M') = 2^−s·inv(M'); only where 2^−s·inv stays in range (not the subnormal inputs)
          if (f64(dt) ? s > -1001 : s > -121) {
            const v = linalg.invEx(A);
            expect(Array.from(v.info.dataSync()), tag).toEqual(Array(count).fill(0));
            for (let b = 0; b < count; b++) {
              // skip a matrix whose true inverse 2^−s·inv(M') is itself out of range
              const ref = fromTensor(linalg.inv(toTensor([Mp[b]], 'complex128')));
              const top = Math.max(...Array.from(ref.data, Math.abs));
              if (ldexp(top, -s) > (f64(dt) ? 2 ** 1020 : 2 ** 126)) continue;
              const X = fromTensor(v.inverse, b);
              for (let i = 0; i < X.data.length; i++) X.data[i] = ldexp(X.data[i], s);
              expect(ratioInv(Mp[b], X, dt), tag).toBeLessThan(30);
            }
          }
          // slogdet(2^s·M') = (sign(M'), n·s·ln 2 + log|det M'|): compared with M' at ordinary
          // scale; the difference is rounding of the two factorizations, ≲ n·κ·eps each
          const { sign, logabsdet } = linalg.slogdet(A);
          const ref = linalg.slogdet(toTensor(Mp, dt));
          const ld = logabsdet.dataSync(), lr = ref.logabsdet.dataSync();
          const sd = sign.dataSync(), sr = ref.sign.dataSync();
          for (let b = 0; b < count; b++) {
            const kappa = Mp[b].norm1() * fromTensor(linalg.inv(toTensor([Mp[b]], 'complex128'))).norm1();
            const shift = n * s * Math.LN2;
            const err = Math.abs(ld[b] - (lr[b] + shift)) / (n * kappa * eps + 4 * Math.abs(shift) * eps);
            expect(err, tag).toBeLessThan(30);
            if (cplx(dt)) expect(Math.hypot(sd[2 * b] - sr[2 * b], sd[2 * b + 1] - sr[2 * b + 1]), tag).toBeLessThan(30 * n * kappa * eps);
            else expect(sd[b], tag).toBe(sr[b]);
          }
          // luFactor: the factors of 2^s·M' are P and L of M' and 2^s·U' (rounded once), info 0
          {
            const f = linalg.luFactorEx(A);
            const g = linalg.luFactorEx(toTensor(Mp, dt));
            expect(Array.from(f.pivots.dataSync()), tag).toEqual(Array.from(g.pivots.dataSync()));
            const fd = f.LU.dataSync(), gd = g.LU.dataSync(), info = f.info.dataSync();
            const F = cplx(dt) ? 2 : 1;
            const round = f64(dt) ? (x: number) => x : Math.fround;
            for (let b = 0; b < count; b++) {
              const want: number[] = [];
              for (let i = 0; i < n; i++)
                for (let j = 0; j < n; j++)
                  for (let c = 0; c < F; c++) {
                    const e = ((b * n + i) * n + j) * F + c;
                    want.push(j < i ? gd[e] : round(ldexp(gd[e], s)));
                  }
              // U of 2^s·M' out of range (growth at the top scale): the documented status
              if (!want.every(Number.isFinite)) { expect(info[b], tag).toBe(INFO.FACTOR_OVERFLOW); continue; }
              expect(info[b], tag).toBe(0);
              expect(Array.from(fd.slice(b * n * n * F, (b + 1) * n * n * F)), tag).toEqual(want);
            }
          }
        }
      }
    });
  }
  it('growth overflow below the threshold (Wilkinson matrix, growth 2^(n−1)): detected after the factorization', () => {
    // max|a| = 2^s is inside the thresholds, but the factors of 2^s·W grow to 2^(s+n−1):
    // solve, inv and slogdet notice the non-finite factors and equilibrate; R·A·C is then
    // 2^k·W (uniform), so the results are those of W at ordinary scale, bit for bit
    for (const [dt, n, s] of [['float64', 60, 969], ['float32', 30, 102], ['complex128', 60, 969]] as const) {
      const W = new Mat(n, n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < i; j++) W.set(i, j, -1);
        W.set(i, i, 1);
        W.set(i, n - 1, 1);
      }
      const b = Mat.from(Array.from({ length: n }, (_, i) => [(i % 3) - 1]));
      const { A } = scaled([W], s, dt);
      const { A: B } = scaled([b], s, dt);
      const r = linalg.solveEx(A, B);
      expect(Array.from(r.info.dataSync()), dt).toEqual([0]);
      expect(Array.from(r.result.dataSync()), dt).toEqual(Array.from(linalg.solve(toTensor([W], dt), toTensor([b], dt)).dataSync()));
      const { sign, logabsdet } = linalg.slogdet(A);
      const ref = linalg.slogdet(toTensor([W], dt));
      expect(sign.dataSync()[0], dt).toBe(ref.sign.dataSync()[0]);
      expect(Math.abs(logabsdet.dataSync()[0] - (ref.logabsdet.dataSync()[0] + n * s * Math.LN2)), dt)
        .toBeLessThan(n * n * s * Math.LN2 * epsOf(dt));  // a sum of n logs of size ≈ s·ln 2: (n−1)·Σ|term|·eps
      expect(Array.from(linalg.invEx(A).info.dataSync()), dt).toEqual([0]);
      expect(linalg.luFactorEx(A).info.dataSync()[0], dt).toBe(INFO.FACTOR_OVERFLOW);
    }
  });
  it('one A broadcast over a batch of B (factored once, n > 16) at 2^±1000', () => {
    const rng = new Rng(14);
    for (const s of [1000, -1040]) {
      const M = randomMatrix(20, 20, rng);
      const { A, Mp } = scaled([M], s, 'float64');
      const Bs = [0, 1, 2].map(() => randomMatrix(20, 2, rng));
      const { A: B, Mp: Np } = scaled(Bs, s, 'float64');
      const r = linalg.solveEx(A, B);
      expect(r.result.shape).toEqual([3, 20, 2]);
      expect(Array.from(r.info.dataSync())).toEqual([0, 0, 0]);
      for (let b = 0; b < 3; b++) expect(ratioSolve(Mp[0], fromTensor(r.result, b), Np[b], 'float64'), `s=${s}`).toBeLessThan(30);
    }
  });
  it('graded rows and columns (2^±900 float64): solve and slogdet through R·A·C', () => {
    const rng = new Rng(12);
    const n = 6;
    const M = randomMatrix(n, n, rng);
    const r = [500, -400, 0, 300, -500, 20], c = [-400, 400, 10, -300, 500, 0];
    // A = D_r·M·D_c, entries from 2^−900 to 2^1000 (beyond the threshold: equilibrated)
    const A = new Mat(n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A.set(i, j, ldexp(M.re(i, j), r[i] + c[j]));
    const x = fromTensor(linalg.solve(toTensor([A], 'float64'), toTensor([Mat.from(Array.from({ length: n }, (_, i) => [ldexp(1, r[i])]))], 'float64')));
    // D_r·M·D_c·x = D_r·1  ⇔  M·(D_c·x) = 1
    const y = new Mat(n, 1);
    for (let i = 0; i < n; i++) y.set(i, 0, ldexp(x.re(i, 0), c[i]));
    expect(ratioSolve(M, y, Mat.from(Array.from({ length: n }, () => [1])), 'float64')).toBeLessThan(30);
    const { logabsdet } = linalg.slogdet(toTensor([A], 'float64'));
    const ref = linalg.slogdet(toTensor([M], 'float64')).logabsdet.dataSync()[0];
    const shift = (r.reduce((a, v) => a + v, 0) + c.reduce((a, v) => a + v, 0)) * Math.LN2;
    const eps = epsOf('float64');
    const kappa = M.norm1() * fromTensor(linalg.inv(toTensor([M], 'float64'))).norm1();
    expect(Math.abs(logabsdet.dataSync()[0] - (ref + shift)) / (n * kappa * eps + 4 * Math.abs(shift) * eps)).toBeLessThan(30);
  });
  it('ordinary matrices keep the fast path bit for bit; NaN/Inf input is still info −1', () => {
    const rng = new Rng(13);
    const M = randomMatrix(7, 7, rng);
    const A = toTensor([M], 'float64');
    // a power-of-two scale that stays inside the thresholds changes nothing but the exponent
    const { A: A2 } = scaled([M], 400, 'float64');
    const B = toTensor([randomMatrix(7, 1, rng)], 'float64');
    const x = linalg.solve(A, B).dataSync(), x2 = linalg.solve(A2, B).dataSync();
    x.forEach((v, i) => expect(x2[i]).toBe(ldexp(v, -400)));
    const bad = M.clone();
    bad.set(2, 3, Infinity);
    const { A: Ab } = scaled([bad], 1022, 'float64');
    expect(Array.from(linalg.solveEx(Ab, B).info.dataSync())).toEqual([-1]);
    expect(Array.from(linalg.invEx(Ab).info.dataSync())).toEqual([-1]);
  });
});
