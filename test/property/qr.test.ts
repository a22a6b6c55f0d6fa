import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, tensor, ShapeError, ArgumentError, type FloatDType } from '../../src/index.js';
import {
  type M, fromTensor, toTensor, randomM, mul, adj, sub, fro, eyeM, epsD, isComplexD, orthErr, withSingularValues,
  geometric, scaleM, zerosM, atScale,
} from '../helpers/spectra.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function round(a: M, dtype: FloatDType): M {
  return fromTensor(toTensor([a], dtype));
}

/** LAPACK's QR ratios on one matrix; returns them for the messages. */
function checkQr(a: M, Q: M, R: M, dtype: FloatDType): void {
  const eps = epsD(dtype), m = Math.max(a.m, 1);
  const na = fro(a);
  const back = fro(sub(a, mul(Q, R)));
  if (na === 0) expect(back).toBe(0);
  else expect(back / (m * eps * na)).toBeLessThan(30);
  if (Q.n > 0) expect(orthErr(Q) / (m * eps)).toBeLessThan(30);
  for (let i = 0; i < R.m; i++)
    for (let j = 0; j < Math.min(i, R.n); j++) {
      expect(R.re[i * R.n + j]).toBe(0);
      expect(R.im[i * R.n + j]).toBe(0);
    }
  // LAPACK's convention: a real diagonal.
  for (let i = 0; i < Math.min(R.m, R.n); i++) expect(R.im[i * R.n + i]).toBe(0);
}

function runCase(m: number, n: number, dtype: FloatDType, mode: 'reduced' | 'complete', rng: Rng): void {
  const a = round(randomM(m, n, rng, isComplexD(dtype)), dtype);
  const { Q, R } = linalg.qr(toTensor([a], dtype, []), { mode });
  const k = Math.min(m, n);
  expect(Q.shape).toEqual([m, mode === 'complete' ? m : k]);
  expect(R.shape).toEqual([mode === 'complete' ? m : k, n]);
  checkQr(a, fromTensor(Q), fromTensor(R), dtype);
}

// The panel width is an explicit kernel parameter (QrParams): widths 1..8 at small n are
// checked in C++ (native/tests/test_blocking.cpp); here the sizes cross the default width (32).
describe('qr: blocked paths across the default panel width (32)', () => {
  const sizes = [1, 3, 31, 32, 33];
  for (const dtype of DTYPES) {
    it(`${dtype}: tall, square and wide on block edges, reduced and complete`, () => {
      const rng = new Rng(11);
      for (const n of sizes)
        for (const m of [n, 2 * n + 1, Math.max(1, n - 2)])
          for (const mode of ['reduced', 'complete'] as const) runCase(m, n, dtype, mode, rng);
    });
  }
});

describe('qr: default panel width', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: 70×40, 40×70, 65×65`, () => {
      const rng = new Rng(12);
      for (const [m, n] of [[70, 40], [40, 70], [65, 65]]) runCase(m, n, dtype, 'reduced', rng);
      runCase(45, 33, dtype, 'complete', rng);
    });
  }

  it('ill-conditioned and badly scaled input keeps the ratios', () => {
    const rng = new Rng(13);
    for (const dtype of ['float64', 'complex128'] as const) {
      for (const scale of [1e-300, 1e300, 1]) {
        const a = round(scaleM(withSingularValues(40, 30, geometric(30, 1, 1e-12), rng, isComplexD(dtype)), scale), dtype);
        const { Q, R } = linalg.qr(toTensor([a], dtype, []));
        checkQr(a, fromTensor(Q), fromTensor(R), dtype);
      }
    }
  });

  it('random shapes (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 14 }), fc.integer({ min: 1, max: 14 }), fc.integer({ min: 0, max: 1e6 }),
      fc.constantFrom(...DTYPES), (m, n, seed, dtype) => {
        runCase(m, n, dtype, seed % 2 === 0 ? 'reduced' : 'complete', new Rng(seed));
      }), { numRuns: 60 });
  });
});

describe('qr: sizes that take the threaded paths', () => {
  // Block updates split into column slices, the look-ahead panel task, and Q formed in
  // place over the factorization (reduced and complete), at every dtype.
  for (const dtype of DTYPES) {
    it(`${dtype}: 400×150 reduced, 200×130 complete, 150×260 (wide)`, () => {
      const rng = new Rng(14);
      runCase(400, 150, dtype, 'reduced', rng);
      runCase(200, 130, dtype, 'complete', rng);
      runCase(150, 260, dtype, 'reduced', rng);
    });
  }
});

describe('qr: against mathjs', () => {
  it('Rᴴ·R = Aᴴ·A and Q·R = A agree with mathjs qr (real and complex)', () => {
    const rng = new Rng(21);
    for (const cplx of [false, true]) {
      const a = randomM(6, 4, rng, cplx);
      const rows = Array.from({ length: a.m }, (_, i) => Array.from({ length: a.n }, (_, j) =>
        cplx ? math.complex(a.re[i * a.n + j], a.im[i * a.n + j]) : a.re[i * a.n + j]));
      const ref = math.qr(rows as never) as unknown as { Q: unknown; R: unknown };
      const toM = (x: unknown): M => {
        const arr = (math.matrix(x as never).toArray() as unknown[][]);
        const r = { m: arr.length, n: arr[0].length, re: new Float64Array(arr.length * arr[0].length), im: new Float64Array(arr.length * arr[0].length) };
        arr.forEach((row, i) => row.forEach((v, j) => {
          const c = math.complex(v as never) as unknown as { re: number; im: number };
          r.re[i * r.n + j] = c.re; r.im[i * r.n + j] = c.im;
        }));
        return r;
      };
      const Qm = toM(ref.Q), Rm = toM(ref.R);
      const { Q, R } = linalg.qr(toTensor([a], cplx ? 'complex128' : 'float64', []), { mode: 'complete' });
      const q = fromTensor(Q), r = fromTensor(R);
      const eps = 2.220446049250313e-16, na = fro(a);
      expect(fro(sub(mul(adj(r), r), mul(adj(Rm), Rm))) / (6 * eps * na * na)).toBeLessThan(30);
      expect(fro(sub(mul(q, r), mul(Qm, Rm))) / (6 * eps * na)).toBeLessThan(30);
      // |R| is unique for full column rank: the diagonals agree in magnitude.
      for (let i = 0; i < 4; i++) {
        const ours = Math.hypot(r.re[i * 4 + i], r.im[i * 4 + i]), theirs = Math.hypot(Rm.re[i * 4 + i], Rm.im[i * 4 + i]);
        expect(Math.abs(ours - theirs)).toBeLessThan(1e-12 * na);
      }
    }
  });
});

describe('qr: float32 at subnormal and near-overflow scales', () => {
  // float32 data between 1e-45 and 1e-38 gave a NaN Q (and Inf/NaN in R): nrm2's
  // power-of-two rescaling overflowed in float (2^130 = Inf). Householder steps on
  // subnormal entries round each operation to the subnormal grid (2^-149), so the
  // backward bound carries that grid step beside eps·‖A‖.
  const grid = 2 ** -149;
  // At 3e38: ‖A‖₂ = 3e38, so σ_max fits; below 1 see atScale.
  for (const dtype of ['float32', 'complex64'] as const) {
    it(`${dtype}: scales 1e-45, 1e-41, 1e-38 and 3e38, on and across the panel width`, () => {
      const rng = new Rng(41);
      const cplx = isComplexD(dtype), eps = epsD(dtype);
      for (const [m, n] of [[3, 2], [2, 3], [8, 5], [40, 33], [33, 40]]) {
        const base = withSingularValues(m, n, geometric(Math.min(m, n), 1, 0.1), rng, cplx);
        for (const sc of [1e-45, 1e-41, 1e-38, 3e38]) {
          const a = round(atScale(base, sc), dtype);
          for (const mode of ['reduced', 'complete'] as const) {
            const { Q, R } = linalg.qr(toTensor([a], dtype, []), { mode });
            for (const t of [Q, R]) expect(Array.from(t.dataSync()).every(Number.isFinite)).toBe(true);
            const q = fromTensor(Q), r = fromTensor(R), mx = Math.max(m, n);
            expect(fro(sub(a, mul(q, r))) / (mx * (eps * fro(a) + grid * Math.sqrt(m * n)))).toBeLessThan(30);
            expect(orthErr(q) / (m * eps)).toBeLessThan(30);
          }
        }
      }
    });
  }
});

describe('qr: R against mathjs qr up to row signs', () => {
  // R is unique up to a unimodular factor per row (Q·D, D⁻¹·R) for full column rank:
  // row i of ours = phase_i · row i of mathjs's, to κ(A)·eps·‖A‖ (the QR's forward error).
  const toRows = (a: M, cplx: boolean) => Array.from({ length: a.m }, (_, i) => Array.from({ length: a.n }, (_, j) =>
    cplx ? math.complex(a.re[i * a.n + j], a.im[i * a.n + j]) : a.re[i * a.n + j]));
  const toM = (x: unknown): M => {
    const arr = math.matrix(x as never).toArray() as unknown[][];
    const r = zerosM(arr.length, arr[0].length);
    arr.forEach((row, i) => row.forEach((v, j) => {
      const c = math.complex(v as never) as unknown as { re: number; im: number };
      r.re[i * r.n + j] = c.re; r.im[i * r.n + j] = c.im;
    }));
    return r;
  };
  function compareR(a: M, dtype: FloatDType): void {
    const cplx = isComplexD(dtype), k = Math.min(a.m, a.n);
    const Rm = toM((math.qr(toRows(a, cplx) as never) as unknown as { R: unknown }).R);
    const r = fromTensor(linalg.qr(toTensor([a], dtype, []), { mode: 'r' }).R);
    const kappa = linalg.cond(toTensor([a], cplx ? 'complex128' : 'float64', [])).dataSync()[0];
    const unit = Math.max(a.m, a.n) * epsD(dtype) * kappa * fro(a);
    for (let i = 0; i < k; i++) {
      // phase = ours_ii / theirs_ii, both of modulus |r_ii|.
      const or = r.re[i * a.n + i], oi = r.im[i * a.n + i], tr = Rm.re[i * a.n + i], ti = Rm.im[i * a.n + i];
      const t2 = tr * tr + ti * ti;
      let pr = (or * tr + oi * ti) / t2, pi = (oi * tr - or * ti) / t2;
      const pm = Math.hypot(pr, pi);
      pr /= pm; pi /= pm;
      let e = 0;
      for (let j = 0; j < a.n; j++) {
        const xr = Rm.re[i * a.n + j], xi = Rm.im[i * a.n + j];
        e += (r.re[i * a.n + j] - (pr * xr - pi * xi)) ** 2 + (r.im[i * a.n + j] - (pr * xi + pi * xr)) ** 2;
      }
      expect(Math.sqrt(e) / unit).toBeLessThan(30);
    }
  }

  it('random shapes, all dtypes, default panel width (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 1e6 }),
      fc.constantFrom(...DTYPES), (m, n, seed, dtype) => {
        compareR(round(randomM(m, n, new Rng(seed), isComplexD(dtype)), dtype), dtype);
      }), { numRuns: 30 });
  });

  describe('default panel width (32): sizes on and across block edges', () => {
    it('every dtype, n ∈ {3, 31, 32, 33}, tall and square and wide', () => {
      const rng = new Rng(42);
      for (const dtype of DTYPES)
        for (const n of [3, 31, 32, 33])
          for (const m of [n, 2 * n + 1, Math.max(1, n - 2)]) compareR(round(randomM(m, n, rng, isComplexD(dtype)), dtype), dtype);
    });
  });
});

describe('qr: modes, batches, edge shapes, errors', () => {
  it("mode 'r' returns the reduced R and an empty Q", () => {
    const A = tensor([[1, 2, 3], [4, 5, 6], [7, 8, 10], [1, 0, 1]]);
    const r = linalg.qr(A, { mode: 'r' });
    expect(r.Q.shape).toEqual([0]);
    expect(Array.from(r.R.dataSync())).toEqual(Array.from(linalg.qr(A).R.dataSync()));
  });

  it('batched: each matrix matches its own factorization; the input is untouched', () => {
    const rng = new Rng(31);
    const mats = Array.from({ length: 6 }, () => randomM(5, 3, rng, true));
    const A = toTensor(mats, 'complex128', [2, 3]);
    const before = Float64Array.from(A.dataSync());
    const { Q, R } = linalg.qr(A);
    expect(Q.shape).toEqual([2, 3, 5, 3]);
    expect(R.shape).toEqual([2, 3, 3, 3]);
    for (let b = 0; b < 6; b++) {
      const one = linalg.qr(toTensor([mats[b]], 'complex128', []));
      expect(Array.from(fromTensor(Q, b).re)).toEqual(Array.from(fromTensor(one.Q).re));
      checkQr(mats[b], fromTensor(Q, b), fromTensor(R, b), 'complex128');
    }
    expect(Array.from(A.dataSync())).toEqual(Array.from(before));
  });

  it('0×n and n×0', () => {
    let r = linalg.qr(tensor({ data: new Float64Array(0), shape: [0, 3] }), { mode: 'complete' });
    expect(r.Q.shape).toEqual([0, 0]);
    expect(r.R.shape).toEqual([0, 3]);
    r = linalg.qr(tensor({ data: new Float64Array(0), shape: [3, 0] }), { mode: 'complete' });
    expect(r.Q.toArray()).toEqual(eyeArr(3));
    expect(r.R.shape).toEqual([3, 0]);
    r = linalg.qr(tensor({ data: new Float64Array(0), shape: [3, 0] }));
    expect(r.Q.shape).toEqual([3, 0]);
  });

  it('a zero matrix and a zero column factor exactly', () => {
    const z = linalg.qr(tensor([[0, 0], [0, 0], [0, 0]]), { mode: 'complete' });
    expect(z.Q.toArray()).toEqual(eyeArr(3));
    const rng = new Rng(5);
    const a = randomM(5, 4, rng, false);
    for (let i = 0; i < 5; i++) a.re[i * 4 + 1] = 0;
    const { Q, R } = linalg.qr(toTensor([a], 'float64', []));
    checkQr(a, fromTensor(Q), fromTensor(R), 'float64');
  });

  it('NaN input gives NaN in R, never a hang', () => {
    const { R } = linalg.qr(tensor([[1, NaN], [2, 3]]));
    expect(Array.from(R.dataSync()).some(Number.isNaN)).toBe(true);
  });

  it('bad arguments throw typed errors', () => {
    expect(() => linalg.qr(tensor([1, 2, 3]))).toThrow(ShapeError);
    expect(() => linalg.qr([[1]], { mode: 'full' as never })).toThrow(ArgumentError);
    expect(() => linalg.qr(toTensor([eyeM(2)], 'float64', []), { mode: 'economic' as never })).toThrow(/mode/);
  });
});

function eyeArr(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
}
