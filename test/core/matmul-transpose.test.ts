/**
 * linalg.matmul(A, B, { transposeA, transposeB, adjointA, adjointB }) on the CPU (issue 17):
 * op(A)·op(B) read through swapped strides, for every dtype and all nine op pairs, on the
 * small-kernel, direct, packed and gemv paths, batched with broadcasting, with `out` (also
 * aliasing an operand); each product is judged against a float64 triple loop by the LAPACK
 * ratio ‖C − C_ref‖_F / (k·eps·‖A‖_F·‖B‖_F) < 30 per output matrix, and against the composed
 * form matmul(A.mT, B) etc.; bad options are typed errors naming them; gradients with each
 * option pass gradcheck (central differences) and equal the composed form's.
 */
import { describe, it, expect } from 'vitest';
import {
  linalg, randn, zeros, tensor, grad, sum, abs, Tensor, ShapeError, ArgumentError,
} from '../../src/index.js';
import type { FloatDType } from '../../src/core/dtype.js';
import { OPS, optsOf, type Op } from '../helpers/matmul-ops.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';

const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const isCplx = (dt: string) => dt === 'complex64' || dt === 'complex128';
const epsOf = (dt: string) => (dt === 'float32' || dt === 'complex64' ? 2 ** -23 : 2 ** -52);


/** op(X) through the tensor getters: the composed form the options replace. */
const composed = (X: Tensor, op: Op): Tensor => (op === 'N' ? X : op === 'T' ? X.mT : X.mH);

/** The stored shape of an operand whose op'd matrix is rows×cols. */
const stored = (batch: number[], rows: number, cols: number, op: Op) => [...batch, ...(op === 'N' ? [rows, cols] : [cols, rows])];

/** Matrix `b` (flat index over the tensor's own batch) as (re, im) float64, read as op(X). */
function opMatrix(t: Tensor, b: number, op: Op): { re: Float64Array; im: Float64Array; r: number; c: number } {
  const R = t.shape[t.ndim - 2], C = t.shape[t.ndim - 1];
  const d = t.dataSync() as Float32Array | Float64Array;
  const w = isCplx(t.dtype) ? 2 : 1;
  const [r, c] = op === 'N' ? [R, C] : [C, R];
  const re = new Float64Array(r * c), im = new Float64Array(r * c);
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      const e = b * R * C + (op === 'N' ? i * C + j : j * C + i);
      re[i * c + j] = d[e * w];
      im[i * c + j] = w === 2 ? (op === 'H' ? -d[e * w + 1] : d[e * w + 1]) : 0;
    }
  }
  return { re, im, r, c };
}

/** Flat batch index of `idx` (a multi-index over the broadcast batch) in a tensor with batch dims `dims`. */
function flatIndex(idx: number[], dims: readonly number[]): number {
  let f = 0;
  const off = idx.length - dims.length;
  for (let d = 0; d < dims.length; d++) f = f * dims[d] + (dims[d] === 1 ? 0 : idx[off + d]);
  return f;
}

const frob = (re: Float64Array, im: Float64Array) => Math.sqrt(re.reduce((s, x, i) => s + x * x + im[i] * im[i], 0));

/**
 * The largest LAPACK ratio ‖C − op(A)·op(B)‖_F / (max(k, 1)·eps·‖op(A)‖_F·‖op(B)‖_F) over C's matrices
 * (2-D operands; batch dims broadcast), the reference in float64.
 */
function worstRatio(C: Tensor, A: Tensor, B: Tensor, opA: Op, opB: Op): number {
  const aBatch = A.shape.slice(0, -2), bBatch = B.shape.slice(0, -2), cBatch = C.shape.slice(0, -2);
  const count = cBatch.reduce((x, y) => x * y, 1);
  const m = C.shape[C.ndim - 2], n = C.shape[C.ndim - 1];
  const c = C.dataSync() as Float32Array | Float64Array;
  const w = isCplx(C.dtype) ? 2 : 1;
  const eps = epsOf(C.dtype);
  let worst = 0;
  for (let b = 0; b < count; b++) {
    const idx: number[] = [];
    for (let d = cBatch.length - 1, r = b; d >= 0; d--) { idx.unshift(r % cBatch[d]); r = Math.floor(r / cBatch[d]); }
    const a = opMatrix(A, flatIndex(idx, aBatch), opA), bb = opMatrix(B, flatIndex(idx, bBatch), opB);
    const k = a.c;
    expect([a.r, bb.r, bb.c]).toEqual([m, k, n]);
    let err2 = 0;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let re = 0, im = 0;
        for (let p = 0; p < k; p++) {
          const ar = a.re[i * k + p], ai = a.im[i * k + p], br = bb.re[p * n + j], bi = bb.im[p * n + j];
          re += ar * br - ai * bi;
          im += ar * bi + ai * br;
        }
        const e = (b * m * n + i * n + j) * w;
        const dr = c[e] - re, di = w === 2 ? c[e + 1] - im : 0;
        err2 += dr * dr + di * di;
      }
    }
    const scale = Math.max(k, 1) * eps * frob(a.re, a.im) * frob(bb.re, bb.im);
    const ratio = err2 === 0 ? 0 : Math.sqrt(err2) / scale;
    expect(Number.isFinite(ratio), `matrix ${b}: ratio ${ratio}`).toBe(true);
    worst = Math.max(worst, ratio);
  }
  return worst;
}

/** The same LAPACK ratio between two results (the option form against the composed form). */
function ratioBetween(X: Tensor, Y: Tensor, A: Tensor, B: Tensor, k: number): number {
  const x = X.dataSync() as Float32Array | Float64Array, y = Y.dataSync() as Float32Array | Float64Array;
  expect(X.shape).toEqual(Y.shape);
  let err2 = 0;
  for (let i = 0; i < x.length; i++) err2 += (x[i] - y[i]) ** 2;
  const norm = (t: Tensor) => Math.sqrt((t.dataSync() as Float64Array).reduce((s, v) => s + v * v, 0));
  return err2 === 0 ? 0 : Math.sqrt(err2) / (Math.max(k, 1) * epsOf(X.dtype) * norm(A) * norm(B));
}

/** op(A)·op(B) for op'd shapes m×k and k×n with batches `ba`, `bb`: the option form against both references. */
function check(dtype: FloatDType, m: number, k: number, n: number, opA: Op, opB: Op, seed: number, ba: number[] = [], bb: number[] = []): void {
  const A = randn(stored(ba, m, k, opA), { dtype, seed });
  const B = randn(stored(bb, k, n, opB), { dtype, seed: seed + 1 });
  const C = linalg.matmul(A, B, optsOf(opA, opB));
  const label = `${dtype} ${m}×${k}×${n} op(A)=${opA} op(B)=${opB} batches ${JSON.stringify([ba, bb])}`;
  expect(C.dtype, label).toBe(dtype);
  expect(worstRatio(C, A, B, opA, opB), label).toBeLessThan(30);
  const want = linalg.matmul(composed(A, opA), composed(B, opB));
  expect(ratioBetween(C, want, A, B, k), label).toBeLessThan(30);
}

describe('matmul transpose/adjoint options: results', () => {
  it('every dtype and op pair, non-square, on the small, direct, packed and gemv paths', () => {
    // small kernel (m, n ≤ 16, k ≤ 64), direct (≤ 1 MiB), packed (multi-threaded, > kc), gemv (n = 1, m = 1)
    const sizes: Array<[number, number, number]> = [[3, 5, 4], [13, 40, 9], [37, 29, 53], [150, 300, 70], [41, 23, 1], [1, 57, 33]];
    let seed = 1;
    for (const dtype of DTYPES) {
      for (const opA of OPS) for (const opB of OPS) for (const [m, k, n] of sizes) check(dtype, m, k, n, opA, opB, seed += 2);
    }
  });

  it('batched, with broadcast batch dims on either side', () => {
    let seed = 500;
    for (const dtype of DTYPES) {
      for (const opA of OPS) {
        for (const opB of OPS) {
          check(dtype, 5, 7, 3, opA, opB, seed += 2, [2, 1, 3], [4, 1]);
          check(dtype, 20, 9, 18, opA, opB, seed += 2, [3], []);
          check(dtype, 4, 70, 6, opA, opB, seed += 2, [], [2, 3]);
        }
      }
    }
  });

  it('adjoint of a real matrix is its transpose; of a complex one, the conjugate transpose', () => {
    const A = tensor([[1, 2], [3, 4], [5, 6]]), B = tensor([[1, 0, 2], [0, 1, 1]]);
    expect(linalg.matmul(A, B.mT, { adjointA: true }).toArray()).toEqual([[11, 8], [14, 10]]);
    expect(linalg.matmul(A, B.mT, { transposeA: true }).toArray()).toEqual([[11, 8], [14, 10]]);
    const Z = tensor({ data: Float64Array.of(1, 1, 0, 2), shape: [2, 1], dtype: 'complex128' }); // [[1+i], [2i]]
    const zz = linalg.matmul(Z, Z, { adjointA: true }).dataSync();
    expect(Array.from(zz)).toEqual([6, 0]); // |1+i|² + |2i|²
    const zt = linalg.matmul(Z, Z, { transposeA: true }).dataSync();
    expect(Array.from(zt)).toEqual([-4, 2]); // (1+i)² + (2i)²
  });

  it('mixed dtypes promote first (the adjoint of a real operand cast to complex)', () => {
    const A = randn([6, 4], { seed: 71 }), B = randn([5, 6], { dtype: 'complex128', seed: 72 });
    const C = linalg.matmul(A, B, { adjointA: true, transposeB: true });
    expect(C.dtype).toBe('complex128');
    const want = linalg.matmul(A.mT, B.mT);
    expect(ratioBetween(C, want, A, B, 6)).toBeLessThan(30);
  });

  it('one operand a vector, the other transposed; zero-size dims', () => {
    const A = randn([2, 5, 4], { seed: 81 }), v = randn([5], { seed: 82 });
    const c = linalg.matmul(A, v, { transposeA: true });
    expect(c.shape).toEqual([2, 4]);
    expect(ratioBetween(c, linalg.matmul(A.mT, v), A, v, 5)).toBeLessThan(30);
    const u = randn([4], { seed: 83 });
    const e = linalg.matmul(u, A, { transposeB: true });
    expect(e.shape).toEqual([2, 5]);
    expect(ratioBetween(e, linalg.matmul(u, A.mT), A, u, 4)).toBeLessThan(30);
    expect(linalg.matmul(zeros([0, 3]), zeros([0, 2]), { transposeA: true }).shape).toEqual([3, 2]);
    expect(Array.from(linalg.matmul(zeros([0, 3]), zeros([0, 2]), { transposeA: true }).dataSync())).toEqual(new Array(6).fill(0));
    expect(linalg.matmul(zeros([0, 4, 3]), zeros([2, 4]), { transposeA: true, transposeB: true }).shape).toEqual([0, 3, 2]);
  });

  it('the method form A.matmul(B, opts) takes the options', () => {
    const A = randn([4, 3], { seed: 91 }), B = randn([5, 4], { seed: 92 });
    const C = A.matmul(B, { transposeA: true, transposeB: true });
    expect(worstRatio(C, A, B, 'T', 'T')).toBeLessThan(30);
  });
});

describe('matmul transpose/adjoint options: out', () => {
  it('out receives op(A)·op(B), bit for bit the call without out, every dtype and op pair', () => {
    let seed = 900;
    for (const dtype of DTYPES) {
      for (const opA of OPS) {
        for (const opB of OPS) {
          const A = randn(stored([2], 6, 5, opA), { dtype, seed: seed++ }), B = randn(stored([], 5, 7, opB), { dtype, seed: seed++ });
          const want = linalg.matmul(A, B, optsOf(opA, opB));
          const out = zeros([2, 6, 7], { dtype });
          (out.dataSync() as Float64Array).fill(NaN);
          const storage = out.dataSync();
          expect(linalg.matmul(A, B, { ...optsOf(opA, opB), out })).toBe(out);
          expect(out.dataSync()).toBe(storage);
          expect(Array.from(storage)).toEqual(Array.from(want.dataSync()));
        }
      }
    }
  });

  it('out sharing storage with a transposed operand computes apart: the answer of the call without out', () => {
    for (const dtype of DTYPES) {
      for (const size of [6, 90]) {
        // same seeds: equal fresh copies of A and B
        const fresh = () => [randn([size, size], { dtype, seed: 31 }), randn([size, size], { dtype, seed: 32 })];
        const [A, B] = fresh();
        const want = linalg.matmul(A, B, { adjointA: true, transposeB: true });
        const [A2, B2] = fresh();
        expect(linalg.matmul(A2, B2, { adjointA: true, transposeB: true, out: A2 })).toBe(A2);
        expect(Array.from(A2.dataSync())).toEqual(Array.from(want.dataSync()));
        const [A3, B3] = fresh();
        linalg.matmul(A3, B3, { adjointA: true, transposeB: true, out: B3.reshape([size, size]) });
        expect(Array.from(B3.dataSync())).toEqual(Array.from(want.dataSync()));
      }
    }
  });

  it('out must have op(A)·op(B)\'s shape', () => {
    const A = randn([4, 3], { seed: 1 }), B = randn([4, 2], { seed: 2 });
    expect(() => linalg.matmul(A, B, { transposeA: true, out: zeros([4, 2]) })).toThrow(/out is 4×2, the product is 3×2/);
  });
});

describe('matmul transpose/adjoint options: errors', () => {
  const A = () => randn([3, 5], { seed: 3 }), B = () => randn([4, 2], { seed: 4 });

  it('inner-dim mismatches report the op\'d shapes', () => {
    expect(() => linalg.matmul(A(), B(), { transposeA: true })).toThrow(ShapeError);
    expect(() => linalg.matmul(A(), B(), { transposeA: true })).toThrow('matmul: Aᵀ is 5×3 and B is 4×2: inner dims 3 ≠ 4');
    expect(() => linalg.matmul(A(), B(), { adjointB: true })).toThrow('matmul: A is 3×5 and Bᴴ is 2×4: inner dims 5 ≠ 2');
    expect(() => linalg.matmul(A(), B(), { transposeA: true, transposeB: true })).toThrow('matmul: Aᵀ is 5×3 and Bᵀ is 2×4: inner dims 3 ≠ 2');
  });

  it('transposeX and adjointX both true is an ArgumentError naming both', () => {
    expect(() => linalg.matmul(A(), A(), { transposeA: true, adjointA: true })).toThrow(ArgumentError);
    expect(() => linalg.matmul(A(), A(), { transposeA: true, adjointA: true })).toThrow(/transposeA and adjointA are both true/);
    expect(() => linalg.matmul(A(), A(), { transposeB: true, adjointB: true })).toThrow(/transposeB and adjointB are both true/);
    // false beside true is fine
    expect(linalg.matmul(A(), A(), { transposeA: false, adjointA: true }).shape).toEqual([5, 5]);
  });

  it('a transpose or adjoint option on a 1-D operand is a ShapeError naming the operand and option', () => {
    const v = tensor([1, 2, 3]);
    for (const [o, name] of [[{ transposeA: true }, 'transposeA'], [{ adjointA: true }, 'adjointA']] as const) {
      expect(() => linalg.matmul(v, A(), o)).toThrow(ShapeError);
      expect(() => linalg.matmul(v, A(), o)).toThrow(new RegExp(`matmul: ${name} needs a matrix, but A is 1-D \\(length 3\\)`));
    }
    for (const [o, name] of [[{ transposeB: true }, 'transposeB'], [{ adjointB: true }, 'adjointB']] as const) {
      expect(() => linalg.matmul(randn([2, 3]), v, o)).toThrow(new RegExp(`matmul: ${name} needs a matrix, but B is 1-D`));
    }
  });

  it('non-boolean option values are ArgumentErrors naming the option', () => {
    for (const k of ['transposeA', 'transposeB', 'adjointA', 'adjointB']) {
      for (const bad of [1, 'yes', null, 0]) {
        expect(() => linalg.matmul(A(), A(), { [k]: bad } as never)).toThrow(ArgumentError);
        expect(() => linalg.matmul(A(), A(), { [k]: bad } as never)).toThrow(new RegExp(`matmul: option ${k} must be a boolean`));
      }
    }
  });
});

describe('matmul transpose/adjoint options: gradients', () => {
  it('gradcheck with each op pair, real and complex, batched with broadcasting', () => {
    let seed = 300;
    for (const dt of ['float64', 'complex128'] as const) {
      for (const opA of OPS) {
        for (const opB of OPS) {
          const a = randomTensor(stored([2, 1], 3, 4, opA), dt, seed++), b = randomTensor(stored([3], 4, 2, opB), dt, seed++);
          gradcheck((x, y) => linalg.matmul(x, y, optsOf(opA, opB)), [a, b]);
        }
      }
    }
  });

  it('gradcheck with a vector on the other side, and mixed real/complex operands', () => {
    for (const dt of ['float64', 'complex128'] as const) {
      gradcheck((x, y) => linalg.matmul(x, y, { adjointA: true }), [randomTensor([2, 4, 3], dt, 11), randomTensor([4], dt, 12)]);
      gradcheck((x, y) => linalg.matmul(x, y, { transposeB: true }), [randomTensor([3], dt, 13), randomTensor([2, 5, 3], dt, 14)]);
    }
    gradcheck((x, y) => linalg.matmul(x, y, { transposeA: true, adjointB: true }),
      [randomTensor([4, 3], 'float64', 15), randomTensor([2, 4], 'complex128', 16)]);
  });

  it('gradients equal those of the composed form matmul(A.mT, B.mH)', () => {
    for (const dt of ['float64', 'complex128'] as const) {
      for (const opA of OPS) {
        for (const opB of OPS) {
          const a = randomTensor(stored([], 5, 6, opA), dt, 40), b = randomTensor(stored([2], 6, 4, opB), dt, 41);
          const [ga, gb] = grad((x: Tensor, y: Tensor) => sum(abs(linalg.matmul(x, y, optsOf(opA, opB)))))(a, b);
          const [wa, wb] = grad((x: Tensor, y: Tensor) => sum(abs(linalg.matmul(composed(x, opA), composed(y, opB)))))(a, b);
          expect(ga.shape).toEqual(a.shape);
          expect(gb.shape).toEqual(b.shape);
          expect(ratioBetween(ga, wa, a, b, 6 * 4)).toBeLessThan(30);
          expect(ratioBetween(gb, wb, a, b, 6 * 4)).toBeLessThan(30);
        }
      }
    }
  });

  it('second derivatives: the backward\'s own products with options are recorded too', () => {
    const a = randomTensor([3, 3], 'float64', 51), b = randomTensor([3, 3], 'float64', 52);
    const f = (x: Tensor) => sum(linalg.matmul(x, x, { transposeA: true }));
    const g = (x: Tensor) => sum(linalg.matmul(x.mT, x));
    const d2 = grad((x: Tensor) => sum(linalg.matmul(grad(f)(x)[0], b)))(a)[0];
    const w2 = grad((x: Tensor) => sum(linalg.matmul(grad(g)(x)[0], b)))(a)[0];
    expect(ratioBetween(d2, w2, a, b, 9)).toBeLessThan(30);
  });
});
