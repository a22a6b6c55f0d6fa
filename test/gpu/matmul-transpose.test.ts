/**
 * linalg.matmul(A, B, { transposeA, transposeB, adjointA, adjointB }) on the GPU (issue 17):
 * float32 and complex64, all nine op pairs, every kernel variant the dispatcher picks (the
 * small kernel, each tile of the tiled kernel with vec4 and scalar access, and the gemm.wgsl
 * option of matmulGpu), broadcast batches, ragged edges, `out`, and a gradient; each product
 * against the CPU's float64 product of the same values by the LAPACK ratio
 * ‖C − C_ref‖_F / (k·eps·‖A‖_F·‖B‖_F) < 30. The op'd operands are read in place: one dispatch
 * per product, no transpose kernel. Sizes stay small (lavapipe).
 */
import { describe, expect } from 'vitest';
import { linalg, randn, zeros, grad, sum, gpu, Tensor, ShapeError, ArgumentError } from '../../src/index.js';
import type { MatmulOptions } from '../../src/linalg/matmul.js';
import {
  matmulGpu, pickTile, tileFits, SMALL_MAX, F32_TILES, C64_TILES, type MatmulTile,
} from '../../src/backend/gpu/matmul.js';
import type { MatOp } from '../../src/backend/ops.js';
import { planBatch } from '../../src/core/batch.js';
import { dispatchCount } from '../../src/backend/gpu/queue.js';
import { OPS, optsOf, type Op } from '../helpers/matmul-ops.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

const EPS32 = 2 ** -23;
const DTYPES = ['float32', 'complex64'] as const;
type Dt = typeof DTYPES[number];

const stored = (batch: number[], rows: number, cols: number, op: Op) => [...batch, ...(op === 'N' ? [rows, cols] : [cols, rows])];
const frob = (x: ArrayLike<number>) => Math.sqrt(Array.from(x).reduce((s, v) => s + v * v, 0));
/** The backend's op code as linalg.matmul passes it (2 for float32 too: the kernels read it as 1). */
const code = (op: Op): MatOp => (op === 'N' ? 0 : op === 'T' ? 1 : 2);
const tilesOf = (dtype: Dt): Record<string, MatmulTile> => (dtype === 'complex64' ? C64_TILES : F32_TILES);

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

/** m, k, n and the batch dims of A and B. */
type Case = [number, number, number, number[], number[]];

/**
 * Sizes for each kernel the dispatcher picks on a software adapter (largest tile with m ≥ BM/2
 * and n ≥ BN/2), ragged against the tile, k over several BK steps, broadcast batches. float32
 * reads an operand by vec4 when its stored row length is a multiple of 4 (k for A, n for B;
 * m for Aᵀ, k for Bᵀ), so "m, n multiples of 4 and k odd" (V) gives each of NN, TN, NT, TT
 * a different pair of vec4/scalar loads, and "m, n odd and k a multiple of 4" (S) the other
 * pairs: t32 takes V and t128 S (every load path with BK = 8), t64 S (the transposed paths
 * that use BK, with BK = 16), each tile compiling 4 pipelines, not 8: lavapipe's shader
 * compilation is this file's time.
 */
const CASES: Case[] = [
  [5, 3, 4, [2, 1], [3]], [16, 9, 13, [], [2]],          // small (m, n ≤ 16)
  [20, 9, 28, [2], []],                                  // t32: V
  [45, 36, 33, [2, 1], [2]],                             // t64 (complex64: t64r8): S
  [67, 12, 131, [], [2]],                                // t128 (complex64: t64r8): S
];

/** The V and S sizes of a tile (CASES' patterns), for the tiles run by name. */
const tileCases = (t: MatmulTile): Case[] => [[t.BM + 4, 2 * t.BK + 3, t.BN - 4, [2], []], [t.BM - 3, 3 * t.BK - 4, t.BN + 5, [], [2]]];

/** The kernel linalg.matmul's dispatcher runs for a product: 'small' or the picked tile's name. */
function kernelOf(dtype: Dt, count: number, m: number, n: number): string {
  if (m <= SMALL_MAX && n <= SMALL_MAX) return 'small';
  const t = pickTile(dtype, count, m, n);
  return Object.entries(tilesOf(dtype)).find(([, x]) => x === t)![0];
}

/** A product of op'd random operands through `run`, checked against the CPU; one dispatch, no copy. */
async function check(dtype: Dt, opA: Op, opB: Op, c: Case, seed: number, run: (A: Tensor, B: Tensor, o: MatmulOptions) => Tensor): Promise<void> {
  const [m, k, n, ba, bb] = c;
  const A = randn(stored(ba, m, k, opA), { dtype, seed }), B = randn(stored(bb, k, n, opB), { dtype, seed: seed + 1 });
  const o = optsOf(opA, opB);
  const Ag = A.to('gpu'), Bg = B.to('gpu');
  await gpu.sync();
  const d0 = dispatchCount();
  const C = run(Ag, Bg, o);
  expect(dispatchCount() - d0, `${dtype} ${opA}${opB}: one dispatch, no transposed copy`).toBe(1);
  expect(await ratio(C, A, B, o, k), `${dtype} ${m}×${k}×${n} ${JSON.stringify(ba)}·${JSON.stringify(bb)} ${opA}${opB}`).toBeLessThan(30);
  for (const t of [Ag, Bg, C]) t.dispose();
}

describe('gpu matmul transpose/adjoint options', () => {
  gpuIt('every op pair × every kernel: the dispatcher\'s picks (small, tiles; vec4 and scalar loads), then by name the tiles it did not pick here', async () => {
    let seed = 1;
    for (const dtype of DTYPES) {
      const hit = new Set<string>();
      for (const c of CASES) {
        const count = Math.max(c[3].reduce((x, y) => x * y, 1), c[4].reduce((x, y) => x * y, 1));
        hit.add(kernelOf(dtype, count, c[0], c[2]));
        for (const opA of OPS) {
          for (const opB of OPS) await check(dtype, opA, opB, c, seed += 2, (a, b, o) => linalg.matmul(a, b, o));
        }
      }
      // A software adapter picks by size alone (minimum workgroup count 1), so these sizes reach
      // every tile complex64's t64 aside: it has t64r8's 64×64 tile and comes after it.
      if (gpu.info()?.isSoftware) {
        const want = dtype === 'complex64' ? ['small', 't64r8', 't32'] : ['small', 't128', 't64', 't32'];
        expect([...hit].sort(), dtype).toEqual(want.filter((t) => t === 'small' || tileFits(tilesOf(dtype)[t], dtype === 'complex64')).sort());
      }
      // The tiles the dispatcher did not reach (a large GPU picks small tiles for small products), by
      // name; not those it never picks (an earlier fitting tile no larger either way wins every time).
      const list = Object.entries(tilesOf(dtype)).filter(([, t]) => tileFits(t, dtype === 'complex64'));
      for (const [i, [name, t]] of list.entries()) {
        if (hit.has(name) || list.slice(0, i).some(([, u]) => u.BM <= t.BM && u.BN <= t.BN)) continue;
        for (const c of tileCases(t)) {
          for (const opA of OPS) {
            for (const opB of OPS) {
              await check(dtype, opA, opB, c, seed += 2, (a, b) => matmulGpu(a, b, planBatch(a, b, name), c[0], c[1], c[2], t, 'matmul', undefined, code(opA), code(opB)));
            }
          }
        }
      }
    }
  });

  gpuIt('matmulGpu\'s gemm.wgsl option passes the ops and the stored row strides (broadcast maps)', async () => {
    // gemm.wgsl's own op paths are test/gpu/gemm.test.ts's; here the plumbing (one pipeline per
    // dtype): op codes to T/C (float32's 2 to T), the ld of a stored Aᵀ and Bᵀ.
    const c: Case = [21, 9, 19, [2, 1], [3]];
    await check('float32', 'T', 'H', c, 2001, (a, b) => matmulGpu(a, b, planBatch(a, b, 'test'), c[0], c[1], c[2], undefined, 'gemm', undefined, 1, 2));
    await check('complex64', 'H', 'T', c, 2003, (a, b) => matmulGpu(a, b, planBatch(a, b, 'test'), c[0], c[1], c[2], undefined, 'gemm', undefined, 2, 1));
  });

  gpuIt('empty products with the options: k = 0 is zeros, m = 0 an empty result', async () => {
    for (const dtype of DTYPES) {
      const A = randn([2, 0, 3], { dtype, seed: 5 }).to('gpu'), B = randn([4, 0], { dtype, seed: 6 }).to('gpu');
      const C = linalg.matmul(A, B, { adjointA: true, transposeB: true });
      expect(C.shape).toEqual([2, 3, 4]);
      expect(Array.from(await C.data()).every((v) => v === 0)).toBe(true);
      const A0 = randn([2, 3, 0], { dtype, seed: 7 }).to('gpu'), B0 = randn([3, 4], { dtype, seed: 8 }).to('gpu');
      const E = linalg.matmul(A0, B0, { transposeA: true });
      expect(E.shape).toEqual([2, 0, 4]);
      for (const t of [A, B, C, A0, B0, E]) t.dispose();
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
