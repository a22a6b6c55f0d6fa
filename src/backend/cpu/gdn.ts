// CPU entries of the Gated DeltaNet stages around the chunk solve (docs/gdn.md):
// gdnChunkSystems builds every chunk's system, gdnStatePass carries the state across
// chunks from the solutions. Inputs are validated CPU tensors of one real dtype.
import { REAL_DTYPES } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import type { GdnChunkSystems } from '../ops.js';

function host(t: Tensor): Float32Array | Float64Array {
  return t.dataSync() as Float32Array | Float64Array;
}

function chunkSystems(k: Tensor, v: Tensor, beta: Tensor, g: Tensor, C: number): GdnChunkSystems {
  const [Bn, H, L, dk] = k.shape, dv = v.shape[3];
  const dtype = k.dtype;
  const K = host(k), V = host(v), Be = host(beta), G = host(g);
  const Nc = Math.ceil(L / C);
  const BH = Bn * H;
  const R = dv + dk;
  const Ctor = dtype === 'float32' ? Float32Array : Float64Array;
  // Per chunk: A (C×C, strict lower), RHS [β·v | β·Γ·k] (C×(dv+dk)), and the cumulative
  // log decay γ. Padded steps (past L) have k = v = β = g = 0: they leave the state alone.
  const Ad = new Ctor(BH * Nc * C * C);
  const Rd = new Ctor(BH * Nc * C * R);
  const gam = new Float64Array(BH * Nc * C);
  for (let bh = 0; bh < BH; bh++) {
    for (let c = 0; c < Nc; c++) {
      const blk = bh * Nc + c;
      let acc = 0;
      for (let i = 0; i < C; i++) {
        const t = c * C + i;
        if (t < L) acc += G[bh * L + t];
        gam[blk * C + i] = acc;
      }
      for (let i = 0; i < C; i++) {
        const t = c * C + i;
        if (t >= L) continue;
        const bi = Be[bh * L + t];
        const gi = gam[blk * C + i];
        const ki = (bh * L + t) * dk;
        for (let j = 0; j < i; j++) {
          const kj = (bh * L + c * C + j) * dk;
          let dot = 0;
          for (let d = 0; d < dk; d++) dot += K[ki + d] * K[kj + d];
          Ad[(blk * C + i) * C + j] = bi * dot * Math.exp(gi - gam[blk * C + j]);
        }
        const row = (blk * C + i) * R;
        for (let d = 0; d < dv; d++) Rd[row + d] = bi * V[(bh * L + t) * dv + d];
        const bg = bi * Math.exp(gi);
        for (let d = 0; d < dk; d++) Rd[row + dv + d] = bg * K[ki + d];
      }
    }
  }
  return {
    A: Tensor.fromStorage(dtype, [Bn, H, Nc, C, C], Ad as never) as Tensor,
    rhs: Tensor.fromStorage(dtype, [Bn, H, Nc, C, R], Rd as never) as Tensor,
    gamma: gam,
  };
}

function statePass(
  Xt: Tensor, q: Tensor, k: Tensor, gam: Float64Array, C: number, initialState: Tensor | null,
): { o: Tensor; finalState: Tensor } {
  const [Bn, H, L, dk] = q.shape, R = Xt.cols, dv = R - dk;
  const dtype = q.dtype;
  const Nc = Math.ceil(L / C), BH = Bn * H;
  const Ctor = dtype === 'float32' ? Float32Array : Float64Array;
  const X = host(Xt), Q = host(q), K = host(k);
  const S0 = initialState === null ? undefined : host(initialState);
  // Sequential pass over chunks: U = Ũ − W·S, O = diag(Γ)·Q·S + ((Q·Kᵀ) ⊙ M)·U,
  // S ← Γ_C·S + (K ⊙ Γ_C/Γ)ᵀ·U, with M_ij = Γ_i/Γ_j for j ≤ i.
  const O = new Ctor(BH * L * dv);
  const Sout = new Ctor(BH * dk * dv);
  const S = new Float64Array(dk * dv);
  const U = new Float64Array(C * dv);
  for (let bh = 0; bh < BH; bh++) {
    if (S0) for (let i = 0; i < dk * dv; i++) S[i] = S0[bh * dk * dv + i];
    else S.fill(0);
    for (let c = 0; c < Nc; c++) {
      const blk = bh * Nc + c;
      const steps = Math.min(C, L - c * C);
      for (let i = 0; i < C; i++) {
        const xr = (blk * C + i) * R;
        for (let e = 0; e < dv; e++) {
          let s = X[xr + e];
          for (let d = 0; d < dk; d++) s -= X[xr + dv + d] * S[d * dv + e];
          U[i * dv + e] = s;
        }
      }
      for (let i = 0; i < steps; i++) {
        const t = c * C + i;
        const qi = (bh * L + t) * dk;
        const Gi = Math.exp(gam[blk * C + i]);
        const orow = (bh * L + t) * dv;
        for (let e = 0; e < dv; e++) {
          let s = 0;
          for (let d = 0; d < dk; d++) s += Q[qi + d] * S[d * dv + e];
          O[orow + e] = Gi * s;
        }
        for (let j = 0; j <= i; j++) {
          const kj = (bh * L + c * C + j) * dk;
          let qk = 0;
          for (let d = 0; d < dk; d++) qk += Q[qi + d] * K[kj + d];
          const w = qk * Math.exp(gam[blk * C + i] - gam[blk * C + j]);
          if (w === 0) continue;
          for (let e = 0; e < dv; e++) O[orow + e] += w * U[j * dv + e];
        }
      }
      const gC = gam[blk * C + C - 1];
      const GC = Math.exp(gC);
      for (let i = 0; i < dk * dv; i++) S[i] *= GC;
      for (let j = 0; j < steps; j++) {
        const kj = (bh * L + c * C + j) * dk;
        const f = Math.exp(gC - gam[blk * C + j]);
        for (let d = 0; d < dk; d++) {
          const kd = f * K[kj + d];
          if (kd === 0) continue;
          for (let e = 0; e < dv; e++) S[d * dv + e] += kd * U[j * dv + e];
        }
      }
    }
    for (let i = 0; i < dk * dv; i++) Sout[bh * dk * dv + i] = S[i];
  }
  return {
    o: Tensor.fromStorage(dtype, [Bn, H, L, dv], O as never) as Tensor,
    finalState: Tensor.fromStorage(dtype, [Bn, H, dk, dv], Sout as never) as Tensor,
  };
}

export function registerGdnCpu(): void {
  register('gdnChunkSystems', REAL_DTYPES, 'cpu', chunkSystems);
  register('gdnStatePass', REAL_DTYPES, 'cpu', statePass);
}
