import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, tensor, ArgumentError, ShapeError, type FloatDType } from '../../src/index.js';
import { type M, toTensor, randomM, withSingularValues, geometric, isComplexD, fromTensor } from '../helpers/spectra.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const close = (x: number, y: number, rel: number) => expect(Math.abs(x - y)).toBeLessThanOrEqual(rel * Math.max(Math.abs(y), 1e-300));
const scalar = (t: { dataSync(): ArrayLike<number> }) => t.dataSync()[0];

function toRows(a: M): number[][] {
  return Array.from({ length: a.m }, (_, i) => Array.from(a.re.slice(i * a.n, (i + 1) * a.n)));
}

describe('norm: vectors', () => {
  it('matches mathjs for p = 1, 2, 3, ±Infinity and the definition for p = 0, -1, 0.5 (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 1e6 }), (len, seed) => {
      const rng = new Rng(seed);
      // Mixed magnitudes and some exact zeros.
      const v = Array.from({ length: len }, () => (rng.uniform() < 0.15 ? 0 : rng.normal() * 10 ** Math.floor(rng.uniform() * 6 - 3)));
      const t = tensor(v);
      close(scalar(linalg.norm(t)), math.norm(v) as number, 1e-14);
      close(scalar(linalg.norm(t, 1)), math.norm(v, 1) as number, 1e-14);
      close(scalar(linalg.norm(t, 3)), math.norm(v, 3) as number, 1e-13);
      close(scalar(linalg.norm(t, Infinity)), math.norm(v, 'inf') as number, 0);
      close(scalar(linalg.norm(t, -Infinity)), Math.min(...v.map(Math.abs)), 0);
      expect(scalar(linalg.norm(t, 0))).toBe(v.filter((x) => x !== 0).length);
      const abs = v.map(Math.abs);
      if (abs.every((x) => x > 0)) close(scalar(linalg.norm(t, -1)), 1 / abs.reduce((s, x) => s + 1 / x, 0), 1e-13);
      close(scalar(linalg.norm(t, 0.5)), abs.reduce((s, x) => s + Math.sqrt(x), 0) ** 2, 1e-13);
    }), { numRuns: 100 });
  });

  it('complex entries use |z|; 1e±300 entries neither overflow nor underflow', () => {
    const z = tensor([{ re: 3, im: 4 }, { re: 0, im: -12 }], { dtype: 'complex128' });
    expect(scalar(linalg.norm(z))).toBe(13);
    expect(scalar(linalg.norm(z, 1))).toBe(17);
    close(scalar(linalg.norm(tensor([3e300, 4e300]))), 5e300, 1e-15);
    close(scalar(linalg.norm(tensor([3e-300, 4e-300]))), 5e-300, 1e-15);
    close(scalar(linalg.norm(tensor([3e-320, 4e-320]))), 5e-320, 1e-2);
    close(scalar(linalg.norm(tensor([3e30, 4e30], { dtype: 'float32' }))), 5e30, 1e-6);
  });

  it('the unscaled sum of squares stands only where no square over- or underflowed', () => {
    // squares underflow (1e-320): the scaled pass answers
    close(scalar(linalg.norm(tensor([3e-160, 4e-160]))), 5e-160, 1e-15);
    // one big and many tiny entries: the tiny squares are below eps of the sum
    close(scalar(linalg.norm(tensor([1, ...Array<number>(9).fill(1e-200)]))), 1, 1e-16);
    // five entries (a chain tail) whose squares overflow
    close(scalar(linalg.norm(tensor([3e200, 4e200, 0, 0, 0]))), 5e200, 1e-15);
    // long rows through the addon's SIMD lanes: plain, overflowing, NaN, complex
    const n = 5000;
    close(scalar(linalg.norm(tensor(Array<number>(n).fill(3)))), 3 * Math.sqrt(n), 1e-14);
    close(scalar(linalg.norm(tensor(Array<number>(n).fill(1e200)))), 1e200 * Math.sqrt(n), 1e-14);
    close(scalar(linalg.norm(tensor(Array<number>(n).fill(1e-170)))), 1e-170 * Math.sqrt(n), 1e-14);
    expect(scalar(linalg.norm(tensor(Array.from({ length: n }, (_, i) => (i === 77 ? NaN : 1)))))).toBeNaN();
    const big = tensor(Array.from({ length: n / 2 }, (_, i) => ({ re: 3 * (i % 2 ? -1 : 1), im: 4 })), { dtype: 'complex128' });
    close(scalar(linalg.norm(big)), 5 * Math.sqrt(n / 2), 1e-14);
    close(scalar(linalg.norm(big.reshape([50, 50]), 'fro')), 5 * Math.sqrt(n / 2), 1e-14);
    // complex parts whose squares overflow or underflow, in the 2-norm and in the 1- and ∞-norms' |z|
    const z = (v: number) => tensor([[{ re: 3 * v, im: 4 * v }, { re: 0, im: 5 * v }]], { dtype: 'complex128' });
    for (const v of [1e200, 1e-170, 1e-320]) {
      const rel = v < 1e-300 ? 1e-2 : 1e-15;
      close(scalar(linalg.norm(z(v))), Math.SQRT2 * 5 * v, rel);
      close(scalar(linalg.norm(z(v), 1)), 5 * v, rel);
      close(scalar(linalg.norm(z(v), Infinity)), 10 * v, rel);
    }
  });

  it("the addon's sums of squares and magnitudes match a float64 reference: every dtype, batched, rows of 1 to 100003 (several blocks), NaN where it was", () => {
    const rng = new Rng(17);
    for (const dtype of DTYPES) {
      const c = isComplexD(dtype) ? 2 : 1, f32 = dtype === 'float32' || dtype === 'complex64';
      for (const [rows, len] of [[3, 1], [5, 15], [4, 16], [3, 17], [7, 333], [2, 100_003]]) {
        const raw = Array.from({ length: rows * len * c }, () => rng.normal() * 10 ** Math.floor(6 * rng.uniform() - 3));
        const data = f32 ? Array.from(Float32Array.from(raw)) : raw; // the stored values, exactly
        const x = tensor({ data: (f32 ? Float32Array : Float64Array).from(data), shape: [rows, len] }, { dtype });
        const abs = (i: number) => (c === 2 ? Math.hypot(data[2 * i], data[2 * i + 1]) : Math.abs(data[i]));
        const n2 = linalg.norm(x, 2, { dim: -1 }).dataSync(), n1 = linalg.norm(x, 1, { dim: -1 }).dataSync();
        const tol = f32 ? 2e-7 : 1e-13;
        for (let r = 0; r < rows; r++) {
          let s2 = 0, s1 = 0;
          for (let i = r * len; i < (r + 1) * len; i++) { s2 += abs(i) ** 2; s1 += abs(i); }
          close(n2[r], Math.sqrt(s2), tol);
          close(n1[r], s1, tol);
        }
        if (len > 1) {
          const at = Float64Array.from(data);
          at[(rows - 1) * len * c + len - 1] = NaN; // the last row's last element
          const y = tensor({ data: (f32 ? Float32Array : Float64Array).from(at), shape: [rows, len] }, { dtype });
          for (const ord of [1, 2]) {
            const v = linalg.norm(y, ord, { dim: -1 }).dataSync();
            expect(v[rows - 1], `${dtype} ${rows}×${len} ord ${ord}`).toBeNaN();
            if (rows > 1) expect(Number.isNaN(v[0])).toBe(false);
          }
        }
      }
    }
  });

  it('float32 data sums its squares in double: entries whose float32 squares would over- or underflow', () => {
    for (const v of [1e25, 1e-25, 1e-40]) {
      const n = 40; // ≥ 16: the addon's path
      const x = tensor({ data: new Float32Array(n).fill(v), shape: [n] });
      const want = Math.fround(v) * Math.sqrt(n);
      close(scalar(linalg.norm(x)), want, 2e-7);
      close(scalar(linalg.norm(x.reshape([5, 8]), 'fro')), want, 2e-7);
      close(scalar(linalg.norm(x, 1)), Math.fround(v) * n, 2e-7);
    }
  });

  it('NaN gives NaN; Inf gives Inf', () => {
    expect(scalar(linalg.norm(tensor([1, NaN])))).toBeNaN();
    expect(scalar(linalg.norm(tensor([1, Infinity])))).toBe(Infinity);
    expect(scalar(linalg.norm(tensor([1, NaN]), Infinity))).toBeNaN();
  });

  it('dim and keepdim', () => {
    const t = tensor([[[3, 4], [6, 8]], [[0, 1], [1, 0]]]);  // 2×2×2
    const r = linalg.norm(t, 2, { dim: -1 });
    expect(r.shape).toEqual([2, 2]);
    expect(Array.from(r.dataSync())).toEqual([5, 10, 1, 1]);
    const k = linalg.norm(t, 1, { dim: 0, keepdim: true });
    expect(k.shape).toEqual([1, 2, 2]);
    expect(Array.from(k.dataSync())).toEqual([3, 5, 7, 8]);
    expect(linalg.norm(t, undefined, { keepdim: true }).shape).toEqual([1, 1, 1]);
    close(scalar(linalg.norm(t)), Math.sqrt(9 + 16 + 36 + 64 + 2), 1e-15);
  });
});

describe('norm: matrices', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: 'fro', 1, Infinity vs mathjs; 2, −2, 'nuc' vs the singular values`, () => {
      const rng = new Rng(401);
      const rel = dtype === 'float32' || dtype === 'complex64' ? 1e-5 : 1e-13;
      for (const [m, n] of [[4, 3], [3, 5], [6, 6]]) {
        const sig = geometric(Math.min(m, n), 4, 0.5);
        const a = withSingularValues(m, n, sig, rng, isComplexD(dtype));
        const t = toTensor([a], dtype, []);
        const ref = (p: number | 'fro' | 'inf') => {
          const rows = Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) =>
            math.complex(a.re[i * n + j], a.im[i * n + j])));
          return math.norm(rows as never, p as never) as number;
        };
        close(scalar(linalg.norm(t, 'fro')), ref('fro'), rel);
        close(scalar(linalg.norm(t)), ref('fro'), rel);
        close(scalar(linalg.norm(t, 1)), ref(1), rel);
        close(scalar(linalg.norm(t, Infinity)), ref('inf'), rel);
        close(scalar(linalg.norm(t, 2)), sig[0], rel);
        close(scalar(linalg.norm(t, -2)), sig[sig.length - 1], rel);
        close(scalar(linalg.norm(t, 'nuc')), sig.reduce((s, x) => s + x, 0), rel);
        // −1 and −Infinity: the smallest column / row sums.
        const at = fromTensor(t);
        const colSums = Array.from({ length: n }, (_, j) => { let s = 0; for (let i = 0; i < m; i++) s += Math.hypot(at.re[i * n + j], at.im[i * n + j]); return s; });
        const rowSums = Array.from({ length: m }, (_, i) => { let s = 0; for (let j = 0; j < n; j++) s += Math.hypot(at.re[i * n + j], at.im[i * n + j]); return s; });
        close(scalar(linalg.norm(t, -1)), Math.min(...colSums), rel);
        close(scalar(linalg.norm(t, -Infinity)), Math.min(...rowSums), rel);
        expect(linalg.norm(t, 2).dtype).toBe(dtype === 'complex64' ? 'float32' : dtype === 'complex128' ? 'float64' : dtype);
      }
    });
  }

  it('batched matrix norms over dims (0, 2) with keepdim', () => {
    const rng = new Rng(402);
    const a = randomM(3, 8, rng, false);  // viewed as 3×2×4
    const t = tensor({ data: Float64Array.from(a.re), shape: [3, 2, 4] });
    const r = linalg.norm(t, 1, { dim: [0, 2], keepdim: true });
    expect(r.shape).toEqual([1, 2, 1]);
    for (let j = 0; j < 2; j++) {
      // matrix over (dim0, dim2) at index j of dim1: column sums over dim0, max over dim2
      let best = 0;
      for (let c = 0; c < 4; c++) { let s = 0; for (let i = 0; i < 3; i++) s += Math.abs(a.re[i * 8 + j * 4 + c]); best = Math.max(best, s); }
      close(r.dataSync()[j], best, 1e-15);
    }
  });

  it('2-norm and nuclear norm of non-finite input: NaN for NaN, Inf for Inf', () => {
    expect(scalar(linalg.norm(tensor([[1, NaN], [0, 1]]), 2))).toBeNaN();
    expect(scalar(linalg.norm(tensor([[1, Infinity], [0, 1]]), 'nuc'))).toBe(Infinity);
  });

  it('bad orders and dims throw', () => {
    expect(() => linalg.norm(tensor([[1, 2]]), 3)).toThrow(ArgumentError);
    expect(() => linalg.norm(tensor([1, 2]), 'fro')).toThrow(ArgumentError);
    expect(() => linalg.norm(tensor([[[1]]]), 2)).toThrow(ShapeError);
    expect(() => linalg.norm(tensor([1, 2]), 2, { dim: 3 })).toThrow(ArgumentError);
  });
});

describe('cond and matrixRank', () => {
  it('cond(A) = σ_max/σ_min for any shape; other orders = ‖A‖·‖A⁻¹‖', () => {
    const rng = new Rng(403);
    for (const [m, n] of [[6, 6], [8, 5], [5, 8]]) {
      const sig = geometric(Math.min(m, n), 1, 1e-4);
      const a = withSingularValues(m, n, sig, rng, true);
      const t = toTensor([a], 'complex128', []);
      close(scalar(linalg.cond(t)), 1e4, 1e-9);
      close(scalar(linalg.cond(t, -2)), 1e-4, 1e-9);
      if (m === n) {
        for (const p of ['fro', 'nuc', 1, -1, Infinity, -Infinity] as const) {
          const inv = linalg.inv(t);
          close(scalar(linalg.cond(t, p)), scalar(linalg.norm(t, p)) * scalar(linalg.norm(inv, p)), 1e-12);
        }
      } else {
        expect(() => linalg.cond(t, 1)).toThrow(ShapeError);
      }
    }
    expect(scalar(linalg.cond(tensor([[1, 2], [2, 4]]), 1))).toBe(Infinity);
    expect(scalar(linalg.cond(tensor([[1, 0], [0, 0]])))).toBe(Infinity);
  });

  it('matrixRank is batched and int32', () => {
    const r = linalg.matrixRank(tensor([[[1, 2], [2, 4]], [[1, 0], [0, 1]], [[0, 0], [0, 0]]]));
    expect(r.dtype).toBe('int32');
    expect(Array.from(r.dataSync())).toEqual([1, 2, 0]);
  });
});
