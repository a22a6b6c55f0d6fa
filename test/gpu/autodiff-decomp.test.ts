// Gradients of qr, svd, svdvals, pinv, lstsq, norm and cond on the GPU (float32, complex64)
// against the float64 / complex128 CPU gradient of the same inputs. The backward runs on the
// GPU (the rules are public ops). Tolerance 2e-5 relative to the largest entry: float32 carries
// ~1e-7, amplified by the rules' 1/(σ_j² − σ_k²) and 1/σ factors (spectra here are 4, 3, 2, 1 or
// 3, 2, 1: up to ~10×) and by k·eps per float32 product; lavapipe measures ≤ 6e-7, the margin is
// for other GPUs (FMA contraction, the Jacobi SVD's sweep count).
import { describe, expect } from 'vitest';
import { linalg, tensor, vjp, cast, mul, Tensor, LinAlgError, ArgumentError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { randomTensor, gradDistance } from '../helpers/gradcheck.js';

useGpu();

type D = 'float32' | 'complex64';
const DTYPES: readonly D[] = ['float32', 'complex64'];
const wide = (d: D) => (d === 'complex64' ? 'complex128' as const : 'float64' as const);
const { matmul } = linalg;
const TOL = 2e-5;

/** A float64/complex128 CPU matrix (batch) with singular values `s` and random orthonormal factors. */
function withSpectrum(m: number, n: number, s: number[], d: D, seed: number, batch: number[] = []): Tensor {
  const dt = wide(d);
  const Q1 = linalg.qr(randomTensor([...batch, m, m], dt, seed)).Q;
  const Q2 = linalg.qr(randomTensor([...batch, n, n], dt, seed + 1)).Q;
  const D0 = new Float64Array(m * n);
  for (let i = 0; i < Math.min(m, n); i++) D0[i * n + i] = s[i];
  return matmul(matmul(Q1, tensor({ data: D0, shape: [m, n], dtype: 'float64' })), Q2);
}

/**
 * The pullback of cotangents `ws` (CPU float64 tensors, one per output) through f, on the GPU
 * in dtype d and on the CPU in float64; returns their distance.
 */
async function compare(f: (...a: Tensor[]) => Tensor[], args: Tensor[], d: D, seed: number): Promise<number> {
  const ref = vjp((...a: Tensor[]) => f(...a), ...args);
  const ws = ref.value.map((v, i) => randomTensor(v.shape, v.dtype === 'complex128' ? 'complex128' : 'float64', seed + i));
  const gRef = ref.pullback(ws);
  const gArgs = args.map((a) => cast(a, d).to('gpu'));
  const dev = vjp((...a: Tensor[]) => f(...a), ...gArgs);
  dev.value.forEach((v) => expect(v.device).toBe('gpu'));
  const gDev = dev.pullback(ws.map((w, i) => cast(w, dev.value[i].dtype).to('gpu')));
  gDev.forEach((g) => expect(g.device).toBe('gpu'));
  return gradDistance(gDev, gRef);
}

describe('GPU gradients of the decompositions vs float64 CPU', () => {
  gpuIt('qr (reduced, tall and wide) and svd (gauge-invariant U·diag(w)·Vh, S)', async () => {
    const w = tensor([0.7, -1.3, 0.4, 1.1]);
    for (const d of DTYPES) {
      expect(await compare((a) => { const r = linalg.qr(a); return [r.Q, r.R]; }, [withSpectrum(6, 4, [3, 2, 1.5, 1], d, 1)], d, 10)).toBeLessThan(TOL);
      expect(await compare((a) => { const r = linalg.qr(a); return [r.Q, r.R]; }, [withSpectrum(3, 5, [3, 2, 1], d, 2, [2])], d, 11)).toBeLessThan(TOL);
      const fs = (a: Tensor) => {
        const { U, S, Vh } = linalg.svd(a, { fullMatrices: false });
        const wd = cast(w, a.device === 'gpu' ? 'float32' : 'float64').to(a.device);
        return [matmul(mul(U, wd), Vh), S];
      };
      expect(await compare(fs, [withSpectrum(6, 4, [4, 3, 2, 1], d, 3)], d, 12)).toBeLessThan(TOL);
      expect(await compare(fs, [withSpectrum(4, 6, [4, 3, 2, 1], d, 4)], d, 13)).toBeLessThan(TOL);
    }
  }, 300_000);

  gpuIt('svdvals, pinv (tall, wide, rtol), lstsq (solution), cond 2', async () => {
    for (const d of DTYPES) {
      expect(await compare((a) => [linalg.svdvals(a)], [withSpectrum(5, 4, [4, 3, 2, 1], d, 5, [2])], d, 20)).toBeLessThan(TOL);
      expect(await compare((a) => [linalg.pinv(a)], [withSpectrum(6, 4, [3, 2, 1.5, 1], d, 6)], d, 21)).toBeLessThan(TOL);
      expect(await compare((a) => [linalg.pinv(a)], [withSpectrum(4, 6, [3, 2, 1.5, 1], d, 7)], d, 22)).toBeLessThan(TOL);
      // a threshold that drops σ = 1: the SVD route
      expect(await compare((a) => [linalg.pinv(a, { rtol: 0.4 })], [withSpectrum(5, 4, [4, 3, 2, 1], d, 12)], d, 25)).toBeLessThan(TOL);
      expect(await compare((a, b) => [linalg.lstsq(a, b).solution], [withSpectrum(6, 4, [3, 2, 1.5, 1], d, 8), randomTensor([6, 2], wide(d), 9)], d, 23)).toBeLessThan(TOL);
      expect(await compare((a) => [linalg.cond(a)], [withSpectrum(5, 4, [4, 3, 2, 1], d, 10)], d, 24)).toBeLessThan(TOL);
    }
  }, 300_000);

  gpuIt("norm: vector 2 and 3 along a dim, matrix 'fro', 'nuc', 2, Infinity", async () => {
    for (const d of DTYPES) {
      const A = withSpectrum(5, 4, [4, 3, 2, 1], d, 11);
      for (const [ord, dim] of [[2, 1], [3, 0]] as const) {
        expect(await compare((a) => [linalg.norm(a, ord, { dim })], [A], d, 30)).toBeLessThan(TOL);
      }
      for (const ord of ['fro', 'nuc', 2, Infinity] as const) {
        expect(await compare((a) => [linalg.norm(a, ord)], [A], d, 31)).toBeLessThan(TOL);
      }
    }
  }, 300_000);

  gpuIt('errors at the first read of the gradient: repeated singular values (LinAlgError), complex gauge (ArgumentError)', async () => {
    for (const d of DTYPES) {
      // σ₂ = σ₃ to rounding (the float32 Jacobi values differ by ≤ 0.13 of the tolerance here)
      const A = cast(withSpectrum(4, 4, [3, 1, 1, 0.5], d, 60), d).to('gpu');
      const f = (a: Tensor) => {
        const { U, Vh } = linalg.svd(a, { fullMatrices: false });
        return matmul(mul(U, cast(tensor([1, 2, 3, 4]), 'float32').to('gpu')), Vh);
      };
      const [g] = vjp(f, A).pullback(cast(randomTensor([4, 4], wide(d), 61), d).to('gpu'));
      await expect(g.data()).rejects.toThrow(LinAlgError);
    }
    const B = cast(withSpectrum(4, 3, [3, 2, 1], 'complex64', 62), 'complex64').to('gpu');
    const [gb] = vjp((a: Tensor) => linalg.svd(a, { fullMatrices: false }).U, B).pullback(cast(randomTensor([4, 3], 'complex128', 63), 'complex64').to('gpu'));
    await expect(gb.data()).rejects.toThrow(ArgumentError);
  }, 300_000);
});
