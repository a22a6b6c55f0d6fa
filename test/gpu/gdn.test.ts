// lapis/gdn: chunkSolve and invUnitLower on the GPU against the CPU backend and the
// definition; the chunked gated-delta-rule forward against a naive sequential recurrence.
import { describe, expect } from 'vitest';
import { Rng, Tensor, DTypeError, DeviceError, ShapeError, ArgumentError } from '../../src/index.js';
import * as gdn from '../../src/gdn/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

/** Chunk coefficient blocks as the delta rule makes them: β·(k_i·k_j)·decay, |entries| < 1. NaN above. */
function chunkBlocks(count: number, C: number, rng: Rng): Float32Array {
  const a = new Float32Array(count * C * C).fill(NaN);
  for (let b = 0; b < count; b++) for (let i = 0; i < C; i++) for (let j = 0; j < i; j++) a[(b * C + i) * C + j] = 0.5 * rng.normal() / Math.sqrt(C);
  return a;
}

function randn(n: number, rng: Rng, scale = 1): Float64Array {
  return Float64Array.from({ length: n }, () => scale * rng.normal());
}

/** The definition: S_t = exp(g_t)(I − β_t k_t k_tᵀ)S_{t−1} + β_t k_t v_tᵀ, o_t = S_tᵀ q_t, in float64. */
function naive(q: Float64Array, k: Float64Array, v: Float64Array, beta: Float64Array, g: Float64Array,
  BH: number, L: number, dk: number, dv: number, S0?: Float64Array): { o: Float64Array; S: Float64Array } {
  const o = new Float64Array(BH * L * dv);
  const Sall = new Float64Array(BH * dk * dv);
  for (let bh = 0; bh < BH; bh++) {
    const S = S0 ? S0.slice(bh * dk * dv, (bh + 1) * dk * dv) : new Float64Array(dk * dv);
    for (let t = 0; t < L; t++) {
      const kt = k.subarray((bh * L + t) * dk, (bh * L + t + 1) * dk);
      const vt = v.subarray((bh * L + t) * dv, (bh * L + t + 1) * dv);
      const qt = q.subarray((bh * L + t) * dk, (bh * L + t + 1) * dk);
      const a = Math.exp(g[bh * L + t]), b = beta[bh * L + t];
      const kS = new Float64Array(dv); // kᵀ S
      for (let d = 0; d < dk; d++) for (let e = 0; e < dv; e++) kS[e] += kt[d] * S[d * dv + e];
      for (let d = 0; d < dk; d++) for (let e = 0; e < dv; e++) S[d * dv + e] = a * (S[d * dv + e] - b * kt[d] * kS[e]) + b * kt[d] * vt[e];
      for (let e = 0; e < dv; e++) { let s = 0; for (let d = 0; d < dk; d++) s += S[d * dv + e] * qt[d]; o[(bh * L + t) * dv + e] = s; }
    }
    Sall.set(S, bh * dk * dv);
  }
  return { o, S: Sall };
}

function relErr(x: ArrayLike<number>, ref: ArrayLike<number>): number {
  let num = 0, den = 0;
  for (let i = 0; i < ref.length; i++) { num += (x[i] - ref[i]) ** 2; den += ref[i] ** 2; }
  return Math.sqrt(num / den);
}

function gdnInputs(Bn: number, H: number, L: number, dk: number, dv: number, rng: Rng) {
  const q = randn(Bn * H * L * dk, rng, 1 / Math.sqrt(dk));
  const k = randn(Bn * H * L * dk, rng);
  for (let t = 0; t < Bn * H * L; t++) { // L2-normalised keys, as Gated DeltaNet uses
    let s = 0;
    for (let d = 0; d < dk; d++) s += k[t * dk + d] ** 2;
    for (let d = 0; d < dk; d++) k[t * dk + d] /= Math.sqrt(s);
  }
  const v = randn(Bn * H * L * dv, rng);
  const beta = Float64Array.from({ length: Bn * H * L }, () => 0.1 + 0.8 * rng.uniform());
  const g = Float64Array.from({ length: Bn * H * L }, () => -0.2 * rng.uniform());
  return { q, k, v, beta, g };
}

describe('gdn.chunkSolve / invUnitLower', () => {
  for (const C of [16, 32, 64]) {
    gpuIt(`C=${C}: (batch, head, chunk, C, C) solves match the CPU; NaN on and above the diagonal ignored`, async () => {
      const rng = new Rng(C);
      const shape = [2, 3, 2];
      const count = 12;
      const a = chunkBlocks(count, C, rng);
      const b = Float32Array.from({ length: count * C * C }, () => rng.normal());
      const A = Tensor.fromStorage('float32', [...shape, C, C], a), B = Tensor.fromStorage('float32', [...shape, C, C], b);
      const X = (await gdn.chunkSolve(A.to('gpu'), B.to('gpu')).data()) as Float32Array;
      const ref = gdn.chunkSolve(A, B).dataSync() as Float32Array;
      expect(X.every(Number.isFinite)).toBe(true);
      expect(relErr(X, ref)).toBeLessThan(1e-5);
      // the definition: (I + tril(A, −1))·X = B
      for (let m = 0; m < count; m++) {
        let res = 0, scale = 0;
        for (let i = 0; i < C; i++) for (let j = 0; j < C; j++) {
          let s = X[(m * C + i) * C + j];
          for (let p = 0; p < i; p++) s += a[(m * C + i) * C + p] * X[(m * C + p) * C + j];
          res = Math.max(res, Math.abs(s - b[(m * C + i) * C + j]));
          scale = Math.max(scale, Math.abs(b[(m * C + i) * C + j]));
        }
        expect(res).toBeLessThan(1e-5 * C * scale);
      }
    });
  }

  gpuIt('invUnitLower: T·(I + L) = I, T unit lower with exact zeros above, GPU = CPU', async () => {
    const rng = new Rng(2);
    for (const C of [16, 64]) {
      const a = chunkBlocks(4, C, rng);
      const A = Tensor.fromStorage('float32', [4, C, C], a);
      const T = (await gdn.invUnitLower(A.to('gpu')).data()) as Float32Array;
      const Tc = gdn.invUnitLower(A).dataSync() as Float32Array;
      expect(relErr(T, Tc)).toBeLessThan(1e-5);
      for (let m = 0; m < 4; m++) for (let i = 0; i < C; i++) for (let j = 0; j < C; j++) {
        const t = T[(m * C + i) * C + j];
        if (j > i) expect(t).toBe(0);
        if (j === i) expect(t).toBe(1);
        let s = t; // (T·(I + L))_ij = T_ij + Σ_{p>j} T_ip L_pj
        for (let p = j + 1; p <= i; p++) s += T[(m * C + i) * C + p] * a[(m * C + p) * C + j];
        expect(Math.abs(s - (i === j ? 1 : 0))).toBeLessThan(1e-5 * C);
      }
    }
    expect(gdn.invUnitLower([[0, 0], [0.5, 0]]).toArray()).toEqual([[1, 0], [-0.5, 1]]);
  });

  gpuIt('errors name the function and argument', () => {
    expect(() => gdn.chunkSolve(Tensor.empty('float32', [2, 4, 5]), Tensor.empty('float32', [2, 4, 3]))).toThrow(ShapeError);
    expect(() => gdn.chunkSolve(Tensor.empty('float32', [4, 4]), Tensor.empty('float32', [5, 3]))).toThrow(/gdn.chunkSolve/);
    expect(() => gdn.chunkSolve(Tensor.empty('complex64', [4, 4]), Tensor.empty('complex64', [4, 3]))).toThrow(DTypeError);
    expect(() => gdn.chunkSolve(Tensor.empty('float32', [4, 4]).to('gpu'), Tensor.empty('float32', [4, 3]))).toThrow(DeviceError);
  });
});

describe('gdn.chunkedForward', () => {
  gpuIt('float64 on the CPU equals the naive recurrence (bhtd, length not a multiple of C, initial state)', () => {
    const rng = new Rng(1);
    const [Bn, H, L, dk, dv] = [2, 2, 45, 8, 6];
    const x = gdnInputs(Bn, H, L, dk, dv, rng);
    const S0 = randn(Bn * H * dk * dv, rng, 0.3);
    const ref = naive(x.q, x.k, x.v, x.beta, x.g, Bn * H, L, dk, dv, S0);
    for (const C of [16, 32] as const) {
      const T = (d: Float64Array, s: number[]) => Tensor.fromStorage('float64', s, d);
      const r = gdn.chunkedForward({
        q: T(x.q, [Bn, H, L, dk]), k: T(x.k, [Bn, H, L, dk]), v: T(x.v, [Bn, H, L, dv]),
        beta: T(x.beta, [Bn, H, L]), g: T(x.g, [Bn, H, L]), chunkSize: C, initialState: T(S0, [Bn, H, dk, dv]),
        layout: 'bhtd', scale: 1,
      });
      expect(r.o.shape).toEqual([Bn, H, L, dv]);
      expect(relErr(r.o.dataSync(), ref.o)).toBeLessThan(1e-12);
      expect(relErr(r.finalState.dataSync(), ref.S)).toBeLessThan(1e-12);
    }
  });

  gpuIt('float32 on the GPU (C = 64, bhtd) matches the recurrence to float32 accuracy', async () => {
    const rng = new Rng(3);
    const [Bn, H, L, dk, dv] = [1, 3, 130, 16, 16];
    const x = gdnInputs(Bn, H, L, dk, dv, rng);
    const ref = naive(x.q, x.k, x.v, x.beta, x.g, Bn * H, L, dk, dv);
    const T = (d: Float64Array, s: number[]) => Tensor.fromStorage('float32', s, Float32Array.from(d)).to('gpu');
    const input = {
      q: T(x.q, [Bn, H, L, dk]), k: T(x.k, [Bn, H, L, dk]), v: T(x.v, [Bn, H, L, dv]),
      beta: T(x.beta, [Bn, H, L]), g: T(x.g, [Bn, H, L]), layout: 'bhtd' as const, scale: 1,
    };
    const r = gdn.chunkedForward({ ...input, chunkSize: 64 });
    expect(r.o.dtype).toBe('float32');
    expect(r.o.device).toBe('gpu');
    expect(relErr(await r.o.data() as Float32Array, ref.o)).toBeLessThan(1e-5);
    expect(relErr(await r.finalState.data() as Float32Array, ref.S)).toBeLessThan(1e-5);
    expect(() => gdn.chunkedForward({ ...input, chunkSize: 48 as 64 })).toThrow(ArgumentError);
  });
});
