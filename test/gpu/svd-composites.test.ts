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
async function close(g: Tensor, ref: Tensor, rtol: number, what: string, atol = 1e-30): Promise<void> {
  const got = Array.from((await cpu(g)).dataSync() as Float32Array);
  const want = Array.from(ref.dataSync() as Float64Array);
  expect(g.shape, what).toEqual(ref.shape);
  got.forEach((v, i) => {
    const w = want[i];
    if (!Number.isFinite(w)) expect(v, `${what}[${i}]`).toBe(w);
    else expect(Math.abs(v - w), `${what}[${i}]: ${v} vs ${w}`).toBeLessThanOrEqual(rtol * Math.abs(w) + atol);
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
    // long rows: chunks of a row in separate workgroups, their scaled sums combined
    for (const d of DTYPES) {
      const L = toTensor([rand(3, 20000, rng, d)], f64(d)).astype(d);
      const data = L.dataSync();
      data[2 * 20000 + 7] = 0;
      for (let i = 0; i < 100; i++) data[20000 + 300 * i] *= 1e6; // graded: chunk maxima differ
      const ref = L.astype(f64(d)), g = L.to('gpu');
      for (const ord of [2, 1, 3, 0.5, -1, Infinity, -Infinity, 0]) {
        await close(linalg.norm(g, ord, { dim: 1 }), linalg.norm(ref, ord, { dim: 1 }), 1e-4, `${d} long ord ${ord}`);
      }
      await close(linalg.norm(g), linalg.norm(ref), 1e-4, `${d} long flat`);
      data[5] = NaN;
      await close(linalg.norm(L.to('gpu'), 2, { dim: 1 }), linalg.norm(L.astype(f64(d)), 2, { dim: 1 }), 1e-4, `${d} long NaN`);
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
  // Shapes chosen so the QR and TRSM kernel variants repeat (each new variant compiles for
  // seconds on lavapipe): tall [A | B] and wide Aᴴ are all 8 rows × at most 4 columns.
  gpuIt('tall and wide against the CPU in float64, broadcast batch', async () => {
    const rng = new Rng(21);
    for (const d of DTYPES) {
      for (const [m, n] of [[8, 2], [3, 8]]) {
        const p = problem(d, m, n, 2, [2, 1], [3], rng);
        const g = linalg.lstsq(p.gA, p.gB, { driver: 'gels' });
        const ref = linalg.lstsq(p.A64, p.B64);
        expect(g.driver).toBe('gels');
        expect(g.singularValues.shape).toEqual([0]);
        expect(Array.from((await cpu(g.rank)).dataSync())).toEqual([Math.min(m, n), Math.min(m, n)]);
        const X = await cpu(g.solution);
        expect(X.shape).toEqual([2, 3, n, 2]);
        for (const e of relErrs(X, ref.solution)) expect(e).toBeLessThan(2e-4);
        if (m > n) await close(g.residuals, ref.residuals, 1e-3, `${d} gels residuals`);
        else expect(g.residuals.shape).toEqual([0]);
      }
    }
  });

  gpuIt('vector B, NaN member, rank-deficient → LinAlgError at the read', async () => {
    const rng = new Rng(22);
    const a = rand(8, 3, rng, 'float32'), xTrue = rand(3, 1, rng, 'float32');
    const b = a.mul(xTrue);
    const v = linalg.lstsq(toTensor([a], 'float32').to('gpu'), toTensor([b], 'float32').reshape([8]).to('gpu'), { driver: 'gels' });
    expect(v.solution.shape).toEqual([3]);
    const x = (await cpu(v.solution)).dataSync();
    x.forEach((xi, i) => expect(Math.abs(xi - xTrue.re(i, 0))).toBeLessThan(1e-4 * (xTrue.normFro() + 1)));
    expect(v.residuals.shape).toEqual([]);
    expect((await cpu(v.residuals)).dataSync()[0]).toBeLessThan(1e-8 * b.normFro() ** 2);
    const As = [rand(8, 2, rng, 'float32'), rand(8, 2, rng, 'float32')];
    As[0].set(2, 1, NaN, 0);
    const r = linalg.lstsq(toTensor(As, 'float32').to('gpu'), toTensor([rand(8, 2, rng, 'float32'), rand(8, 2, rng, 'float32')], 'float32').to('gpu'), { driver: 'gels' });
    const X = await cpu(r.solution);
    expect(Array.from(fromTensor(X, 0).data).filter((_, i) => i % 2 === 0).every(Number.isNaN)).toBe(true);
    expect(Array.from(fromTensor(X, 1).data).every(Number.isFinite)).toBe(true);
    for (const [m, n] of [[8, 2], [3, 8]]) {
      const A = toTensor([lowRank(m, n, 1, rng, 'float32')], 'float32');
      const bad = linalg.lstsq(A.to('gpu'), toTensor([rand(m, 2, rng, 'float32')], 'float32').to('gpu'), { driver: 'gels' });
      const err = await bad.solution.data().then(() => null, (e: unknown) => e);
      expect(err, `${m}×${n}`).toBeInstanceOf(LinAlgError);
      expect((err as Error).message).toMatch(/^lstsq: A is rank-deficient.*'gelsd'/);
    }
    // a vector B: the check rides on the reshaped solution and residual
    const R1 = toTensor([lowRank(8, 3, 1, rng, 'float32')], 'float32').to('gpu');
    const vb = linalg.lstsq(R1, toTensor([rand(8, 1, rng, 'float32')], 'float32').reshape([8]).to('gpu'), { driver: 'gels' });
    expect(vb.solution.shape).toEqual([3]);
    await expect(vb.solution.data()).rejects.toThrow(LinAlgError);
    await expect(vb.residuals.data()).rejects.toThrow(LinAlgError);
  });
});

const scaled = (M: Mat, s: number): Mat => M.scaleRows(new Array<number>(M.rows).fill(s));

/** m×n of rank r (random factors), float64 values. */
function lowRank(m: number, n: number, r: number, rng: Rng, d: D): Mat {
  return rand(m, r, rng, d).mul(rand(r, n, rng, d));
}

describe('GPU pinv and matrixRank (registry svd)', () => {
  gpuIt('Penrose conditions and the CPU float64 pinv on full-rank, rank-deficient and wide members', async () => {
    const rng = new Rng(31);
    for (const d of DTYPES) {
      for (const [m, n, r] of [[6, 4, 4], [6, 4, 2], [3, 5, 2]]) {
        const ms = [rand(m, n, rng, d), lowRank(m, n, r, rng, d), lowRank(m, n, Math.min(r, 1), rng, d)];
        const A = toTensor(ms, d);
        const X = await cpu(linalg.pinv(A.to('gpu'), { rtol: 1e-4 }));
        expect(X.shape).toEqual([3, n, m]);
        const ref = linalg.pinv(A.astype(f64(d)), { rtol: 1e-4 });
        ms.forEach((_, b) => {
          const a = fromTensor(A, b), x = fromTensor(X, b);
          const tol = 1e-4;
          expect(a.mul(x).mul(a).sub(a).normFro() / a.normFro()).toBeLessThan(tol);
          expect(x.mul(a).mul(x).sub(x).normFro() / x.normFro()).toBeLessThan(tol);
          const ax = a.mul(x), xa = x.mul(a);
          expect(ax.sub(ax.adjoint()).normFro() / ax.normFro()).toBeLessThan(tol);
          expect(xa.sub(xa.adjoint()).normFro() / xa.normFro()).toBeLessThan(tol);
          expect(x.sub(fromTensor(ref, b)).normFro() / fromTensor(ref, b).normFro()).toBeLessThan(1e-3);
        });
        const rk = await cpu(linalg.matrixRank(A.to('gpu'), { rtol: 1e-4 }));
        expect(Array.from(rk.dataSync())).toEqual([Math.min(m, n), r, 1]);
      }
    }
  });

  gpuIt('hermitian (lower triangle), atol, scaled by 2^±120, NaN member', async () => {
    const rng = new Rng(32);
    for (const d of DTYPES) {
      const L = rand(4, 4, rng, d);
      const A = toTensor([L], d);
      const X = await cpu(linalg.pinv(A.to('gpu'), { hermitian: true }));
      const ref = linalg.pinv(A.astype(f64(d)), { hermitian: true });
      expect(fromTensor(X).sub(fromTensor(ref)).normFro() / fromTensor(ref).normFro()).toBeLessThan(1e-3);
      expect((await cpu(linalg.matrixRank(A.to('gpu'), { hermitian: true }))).dataSync()[0])
        .toBe(linalg.matrixRank(A.astype(f64(d)), { hermitian: true }).dataSync()[0]);
      // atol in A's units: a matrix with σ = 4, 2, 1e-3 has rank 2 above atol 0.01
      const D3 = toTensor([Mat.diag([4, 2, 1e-3])], d);
      for (const s of [2 ** 120, 2 ** -120, 1]) {
        const g = linalg.matrixRank(D3.mul(s).to('gpu'), { atol: 0.01 * s });
        expect((await cpu(g)).dataSync()[0], `atol at scale ${s}`).toBe(2);
      }
      const B = toTensor([rand(5, 3, rng, d)], d);
      const ref2 = fromTensor(linalg.pinv(B.astype(f64(d))));
      for (const s of [2 ** 120, 2 ** -120]) {
        const x = fromTensor(await cpu(linalg.pinv(B.mul(s).to('gpu'))));
        expect(x.sub(scaled(ref2, 1 / s)).normFro() / scaled(ref2, 1 / s).normFro(), `scale ${s}`).toBeLessThan(1e-4);
      }
      const N = toTensor([rand(4, 4, rng, d), rand(4, 4, rng, d)], d);
      const nd = N.dataSync();
      nd[0] = NaN;
      const XN = await cpu(linalg.pinv(N.to('gpu')));
      const xs = Array.from(XN.dataSync());
      const per = xs.length / 2;
      expect(xs.slice(0, per).every(Number.isNaN)).toBe(true);
      expect(xs.slice(per).every(Number.isFinite)).toBe(true);
    }
  });
});

describe("GPU lstsq driver 'gelsd' and the spectral norms", () => {
  gpuIt('full rank (broadcast), rank-deficient and wide: minimum norm, normal equations, residuals', async () => {
    const rng = new Rng(41);
    for (const d of DTYPES) {
      for (const [m, n, r] of [[6, 4, 4], [6, 4, 2], [3, 5, 2]]) {
        const As = [rand(m, n, rng, d), lowRank(m, n, r, rng, d)];
        const Bs = [rand(m, 2, rng, d), rand(m, 2, rng, d), rand(m, 2, rng, d)];
        const A = toTensor(As, d, [2, 1]), B = toTensor(Bs, d, [3]);
        const g = linalg.lstsq(A.to('gpu'), B.to('gpu'), { rcond: 1e-4 });
        expect(g.driver).toBe('gelsd');
        const ref = linalg.lstsq(A.astype(f64(d)), B.astype(f64(d)), { rcond: 1e-4 });
        const X = await cpu(g.solution);
        expect(X.shape).toEqual([2, 3, n, 2]);
        for (const e of relErrs(X, ref.solution)) expect(e).toBeLessThan(2e-3);
        expect(Array.from((await cpu(g.rank)).dataSync())).toEqual([Math.min(m, n), r]);
        // zero σ of the rank-deficient member: float32's rounding, to eps·σ_max
        await close(g.singularValues, linalg.svdvals(A.astype(f64(d))), 1e-4, `${d} singular values`, 1e-5 * fromTensor(A, 1).normFro());
        for (let i = 0; i < 2; i++)
          for (let j = 0; j < 3; j++) {
            const a = fromTensor(A, i), x = fromTensor(X, i * 3 + j), b = fromTensor(B, j);
            // Aᴴ(AX − B) ≈ 0 relative to ‖A‖²‖X‖ + ‖A‖‖B‖
            const ne = a.adjoint().mul(a.mul(x).sub(b)).normFro();
            expect(ne / (a.normFro() ** 2 * x.normFro() + a.normFro() * b.normFro())).toBeLessThan(1e-4);
          }
        if (m > n) {
          const res = Array.from((await cpu(g.residuals)).dataSync());
          expect(g.residuals.shape).toEqual([2, 3, 2]);
          const full = linalg.lstsq(toTensor([As[0]], f64(d)), B.astype(f64(d))).residuals.dataSync();
          res.slice(0, 6).forEach((v, i) => expect(Math.abs(v - full[i])).toBeLessThan(1e-3 * full[i]));
          expect(res.slice(6).every(Number.isNaN)).toBe(r < n);
        } else expect(g.residuals.shape).toEqual([0]);
      }
    }
    const v = linalg.lstsq(tensor([[1, 0], [0, 1], [1, 1]], { dtype: 'float32' }).to('gpu'), tensor([1, 2, 3], { dtype: 'float32' }).to('gpu'));
    const x = (await cpu(v.solution)).dataSync();
    expect(Math.abs(x[0] - 1) + Math.abs(x[1] - 2)).toBeLessThan(1e-5);
  });

  gpuIt('norm 2, −2, nuc (any dims) and cond 2, −2 (singular → Infinity, NaN → NaN)', async () => {
    const rng = new Rng(42);
    for (const d of DTYPES) {
      const sing = rand(4, 4, rng, d);
      for (let i = 0; i < 4; i++) sing.set(i, 2, 0, 0);
      const A = toTensor([rand(4, 4, rng, d), sing, rand(4, 4, rng, d)], d);
      const ref = A.astype(f64(d)), g = A.to('gpu');
      for (const ord of [2, -2, 'nuc'] as const) {
        for (const dim of [[1, 2], [2, 0]] as Array<[number, number]>) {
          const want = linalg.norm(ref, ord, { dim });
          const got = linalg.norm(g, ord, { dim });
          if (ord === -2 && dim[0] === 1) {
            const w = Array.from((await cpu(got)).dataSync());
            expect(w[1]).toBeLessThan(1e-5);
          } else await close(got, want, 1e-4, `${d} ${ord} ${dim}`);
        }
      }
      const c2 = Array.from((await cpu(linalg.cond(g))).dataSync());
      const r2 = Array.from(linalg.cond(ref).dataSync());
      expect(Math.abs(c2[0] - r2[0]) / r2[0]).toBeLessThan(1e-3);
      expect(c2[1]).toBe(Infinity);
      const cm2 = Array.from((await cpu(linalg.cond(g, -2))).dataSync());
      expect(cm2[1]).toBe(0);
      const N = toTensor([rand(6, 4, rng, d)], d);
      N.dataSync()[1] = NaN;
      for (const ord of [2, -2] as const) expect((await cpu(linalg.cond(N.to('gpu'), ord))).dataSync()[0]).toBeNaN();
      expect((await cpu(linalg.norm(N.to('gpu'), 2))).dataSync()[0]).toBeNaN();
      N.dataSync()[1] = Infinity;
      expect((await cpu(linalg.norm(N.to('gpu'), 2))).dataSync()[0]).toBe(Infinity);
    }
  });
});

describe('GPU lstsq near under/overflow', () => {
  gpuIt('A·2^kA, B·2^kB solve as the unscaled problem (both drivers, subnormal-range entries)', async () => {
    const rng = new Rng(51);
    const a = rand(8, 2, rng, 'float32'), b = rand(8, 2, rng, 'float32');
    for (const driver of ['gelsd', 'gels'] as const) {
      const X0 = await cpu(linalg.lstsq(toTensor([a], 'float32').to('gpu'), toTensor([b], 'float32').to('gpu'), { driver }).solution);
      for (const [ka, kb] of [[-100, -120], [100, -20], [-135, -130]]) {
        const A = toTensor([scaled(a, 2 ** ka)], 'float32'), B = toTensor([scaled(b, 2 ** kb)], 'float32');
        const r = linalg.lstsq(A.to('gpu'), B.to('gpu'), { driver });
        const X = fromTensor(await cpu(r.solution));
        // the float64 solution of the rounded inputs (subnormal entries keep fewer digits)
        const want = fromTensor(linalg.lstsq(A.astype('float64'), B.astype('float64')).solution);
        expect(X.sub(want).normFro() / want.normFro(), `${driver} ${ka} ${kb}`).toBeLessThan(1e-5);
        if (ka > -126) {
          const same = scaled(fromTensor(X0), 2 ** (kb - ka));
          expect(X.sub(same).normFro() / same.normFro(), `${driver} ${ka} ${kb} vs unscaled`).toBeLessThan(1e-6);
        }
        if (2 * kb < -100) continue; // ‖r‖²·2^(2kB) underflows float32
        const res = Array.from((await cpu(r.residuals)).dataSync()), res0 = Array.from(linalg.lstsq(toTensor([a], 'float64'), toTensor([b], 'float64')).residuals.dataSync());
        res.forEach((v, i) => expect(Math.abs(v / 2 ** (2 * kb) - res0[i]) / res0[i], `${driver} residual`).toBeLessThan(1e-3));
      }
    }
  });
});

describe('GPU composites: empty shapes', () => {
  gpuIt('lstsq with n = 0 or m = 0, pinv and matrixRank of empty matrices', async () => {
    for (const driver of ['gelsd', 'gels'] as const) {
      const B = tensor([[1, 2], [3, 4], [0, 1]], { dtype: 'float32' });
      const r = linalg.lstsq(Tensor.empty('float32', [3, 0]).to('gpu'), B.to('gpu'), { driver });
      expect(r.solution.shape).toEqual([0, 2]);
      expect(Array.from((await cpu(r.residuals)).dataSync())).toEqual([10, 21]);
      const w = linalg.lstsq(Tensor.empty('float32', [0, 3]).to('gpu'), Tensor.empty('float32', [0, 2]).to('gpu'), { driver });
      expect(Array.from((await cpu(w.solution)).dataSync())).toEqual([0, 0, 0, 0, 0, 0]);
      expect(w.residuals.shape).toEqual([0]);
    }
    const X = linalg.pinv(Tensor.empty('complex64', [2, 0, 3]).to('gpu'));
    expect(X.shape).toEqual([2, 3, 0]);
    expect(Array.from((await cpu(linalg.matrixRank(Tensor.empty('float32', [2, 3, 0]).to('gpu')))).dataSync())).toEqual([0, 0]);
  });
});
