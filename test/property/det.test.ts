import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, ShapeError, Tensor, tensor } from '../../src/index.js';
import { Mat, DTYPES, withSingularValues, randomMatrix, toTensor, randomUnitary, roundTo } from '../helpers/matrices.js';
import { epsOf, type FloatDType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const cplx = (dt: FloatDType) => dt.startsWith('complex');

describe('det / slogdet', () => {
  it('against mathjs det (real)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 1e6 }), (n, seed) => {
      const A = randomMatrix(n, n, new Rng(seed));
      const ref = math.det(A.toRealArray());
      const d = linalg.det(toTensor([A], 'float64')).dataSync()[0];
      let had = 1;
      for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += A.re(i, j) ** 2; had *= Math.sqrt(s); }
      expect(Math.abs(d - ref)).toBeLessThan(1e-13 * n * had);
    }), { numRuns: 50 });
  });
  it('against mathjs det (complex)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 1e6 }), (n, seed) => {
      const A = randomMatrix(n, n, new Rng(seed), { complex: true });
      const mA = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => math.complex(A.re(i, j), A.im(i, j))));
      const ref = math.det(mA) as unknown as { re: number; im: number };
      const d = linalg.det(toTensor([A], 'complex128')).dataSync();
      let had = 1;
      for (let i = 0; i < n; i++) { let s = 0; for (let j = 0; j < n; j++) s += A.re(i, j) ** 2 + A.im(i, j) ** 2; had *= Math.sqrt(s); }
      expect(Math.hypot(d[0] - ref.re, d[1] - ref.im)).toBeLessThan(1e-13 * n * had);
    }), { numRuns: 40 });
  });
  // log|det| of the matrix the kernel sees (A rounded to the dtype) moves by at most
  // ‖A⁻¹‖·‖δA‖·n ≈ n·κ·eps for a backward-stable LU, so the error is measured in that unit
  // (LAPACK style, < 30) instead of an absolute tolerance; the sign is compared with mathjs
  // det of the same rounded matrix (for real dtypes, |sign| − 1 would always be 0).
  it('|det| = ∏ singular values (n·κ·eps ratio); sign against mathjs det; complex sign has modulus 1', () => {
    const rng = new Rng(91);
    for (const dt of DTYPES) {
      const eps = epsOf(dt);
      for (const n of [1, 3, 10, 40, 90]) {
        const s = Array.from({ length: n }, () => 0.1 + 3 * rng.uniform());
        const kappa = Math.max(...s) / Math.min(...s);
        const A = withSingularValues(s, rng, { complex: cplx(dt) });
        const Ar = roundTo(A, dt);
        const { sign, logabsdet } = linalg.slogdet(toTensor([A], dt));
        const want = s.reduce((acc, v) => acc + Math.log(v), 0);
        const unit = n * kappa * eps;
        expect(Math.abs(logabsdet.dataSync()[0] - want) / unit, `${dt} n=${n}`).toBeLessThan(30);
        const dref = cplx(dt)
          ? math.det(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => math.complex(Ar.re(i, j), Ar.im(i, j))))) as unknown as { re: number; im: number }
          : { re: math.det(Ar.toRealArray()) as number, im: 0 };
        const sg = sign.dataSync();
        if (cplx(dt)) {
          expect(Math.abs(Math.hypot(sg[0], sg[1]) - 1), `${dt} n=${n}`).toBeLessThan(4 * eps);
          const m = Math.hypot(dref.re, dref.im);
          expect(Math.hypot(sg[0] - dref.re / m, sg[1] - dref.im / m) / unit, `${dt} n=${n}`).toBeLessThan(30);
        } else {
          expect(sg[0], `${dt} n=${n}`).toBe(Math.sign(dref.re));
        }
        const d = linalg.det(toTensor([A], dt)).dataSync();
        const dm = cplx(dt) ? Math.hypot(d[0], d[1]) : Math.abs(d[0]);
        expect(Math.abs(Math.log(dm) - want) / unit, `${dt} n=${n}`).toBeLessThan(30);
        if (!cplx(dt)) expect(Math.sign(d[0]), `${dt} n=${n}`).toBe(Math.sign(dref.re));
      }
    }
  });
  it('det of a unitary matrix has modulus 1; permutations have det ±1 exactly', () => {
    const U = randomUnitary(12, new Rng(92), { complex: true });
    const d = linalg.det(toTensor([U], 'complex128')).dataSync();
    expect(Math.abs(Math.hypot(d[0], d[1]) - 1)).toBeLessThan(1e-13);
    expect(linalg.det([[0, 1, 0], [0, 0, 1], [1, 0, 0]]).dataSync()[0]).toBe(1);
    expect(linalg.det([[0, 1], [1, 0]]).dataSync()[0]).toBe(-1);
  });
  it('no spurious overflow or underflow: det of diag(1e200, 1e200, 1e-200, 1e-200) is 1', () => {
    const d = linalg.det(Mat.diag([1e200, 1e200, 1e-200, 1e-200]).toRealArray()).dataSync()[0];
    expect(d).toBeCloseTo(1, 12);
    const D = linalg.det(Mat.diag([1e300, 1e300]).toRealArray()).dataSync()[0];
    expect(D).toBe(Infinity);
    const { logabsdet } = linalg.slogdet(Mat.diag([1e300, 1e300]).toRealArray());
    expect(logabsdet.dataSync()[0]).toBeCloseTo(600 * Math.log(10), 10);
    const u = linalg.det(Mat.diag(Array(40).fill(1e-10)).toRealArray()).dataSync()[0];
    expect(u).toBe(0); // true value 1e-400 underflows
  });
  it('singular: det 0, slogdet (0, −Inf)', () => {
    expect(linalg.det([[1, 2], [2, 4]]).dataSync()[0]).toBe(0);
    const { sign, logabsdet } = linalg.slogdet([[1, 2], [2, 4]]);
    expect(sign.dataSync()[0]).toBe(0);
    expect(logabsdet.dataSync()[0]).toBe(-Infinity);
  });
  it('NaN or Inf anywhere gives NaN (numpy gives det = 0 for ones(3,3) with one NaN)', () => {
    for (const dt of DTYPES) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        const A = Mat.from([[1, 1, 1], [1, 1, 1], [1, 1, 1]]);
        A.set(0, 2, bad);
        const d = linalg.det(toTensor([A], dt)).dataSync();
        expect(Array.from(d).every(Number.isNaN)).toBe(true);
        const { sign, logabsdet } = linalg.slogdet(toTensor([A], dt));
        expect(Number.isNaN(sign.dataSync()[0])).toBe(true);
        expect(Number.isNaN(logabsdet.dataSync()[0])).toBe(true);
      }
    }
  });
  it('0×0 gives det 1 and slogdet (1, 0); batches keep their shape', () => {
    expect(linalg.det(Tensor.empty('float64', [0, 0])).dataSync()[0]).toBe(1);
    const s = linalg.slogdet(Tensor.empty('complex64', [2, 0, 0]));
    expect(Array.from(s.sign.dataSync())).toEqual([1, 0, 1, 0]);
    expect(Array.from(s.logabsdet.dataSync())).toEqual([0, 0]);
    expect(s.logabsdet.dtype).toBe('float32');
    const batch = tensor({ data: new Float64Array([1, 0, 0, 2, 0, 1, 1, 0, 1, 2, 2, 4]), shape: [3, 2, 2] });
    expect(Array.from(linalg.det(batch).dataSync())).toEqual([2, -1, 0]);
    expect(() => linalg.det([[1, 2, 3]])).toThrow(ShapeError);
  });
});
