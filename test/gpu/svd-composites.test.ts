// GPU composites of the SVD family (src/backend/gpu/{norm,pinv,lstsq}.ts) against the CPU in
// float64: vectorNorm (every order, 1e±38-scaled data, NaN), matrixNorm (every order, any dims
// pair), cond (every order, singular → Infinity), lstsq's 'gels' driver (tall, wide, broadcast
// batch, rank-deficient → LinAlgError at the read), and the SVD-based pinv (Penrose
// conditions), matrixRank and lstsq 'gelsd' (normal equations, minimum norm) — float32 and
// complex64, batched, small sizes.
import { describe, expect } from 'vitest';
import { linalg, tensor, Rng, Tensor, LinAlgError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { Mat, randomMatrix, toTensor, fromTensor } from '../helpers/matrices.js';

useGpu();

type D = 'float32' | 'complex64';
const DTYPES: readonly D[] = ['float32', 'complex64'];
const EPS = 1.1920928955078125e-7;
const cpu = (t: Tensor) => t.toAsync('cpu');
const f64 = (d: D) => (d === 'complex64' ? 'complex128' : 'float64');

/** Values of a real GPU tensor next to the float64 CPU reference, to rtol (NaN and ±Infinity exact). */
async function close(g: Tensor, ref: Tensor, rtol: number, what: string): Promise<void> {
  const got = Array.from((await cpu(g)).dataSync() as Float32Array);
  const want = Array.from(ref.dataSync() as Float64Array);
  expect(g.shape, what).toEqual(ref.shape);
  got.forEach((v, i) => {
    const w = want[i];
    if (!Number.isFinite(w)) expect(v, `${what}[${i}]`).toBe(w);
    else expect(Math.abs(v - w), `${what}[${i}]: ${v} vs ${w}`).toBeLessThanOrEqual(rtol * Math.abs(w) + 1e-30);
  });
}

function rand(m: number, n: number, rng: Rng, d: D): Mat {
  return randomMatrix(m, n, rng, { complex: d === 'complex64' });
}

describe('GPU vectorNorm and matrixNorm', () => {
  gpuIt('vector orders over dims, scaled data at 1e±38, NaN', async () => {
    const rng = new Rng(11);
    for (const d of DTYPES) {
      const A = toTensor([rand(5, 7, rng, d), rand(5, 7, rng, d), rand(5, 7, rng, d)], f64(d)).reshape([3, 5, 7]);
      const a32 = A.astype(d);
      const ref = a32.astype(f64(d));
      const g = a32.to('gpu');
      for (const ord of [2, 1, 3, 0.5, -1, Infinity, -Infinity, 0]) {
        for (const dim of [2, 1, 0]) {
          await close(linalg.norm(g, ord, { dim }), linalg.norm(ref, ord, { dim }), 1e-5, `${d} ord ${ord} dim ${dim}`);
        }
      }
      await close(linalg.norm(g), linalg.norm(ref), 1e-5, `${d} flat`);
      await close(linalg.norm(g, 2, { dim: 1, keepdim: true }), linalg.norm(ref, 2, { dim: 1, keepdim: true }), 1e-5, `${d} keepdim`);
      // 1e±38: neither the squares' overflow nor their underflow shows
      for (const s of [3e37, 1e-38]) {
        const sc = ref.mul(s).astype(d);
        for (const ord of [2, 1, 3, Infinity]) {
          await close(linalg.norm(sc.to('gpu'), ord, { dim: 2 }), linalg.norm(sc.astype(f64(d)), ord, { dim: 2 }), 1e-5, `${d} scaled ${s} ord ${ord}`);
        }
      }
    }
    const x = tensor([[1, NaN, 2], [3, 4, 0]], { dtype: 'float32' });
    for (const ord of [2, 1, 0.5, Infinity, -Infinity]) {
      await close(linalg.norm(x.to('gpu'), ord, { dim: 1 }), linalg.norm(x.astype('float64'), ord, { dim: 1 }), 1e-6, `NaN ord ${ord}`);
    }
  });

  gpuIt('matrix orders fro, ±1, ±Infinity over every dims pair; empty', async () => {
    const rng = new Rng(12);
    for (const d of DTYPES) {
      const A = toTensor([rand(4, 6, rng, d), rand(4, 6, rng, d)], f64(d)).reshape([2, 4, 6]).astype(d);
      const ref = A.astype(f64(d)), g = A.to('gpu');
      for (const ord of ['fro', 1, -1, Infinity, -Infinity] as const) {
        for (const dim of [[1, 2], [2, 1], [0, 2], [2, 0]] as Array<[number, number]>) {
          await close(linalg.norm(g, ord, { dim }), linalg.norm(ref, ord, { dim }), 1e-5, `${d} ${ord} ${dim}`);
        }
      }
    }
    const E = Tensor.empty('float32', [2, 0, 3]);
    for (const ord of ['fro', 1, -1, Infinity, -Infinity] as const) {
      await close(linalg.norm(E.to('gpu'), ord, { dim: [1, 2] }), linalg.norm(E.astype('float64'), ord, { dim: [1, 2] }), 0, `empty ${ord}`);
    }
  });

  gpuIt('cond orders 1, ∞, fro through inv; singular → Infinity', async () => {
    const rng = new Rng(13);
    for (const d of DTYPES) {
      const S = rand(4, 4, rng, d);
      const sing = rand(4, 4, rng, d);
      for (let j = 0; j < 4; j++) sing.set(3, j, 0, 0);
      const A = toTensor([rand(4, 4, rng, d), S, sing], f64(d)).astype(d);
      const ref = A.astype(f64(d)), g = A.to('gpu');
      for (const ord of [1, -1, Infinity, -Infinity, 'fro'] as const) {
        await close(linalg.cond(g, ord), linalg.cond(ref, ord), 1e-3, `${d} cond ${ord}`);
      }
      const c = Array.from((await cpu(linalg.cond(g, 1))).dataSync());
      expect(c[2]).toBe(Infinity);
    }
  });
});
