// The stages of the chunked (WY) Gated DeltaNet forward in float64 JavaScript, plain loops,
// in the GPU stages' layouts (src/backend/gpu/gdn_chunks.ts): gcum, W, U (what the WY stage
// leaves), h and Vn (what the state pass leaves). For testing one GPU stage alone on small shapes.
import { at, seqCount, type GdnData, type GdnShape } from './gdn.js';
import { gdnWyReference } from './gdn-wy.js';

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

/** The WY stage and the state pass of the chunked form with chunk C, in float64. */
export function gdnStages(s: GdnShape, x: GdnData, C: number, qkL2norm = false): GdnStagesOut {
  const { H, HV, dk, dv } = s;
  const N = seqCount(s);
  // the WY stage (γ, W, U, the normalised copies) from the WY reference; the state pass here
  const wy = gdnWyReference(s, x, C, qkL2norm);
  const { chunks, gcum, W, U } = wy;
  const firstChunk = [0];
  for (let n = 0; n < N; n++) firstChunk.push(firstChunk[n] + chunks.filter((c) => c[0] === n).length);
  const count = chunks.length;
  const kk = wy.kn ?? x.k;
  const h = new Float64Array(count * HV * dk * dv);
  const vn = new Float64Array(count * HV * C * dv), Sall = new Float64Array(N * HV * dk * dv);
  for (let n = 0; n < N; n++) {
    for (let hv = 0; hv < HV; hv++) {
      const hk = Math.floor(hv / (HV / H));
      const S = x.S0 ? x.S0.slice((n * HV + hv) * dk * dv, (n * HV + hv + 1) * dk * dv) : new Float64Array(dk * dv);
      for (let c = firstChunk[n]; c < firstChunk[n + 1]; c++) {
        const [, row, t0, len] = chunks[c];
        const ch = c * HV + hv;
        const K = (j: number, d: number): number => kk[at(s, H, dk, row, t0 + j, hk, d)];
        const g = gcum.subarray(ch * C, (ch + 1) * C);
        const Wc = W.subarray(ch * C * dk, (ch + 1) * C * dk), Uc = U.subarray(ch * C * dv, (ch + 1) * C * dv);
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
    out.qn = wy.qn;
    out.kn = wy.kn;
  }
  return out;
}
