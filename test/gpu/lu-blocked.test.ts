// The blocked GPU LU (src/backend/gpu/lu_blocked.ts: left-looking or recursive panel, leaf kernel, laswp,
// U12 solve, GEMM update) against LAPACK's ratio ‖A − Pᵀ·L·U‖/(n·eps·‖A‖) and the CPU
// backend's pivots, with small blocks (nb = 8, leaf 4) so every block boundary is
// crossed at small n; square, tall and wide; complex64; singular and NaN members in a
// batch; a folded dispatch; laswpGpu on its own; n = 1030 through linalg.luFactorEx.
import { describe, expect } from 'vitest';
import { linalg, Rng, Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { luFactorBlockedGpu, laswpGpu } from '../../src/backend/gpu/lu_blocked.js';
import { emptyGpu } from '../../src/backend/gpu/tensor-ops.js';
import { dispatchCount } from '../../src/backend/gpu/queue.js';
import { Mat, randomMatrix, toTensor, fromTensor, ratioLu, roundTo } from '../helpers/matrices.js';

useGpu();

type D = 'float32' | 'complex64';
const cpu = (t: Tensor) => t.toAsync('cpu');
const SMALL: Blocks = { nb: 8, leaf: 4 };
interface Blocks { nb?: number; leaf?: number; wg?: number; leafRegs?: boolean; panel?: 'left' | 'recursive' }

/** P (m×m), L (m×k), U (k×n) from a packed m×n LU and 1-based pivots: A = P·L·U. */
function unpack(LU: Mat, piv: ArrayLike<number>): { P: Mat; L: Mat; U: Mat } {
  const m = LU.rows, n = LU.cols, k = Math.min(m, n);
  const perm = Array.from({ length: m }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const q = piv[i] - 1;
    [perm[i], perm[q]] = [perm[q], perm[i]];
  }
  const P = new Mat(m, m), L = new Mat(m, k), U = new Mat(k, n);
  for (let i = 0; i < m; i++) P.set(perm[i], i, 1);
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) {
    if (j < i) L.set(i, j, LU.re(i, j), LU.im(i, j));
    else if (j === i) L.set(i, j, 1);
  }
  for (let i = 0; i < k; i++) for (let j = i; j < n; j++) U.set(i, j, LU.re(i, j), LU.im(i, j));
  return { P, L, U };
}

function mats(m: number, n: number, count: number, rng: Rng, dtype: D): Mat[] {
  return Array.from({ length: count }, () => roundTo(randomMatrix(m, n, rng, { complex: dtype === 'complex64' }), dtype));
}

/** The blocked LU as luFactor runs it (NaN propagating), with explicit block sizes, at any shape. */
function factorGpu(As: Mat[], dtype: D, blocks: Blocks = SMALL, nonfinite: 'flag' | 'propagate' = 'propagate') {
  const m = As[0].rows, n = As[0].cols, count = As.length;
  const LU = toTensor(As, dtype, [count]).to('gpu');
  const pivots = emptyGpu('int32', [count, Math.min(m, n)], 'test'), info = emptyGpu('int32', [count], 'test');
  luFactorBlockedGpu('test', {
    dtype, m, n, batch: count, A: LU.gpuStorage(), piv: pivots.gpuStorage(), info: info.gpuStorage(), ...blocks, nonfinite,
  });
  return { LU, pivots, info };
}

async function expectMatchesCpu(As: Mat[], dtype: D, blocks: Blocks = SMALL) {
  const m = As[0].rows, n = As[0].cols, k = Math.min(m, n);
  const g = factorGpu(As, dtype, blocks);
  const LU = await cpu(g.LU);
  const piv = Array.from(await g.pivots.data());
  const info = Array.from(await g.info.data());
  const ref = linalg.luFactorEx(toTensor(As, dtype, [As.length]));
  const refPiv = Array.from(ref.pivots.dataSync());
  expect(info).toEqual(Array.from(ref.info.dataSync()));
  As.forEach((A, b) => {
    const p = piv.slice(b * k, (b + 1) * k);
    expect(p, `member ${b}: same pivots as the CPU`).toEqual(refPiv.slice(b * k, (b + 1) * k));
    const { P, L, U } = unpack(fromTensor(LU, b), p);
    expect(ratioLu(A, P, L, U, dtype)).toBeLessThan(30);
  });
}

describe('gpu blocked luFactor (nb = 8, leaf 4)', () => {
  for (const n of [7, 8, 9, 17, 33, 70]) {
    gpuIt(`float32 n=${n}: ratio < 30, pivots and info as on the CPU`, async () => {
      await expectMatchesCpu(mats(n, n, 2, new Rng(100 + n), 'float32'), 'float32');
    });
  }
  for (const [m, n] of [[40, 17], [17, 40], [9, 8], [8, 21]] as const) {
    for (const dtype of ['float32', 'complex64'] as const) {
      gpuIt(`${dtype} ${m}×${n}: ratio < 30, pivots as on the CPU`, async () => {
        await expectMatchesCpu(mats(m, n, 2, new Rng(m * 100 + n), dtype), dtype);
      });
    }
  }
  for (const n of [9, 33]) {
    gpuIt(`complex64 n=${n}: ratio < 30, pivots as on the CPU`, async () => {
      await expectMatchesCpu(mats(n, n, 2, new Rng(7 * n), 'complex64'), 'complex64');
    });
  }
  gpuIt('leaf = nb = 1, 2 and odd block sizes (nb 5, leaf 3) on 23×19 and 19×23', async () => {
    const rng = new Rng(23);
    for (const blocks of [{ nb: 1, leaf: 1 }, { nb: 2, leaf: 2 }, { nb: 5, leaf: 3 }, { nb: 12, leaf: 5 }]) {
      await expectMatchesCpu(mats(23, 19, 2, rng, 'float32'), 'float32', blocks);
      await expectMatchesCpu(mats(19, 23, 1, rng, 'float32'), 'float32', blocks);
    }
  });

  // the leaf in registers with several row slots per thread (32 threads), and in A
  for (const [label, extra] of [['registers, 32 threads', { wg: 32 }], ['in A, 32 threads', { wg: 32, leafRegs: false }], ['in A', { leafRegs: false }], ['of the left-looking panel', { panel: 'left' }]] as const) {
    gpuIt(`leaf ${label}: 70×70, 40×17, 17×40 float32 and 33×33 complex64 as on the CPU`, async () => {
      const rng = new Rng(label.length);
      const blocks = { ...SMALL, ...extra };
      await expectMatchesCpu(mats(70, 70, 2, rng, 'float32'), 'float32', blocks);
      await expectMatchesCpu(mats(40, 17, 2, rng, 'float32'), 'float32', blocks);
      await expectMatchesCpu(mats(17, 40, 2, rng, 'float32'), 'float32', blocks);
      await expectMatchesCpu(mats(33, 33, 2, rng, 'complex64'), 'complex64', blocks);
    });
  }
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: exact ties pick the lowest row as LAPACK (a signed, row-permuted 16×16 Hadamard matrix: elimination is exact)`, async () => {
      const n = 16;
      const rng = new Rng(16);
      const order = Array.from({ length: n }, (_, i) => i).sort(() => rng.uniform() - 0.5);
      const H = new Mat(n, n);
      for (let i = 0; i < n; i++) {
        const sign = rng.uniform() < 0.5 ? -1 : 1, imag = dtype === 'complex64' && rng.uniform() < 0.5;
        for (let j = 0; j < n; j++) {
          let bits = order[i] & j, par = 0;
          while (bits) { par ^= bits & 1; bits >>= 1; }
          const v = (par ? -1 : 1) * sign;
          if (imag) H.set(i, j, 0, v); else H.set(i, j, v);
        }
      }
      await expectMatchesCpu([H], dtype);
      const g = factorGpu([H], dtype);
      const ref = linalg.luFactorEx(toTensor([H], dtype, [1]));
      // the same factors exactly (the sign of a zero aside: complex products differ in it)
      const z = (a: ArrayLike<number>) => Array.from(a, (v) => (v === 0 ? 0 : v));
      expect(z(await g.LU.data())).toEqual(z(ref.LU.dataSync()));
    });
  }
});

describe('gpu blocked luFactor: singular and non-finite members', () => {
  for (const dtype of ['float32', 'complex64'] as const) for (const [label, blocks] of [['nb 8, leaf 4', SMALL], ['default blocks', {}]] as const) {
    gpuIt(`${dtype}, ${label}: a zero column (info = CPU's), a NaN and an Inf member; neighbours identical to factoring alone`, async () => {
      const n = 19;
      const rng = new Rng(5);
      const As = mats(n, n, 5, rng, dtype);
      As[1] = As[1].clone();
      for (let i = 0; i < n; i++) As[1].set(i, 10, 0);  // info 11 on the CPU
      As[2] = As[2].clone();
      As[2].set(4, 13, NaN);
      As[3] = As[3].clone();
      As[3].set(15, 2, Infinity);
      // luFactor (propagate, as the CPU): info and pivots as on the CPU, NaN where the CPU has it
      const g = factorGpu(As, dtype, blocks);
      const info = Array.from(await g.info.data());
      const ref = linalg.luFactorEx(toTensor(As, dtype, [As.length]));
      expect(info).toEqual(Array.from(ref.info.dataSync()));
      expect(info[1]).toBe(11);
      const piv = Array.from(await g.pivots.data());
      expect(piv).toEqual(Array.from(ref.pivots.dataSync()));
      const LU = await cpu(g.LU);
      const nanAt = (t: Tensor, b: number) => Array.from(fromTensor(t, b).data).map(Number.isNaN);
      for (const b of [2, 3]) expect(nanAt(LU, b)).toEqual(nanAt(ref.LU, b));
      // 'flag' (what solve/inv/det take): info −1 and all-NaN factors for the NaN and Inf members only
      const f = factorGpu(As, dtype, blocks, 'flag');
      expect(Array.from(await f.info.data())).toEqual([0, 11, -1, -1, 0]);
      const F = await cpu(f.LU);
      for (const b of [2, 3]) expect(Array.from(fromTensor(F, b).data).filter((_, i) => dtype === 'complex64' || i % 2 === 0).every(Number.isNaN)).toBe(true);
      for (const b of [0, 1, 4]) {
        const alone = factorGpu([As[b]], dtype, blocks);
        expect(Array.from(fromTensor(F, b).data)).toEqual(Array.from(fromTensor(await cpu(alone.LU), 0).data));
        expect(Array.from(fromTensor(LU, b).data)).toEqual(Array.from(fromTensor(await cpu(alone.LU), 0).data));
      }
    });
  }
});

describe('gpu blocked luFactor: batches and sizes', () => {
  gpuIt('70,000 3×5 matrices (rectangular: the blocked path; folded dispatch past 65,535 workgroups)', async () => {
    const count = 70_000, m = 3, n = 5;
    const rng = new Rng(70);
    const a = new Float32Array(count * m * n).map(() => rng.normal());
    const A = Tensor.fromStorage('float32', [count, m, n], a);
    const g = linalg.luFactorEx(A.to('gpu'));
    const ref = linalg.luFactorEx(A);
    expect(Array.from(await g.pivots.data())).toEqual(Array.from(ref.pivots.dataSync()));
    const lu = (await g.LU.data()) as Float32Array, lr = ref.LU.dataSync() as Float32Array;
    let worst = 0;
    for (let i = 0; i < lu.length; i++) worst = Math.max(worst, Math.abs(lu[i] - lr[i]) / (1 + Math.abs(lr[i])));
    expect(worst).toBeLessThan(1e-4);
    expect(Array.from(await g.info.data()).every((v) => v === 0)).toBe(true);
  });

  gpuIt('dispatches per call: one panel + the gather + the GEMM per block step (left-looking panel), fewer than the recursive panel', async () => {
    const As = mats(40, 40, 3, new Rng(40), 'float32');
    const count = (blocks: Blocks) => {
      const d0 = dispatchCount();
      const g = factorGpu(As, 'float32', blocks);
      const d = dispatchCount() - d0;
      g.LU.dispose(); g.pivots.dispose(); g.info.dispose();
      return d;
    };
    // 5 steps of nb 8: the panel (its 2 leaves in one dispatch) and a gather each, a GEMM in all but the last; the INIT pass
    expect(count({ nb: 8, leaf: 4, panel: 'left' })).toBe(1 + 5 * 2 + 4);
    expect(count({ nb: 8, leaf: 4, panel: 'recursive' })).toBeGreaterThan(1 + 5 * 3 + 4);
    await expectMatchesCpu(As, 'float32', { nb: 16, leaf: 4, panel: 'left' });
  });

  gpuIt('a batch of 3 mid-size (96×96) matrices with the default blocks: ratio < 30, pivots as on the CPU', async () => {
    await expectMatchesCpu(mats(96, 96, 3, new Rng(96), 'float32'), 'float32', {});
  });

  gpuIt('a batch of 2 × 150×140 with the default blocks (three block steps, leaves of 8): ratio < 30, pivots as on the CPU', async () => {
    await expectMatchesCpu(mats(150, 140, 2, new Rng(150), 'float32'), 'float32', {});
  });

  gpuIt('n = 1030 through linalg.luFactorEx (default blocks): ‖P·A·v − L·(U·v)‖ ratio small, info 0', async () => {
    const n = 1030;
    const rng = new Rng(1030);
    const a = new Float32Array(n * n).map(() => rng.normal());
    const A = Tensor.fromStorage('float32', [n, n], a);
    const g = linalg.luFactorEx(A.to('gpu'));
    const lu = (await g.LU.data()) as Float32Array;
    const piv = Array.from(await g.pivots.data());
    expect(Array.from(await g.info.data())).toEqual([0]);
    // A = Pᵀ·L·U checked on random vectors: O(n²) instead of the O(n³) product
    const perm = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < n; i++) [perm[i], perm[piv[i] - 1]] = [perm[piv[i] - 1], perm[i]];
    let anorm = 0;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += Math.abs(a[i * n + j]);
      anorm = Math.max(anorm, s);
    }
    for (let trial = 0; trial < 2; trial++) {
      const v = Float64Array.from({ length: n }, () => rng.normal());
      const uv = new Float64Array(n), luv = new Float64Array(n);
      for (let i = 0; i < n; i++) { let s = 0; for (let j = i; j < n; j++) s += lu[i * n + j] * v[j]; uv[i] = s; }
      for (let i = 0; i < n; i++) { let s = uv[i]; for (let j = 0; j < i; j++) s += lu[i * n + j] * uv[j]; luv[i] = s; }
      let r = 0, vn = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        const row = perm[i] * n;
        for (let j = 0; j < n; j++) s += a[row + j] * v[j];
        r += Math.abs(s - luv[i]);
        vn += Math.abs(v[i]);
      }
      expect(r / (n * anorm * vn * 1.1920929e-7)).toBeLessThan(30);
    }
  }, 300_000);
});

describe('laswpGpu', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: swaps in order and reversed on a column range of a batch, as LAPACK's laswp`, async () => {
      const batch = 3, rows = 11, ld = 9, c0 = 2, ncols = 5, k0 = 2, k1 = 9;
      const rng = new Rng(11);
      const F = dtype === 'complex64' ? 2 : 1;
      const data = new Float32Array(batch * rows * ld * F).map(() => rng.normal());
      const piv = new Int32Array(batch * rows);
      for (let b = 0; b < batch; b++) for (let i = 0; i < rows; i++) piv[b * rows + i] = i + 1 + Math.floor(rng.uniform() * (rows - i));
      for (const reverse of [false, true]) {
        const B = Tensor.fromStorage(dtype, [batch, rows, ld], data.slice()).to('gpu');
        const P = Tensor.fromStorage('int32', [batch * rows], piv).to('gpu');
        laswpGpu('test', {
          dtype, batch, B: { s: B.gpuStorage(), offset: c0, ld, stride: rows * ld }, ncols, piv: P.gpuStorage(), pivStride: rows, k0, k1, reverse,
        });
        const got = (await B.data()) as Float32Array;
        const want = data.slice();
        for (let b = 0; b < batch; b++) {
          for (let s = 0; s < k1 - k0; s++) {
            const i = reverse ? k1 - 1 - s : k0 + s;
            const q = piv[b * rows + i] - 1;
            for (let c = c0; c < c0 + ncols; c++) for (let f = 0; f < F; f++) {
              const x = ((b * rows + i) * ld + c) * F + f, y = ((b * rows + q) * ld + c) * F + f;
              [want[x], want[y]] = [want[y], want[x]];
            }
          }
        }
        expect(Array.from(got)).toEqual(Array.from(want));
      }
    });
  }
});
