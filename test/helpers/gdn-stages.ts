// The stages of the chunked (WY) Gated DeltaNet forward in float64 JavaScript, plain loops,
// in the GPU stages' layouts (src/backend/gpu/gdn_chunks.ts): gcum, W, U (what the WY stage
// leaves), h and Vn (what the state pass leaves). For testing one GPU stage alone on small shapes.
import { at, seqCount, type GdnData, type GdnShape } from './gdn.js';

export interface GdnStagesOut {
  /** Chunks in sequence order: (n, batch row, t0, length). */
  chunks: Array<[number, number, number, number]>;
  firstChunk: number[];
  /** (count, HV, C) */
  gcum: Float64Array;
  /** (count, HV, C, dk) */
  W: Float64Array;
  /** (count, HV, C, dv) */
  U: Float64Array;
  /** (count, HV, dk, dv) */
  h: Float64Array;
  /** (count, HV, C, dv) */
  vn: Float64Array;
  /** (N, HV, dk, dv) */
  S: Float64Array;
  /** L2-normalised q and k in the inputs' layout when qkL2norm. */
  qn?: Float64Array;
  kn?: Float64Array;
}

function l2rows(a: Float64Array, d: number): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i += d) {
    let ss = 0;
    for (let e = 0; e < d; e++) ss += a[i + e] ** 2;
    const r = 1 / Math.sqrt(ss + 1e-6);
    for (let e = 0; e < d; e++) out[i + e] = a[i + e] * r;
  }
  return out;
}

/** The WY stage and the state pass of the chunked form with chunk C, in float64. */
export function gdnStages(s: GdnShape, x: GdnData, C: number, qkL2norm = false): GdnStagesOut {
  const { H, HV, dk, dv } = s;
  const N = seqCount(s);
  const chunks: Array<[number, number, number, number]> = [];
  const firstChunk = [0];
  for (let n = 0; n < N; n++) {
    const t0 = s.cuSeqlens ? s.cuSeqlens[n] : 0, len = s.cuSeqlens ? s.cuSeqlens[n + 1] - t0 : s.T;
    for (let t = 0; t < len; t += C) chunks.push([n, s.cuSeqlens ? 0 : n, t0 + t, Math.min(C, len - t)]);
    firstChunk.push(chunks.length);
  }
  const count = chunks.length;
  const kk = qkL2norm ? l2rows(x.k, dk) : x.k;
  const gcum = new Float64Array(count * HV * C), W = new Float64Array(count * HV * C * dk);
  const U = new Float64Array(count * HV * C * dv), h = new Float64Array(count * HV * dk * dv);
  const vn = new Float64Array(count * HV * C * dv), Sall = new Float64Array(N * HV * dk * dv);
  for (let n = 0; n < N; n++) {
    for (let hv = 0; hv < HV; hv++) {
      const hk = Math.floor(hv / (HV / H));
      const S = x.S0 ? x.S0.slice((n * HV + hv) * dk * dv, (n * HV + hv + 1) * dk * dv) : new Float64Array(dk * dv);
      for (let c = firstChunk[n]; c < firstChunk[n + 1]; c++) {
        const [, row, t0, len] = chunks[c];
        const ch = c * HV + hv;
        const K = (j: number, d: number): number => kk[at(s, H, dk, row, t0 + j, hk, d)];
        const V = (j: number, e: number): number => x.v[at(s, HV, dv, row, t0 + j, hv, e)];
        const gi = (j: number): number => at(s, HV, 1, row, t0 + j, hv, 0);
        const g = new Float64Array(C);
        for (let j = 0, acc = 0; j < C; j++) {
          if (j < len) acc += x.g[gi(j)];
          g[j] = acc;
        }
        gcum.set(g, ch * C);
        // (I + A)·W = diag(β·Γ)·K and (I + A)·U = diag(β)·V by forward substitution
        const Wc = new Float64Array(C * dk), Uc = new Float64Array(C * dv);
        for (let i = 0; i < len; i++) {
          const b = x.beta[gi(i)];
          for (let d = 0; d < dk; d++) Wc[i * dk + d] = b * Math.exp(g[i]) * K(i, d);
          for (let e = 0; e < dv; e++) Uc[i * dv + e] = b * V(i, e);
          for (let j = 0; j < i; j++) {
            let kij = 0;
            for (let d = 0; d < dk; d++) kij += K(i, d) * K(j, d);
            const a = b * kij * Math.exp(g[i] - g[j]);
            for (let d = 0; d < dk; d++) Wc[i * dk + d] -= a * Wc[j * dk + d];
            for (let e = 0; e < dv; e++) Uc[i * dv + e] -= a * Uc[j * dv + e];
          }
        }
        W.set(Wc, ch * C * dk);
        U.set(Uc, ch * C * dv);
        h.set(S, ch * dk * dv);
        const Vn = new Float64Array(C * dv);
        for (let i = 0; i < C; i++) {
          for (let e = 0; e < dv; e++) {
            let acc = Uc[i * dv + e];
            for (let d = 0; d < dk; d++) acc -= Wc[i * dk + d] * S[d * dv + e];
            Vn[i * dv + e] = acc;
          }
        }
        vn.set(Vn, ch * C * dv);
        const gl = g[C - 1];
        for (let d = 0; d < dk; d++) {
          for (let e = 0; e < dv; e++) {
            let acc = Math.exp(gl) * S[d * dv + e];
            for (let j = 0; j < len; j++) acc += K(j, d) * Math.exp(gl - g[j]) * Vn[j * dv + e];
            S[d * dv + e] = acc;
          }
        }
      }
      Sall.set(S, (n * HV + hv) * dk * dv);
    }
  }
  const out: GdnStagesOut = { chunks, firstChunk, gcum, W, U, h, vn, S: Sall };
  if (qkL2norm) {
    out.qn = l2rows(x.q, dk);
    out.kn = kk;
  }
  return out;
}
