/**
 * linalg.matmul(A, B, { transposeA, transposeB, adjointA, adjointB }) on the GPU (issue 17):
 * float32 and complex64, all nine op pairs, the small and tiled kernels, broadcast batches,
 * `out`, and a gradient; each product against the CPU's float64 product of the same values
 * by the LAPACK ratio ‖C − C_ref‖_F / (k·eps·‖A‖_F·‖B‖_F) < 30. Sizes stay small (lavapipe).
 */
import { describe, expect } from 'vitest';
import { linalg, randn, zeros, grad, sum, Tensor, ShapeError, ArgumentError } from '../../src/index.js';
import type { MatmulOptions } from '../../src/linalg/matmul.js';
import { OPS, optsOf, type Op } from '../helpers/matmul-ops.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

const EPS32 = 2 ** -23;

const stored = (batch: number[], rows: number, cols: number, op: Op) => [...batch, ...(op === 'N' ? [rows, cols] : [cols, rows])];
const frob = (x: ArrayLike<number>) => Math.sqrt(Array.from(x).reduce((s, v) => s + v * v, 0));

/** The ratio of a GPU result against the float64 CPU product of the same float32 values (whole tensors). */
async function ratio(C: Tensor, A: Tensor, B: Tensor, o: MatmulOptions, k: number): Promise<number> {
  const wide = A.dtype === 'complex64' ? 'complex128' : 'float64';
  const ref = linalg.matmul(A.astype(wide), B.astype(wide), o);
  const got = await C.data();
  const want = ref.dataSync();
  expect(C.shape).toEqual(ref.shape);
  let err2 = 0;
  for (let i = 0; i < want.length; i++) err2 += (got[i] - want[i]) ** 2;
  return err2 === 0 ? 0 : Math.sqrt(err2) / (Math.max(k, 1) * EPS32 * frob(A.dataSync() as Float32Array) * frob(B.dataSync() as Float32Array));
}

describe('gpu matmul transpose/adjoint options', () => {
  gpuIt('every op pair, float32 and complex64, small and tiled kernels, broadcast batches', async () => {
    let seed = 1;
    // small kernel (m, n ≤ 16) and tiled (m, n > 16, k not a multiple of 4: the scalar-access variant)
    const cases: Array<[number, number, number, number[], number[]]> = [[5, 3, 4, [2, 1], [3]], [20, 9, 18, [2], []], [33, 24, 17, [], [2]]];
    for (const dtype of ['float32', 'complex64'] as const) {
      for (const opA of OPS) {
        for (const opB of OPS) {
          for (const [m, k, n, ba, bb] of cases) {
            const A = randn(stored(ba, m, k, opA), { dtype, seed: seed++ }), B = randn(stored(bb, k, n, opB), { dtype, seed: seed++ });
            const o = optsOf(opA, opB);
            const Ag = A.to('gpu'), Bg = B.to('gpu');
            const C = linalg.matmul(Ag, Bg, o);
            expect(await ratio(C, A, B, o, k), `${dtype} ${m}×${k}×${n} ${opA}${opB}`).toBeLessThan(30);
            for (const t of [Ag, Bg, C]) t.dispose();
          }
        }
      }
    }
  });

  gpuIt('out with the options, also aliasing the transposed operand; a vector on the other side', async () => {
    for (const dtype of ['float32', 'complex64'] as const) {
      const A = randn([6, 6], { dtype, seed: 71 }), B = randn([6, 6], { dtype, seed: 72 });
      const o: MatmulOptions = { adjointA: true, transposeB: true };
      const Ag = A.to('gpu'), Bg = B.to('gpu');
      const out = zeros([6, 6], { dtype }).to('gpu');
      expect(linalg.matmul(Ag, Bg, { ...o, out })).toBe(out);
      expect(await ratio(out, A, B, o, 6)).toBeLessThan(30);
      expect(linalg.matmul(Ag, Bg, { ...o, out: Ag })).toBe(Ag);
      expect(await ratio(Ag, A, B, o, 6)).toBeLessThan(30);
      const v = randn([6], { dtype, seed: 73 }), vg = v.to('gpu');
      const c = linalg.matmul(Bg, vg, { transposeA: true });
      expect(c.shape).toEqual([6]);
      expect(await ratio(c, B, v, { transposeA: true }, 6)).toBeLessThan(30);
      for (const t of [Ag, Bg, out, vg, c]) t.dispose();
    }
  });

  gpuIt('errors: the op\'d shapes in a mismatch, both options on one operand, an option on a vector', async () => {
    const A = randn([3, 5], { dtype: 'float32', seed: 1 }).to('gpu'), B = randn([4, 2], { dtype: 'float32', seed: 2 }).to('gpu');
    expect(() => linalg.matmul(A, B, { transposeA: true })).toThrow(ShapeError);
    expect(() => linalg.matmul(A, B, { transposeA: true })).toThrow('Aᵀ is 5×3 and B is 4×2');
    expect(() => linalg.matmul(A, A, { transposeB: true, adjointB: true })).toThrow(ArgumentError);
    const v = randn([3], { dtype: 'float32', seed: 3 }).to('gpu');
    expect(() => linalg.matmul(v, A, { adjointA: true })).toThrow(/adjointA needs a matrix/);
    for (const t of [A, B, v]) t.dispose();
  });

  gpuIt('a gradient through transposeA equals the CPU\'s', async () => {
    const A = randn([2, 5, 4], { dtype: 'float32', seed: 81 }), B = randn([5, 3], { dtype: 'float32', seed: 82 });
    const f = (x: Tensor, y: Tensor) => sum(linalg.matmul(x, y, { transposeA: true, }).mul(linalg.matmul(x, y, { transposeA: true })));
    const [ga, gb] = grad(f)(A.to('gpu'), B.to('gpu'));
    const [wa, wb] = grad(f)(A.astype('float64'), B.astype('float64'));
    for (const [g, w] of [[ga, wa], [gb, wb]] as const) {
      const got = await g.data(), want = w.dataSync();
      expect(g.shape).toEqual(w.shape);
      let err2 = 0;
      for (let i = 0; i < want.length; i++) err2 += (got[i] - want[i]) ** 2;
      // g = 2·(AᵀB)-terms: two products deep, each of length ≤ 5
      expect(Math.sqrt(err2) / (10 * EPS32 * frob(want) + Number.MIN_VALUE)).toBeLessThan(30);
    }
  });
});
