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

/** A CPU float64 problem set: As (batch aB), Bs (batch bB) as GPU tensors of dtype d and float64 references. */
function problem(d: D, m: number, n: number, nrhs: number, aB: number[], bB: number[], rng: Rng) {
  const ca = aB.reduce((x, y) => x * y, 1), cb = bB.reduce((x, y) => x * y, 1);
  const As = Array.from({ length: ca }, () => rand(m, n, rng, d)), Bs = Array.from({ length: cb }, () => rand(m, nrhs, rng, d));
  const A = toTensor(As, d, aB), B = toTensor(Bs, d, bB);
  return { A, B, A64: A.astype(f64(d)), B64: B.astype(f64(d)), gA: A.to('gpu'), gB: B.to('gpu') };
}

/** ‖X − Xref‖/‖Xref‖ per member of two CPU tensors. */
function relErrs(X: Tensor, ref: Tensor): number[] {
  const per = X.rows * X.cols, count = X.size / Math.max(1, per);
  return Array.from({ length: count }, (_, b) => {
    const x = fromTensor(X, b), r = fromTensor(ref, b);
    return x.sub(r).normFro() / (r.normFro() || 1);
  });
}

describe("GPU lstsq driver 'gels'", () => {
  gpuIt('tall, square and wide against the CPU in float64, broadcast batch', async () => {
    const rng = new Rng(21);
    for (const d of DTYPES) {
      for (const [m, n] of [[9, 4], [5, 5], [4, 9]]) {
        const p = problem(d, m, n, 3, [2, 1], [3], rng);
        const g = linalg.lstsq(p.gA, p.gB, { driver: 'gels' });
        const ref = linalg.lstsq(p.A64, p.B64);
        expect(g.driver).toBe('gels');
        expect(g.singularValues.shape).toEqual([0]);
        expect(Array.from((await cpu(g.rank)).dataSync())).toEqual([Math.min(m, n), Math.min(m, n)]);
        const X = await cpu(g.solution);
        expect(X.shape).toEqual([2, 3, n, 3]);
        for (const e of relErrs(X, ref.solution)) expect(e).toBeLessThan(2e-4);
        if (m > n) await close(g.residuals, ref.residuals, 1e-3, `${d} gels residuals`);
        else expect(g.residuals.shape).toEqual([0]);
      }
    }
  });

  gpuIt('vector B, NaN member, rank-deficient → LinAlgError at the read', async () => {
    const v = linalg.lstsq(tensor([[1, 0], [0, 1], [1, 1]], { dtype: 'float32' }).to('gpu'), tensor([1, 2, 3], { dtype: 'float32' }).to('gpu'), { driver: 'gels' });
    expect(v.solution.shape).toEqual([2]);
    const x = (await cpu(v.solution)).dataSync();
    expect(Math.abs(x[0] - 1) + Math.abs(x[1] - 2)).toBeLessThan(1e-5);
    expect(v.residuals.shape).toEqual([]);
    expect((await cpu(v.residuals)).dataSync()[0]).toBeLessThan(1e-10);
    const rng = new Rng(22);
    const As = [rand(6, 3, rng, 'float32'), rand(6, 3, rng, 'float32')];
    As[0].set(2, 1, NaN, 0);
    const r = linalg.lstsq(toTensor(As, 'float32').to('gpu'), toTensor([rand(6, 2, rng, 'float32'), rand(6, 2, rng, 'float32')], 'float32').to('gpu'), { driver: 'gels' });
    const X = await cpu(r.solution);
    expect(Array.from(fromTensor(X, 0).data).filter((_, i) => i % 2 === 0).every(Number.isNaN)).toBe(true);
    expect(Array.from(fromTensor(X, 1).data).every(Number.isFinite)).toBe(true);
    for (const A of [[[1, 2], [2, 4], [3, 6]], [[1, 2, 3], [2, 4, 6]]]) {
      const bad = linalg.lstsq(tensor(A, { dtype: 'float32' }).to('gpu'), tensor(A.map(() => [1]), { dtype: 'float32' }).to('gpu'), { driver: 'gels' });
      const err = await bad.solution.data().then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(LinAlgError);
      expect((err as Error).message).toMatch(/^lstsq: A is rank-deficient.*'gelsd'/);
    }
  });
});
