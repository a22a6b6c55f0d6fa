// Reverse mode of the float64 token-by-token Gated DeltaNet reference (test/helpers/gdn.ts),
// and the forward quantities of the chunked WY form (gcum, W, U, T, h, Vn) in float64, for
// backward tests that run before (or apart from) the GPU forward stages.
import { at, seqCount, type GdnData, type GdnRefOptions, type GdnShape } from './gdn.js';

export interface GdnGrads {
  dq: Float64Array;
  dk: Float64Array;
  dv: Float64Array;
  dbeta: Float64Array;
  dg: Float64Array;
  /** (N, HV, dk, dv), present when x.S0 is. */
  dS0?: Float64Array;
}

/**
 * Gradients of L = Σ dO ⊙ o + Σ dF ⊙ S_final through gdnReference (same options), by
 * reverse mode over the recurrence: S_t = a·S' + β·k·(v − a·Sᵀ'k)ᵀ with a = exp(g_t), o_t =
 * scale·S_tᵀq_t; the states are kept from a forward sweep. dF undefined means zero.
 */
export function gdnReferenceGrad(s: GdnShape, x: GdnData, dO: Float64Array, dF: Float64Array | undefined, opts: GdnRefOptions = {}): GdnGrads {
  const { H, HV, dk, dv } = s;
  const scale = opts.scale ?? 1 / Math.sqrt(dk);
  const N = seqCount(s);
  const G: GdnGrads = {
    dq: new Float64Array(x.q.length), dk: new Float64Array(x.k.length), dv: new Float64Array(x.v.length),
    dbeta: new Float64Array(x.beta.length), dg: new Float64Array(x.g.length),
  };
  if (x.S0) G.dS0 = new Float64Array(x.S0.length);
  const SS = dk * dv;
  for (let n = 0; n < N; n++) {
    const b = s.cuSeqlens ? 0 : n;
    const t0 = s.cuSeqlens ? s.cuSeqlens[n] : 0, t1 = s.cuSeqlens ? s.cuSeqlens[n + 1] : s.T;
    const len = t1 - t0;
    for (let hv = 0; hv < HV; hv++) {
      const h = Math.floor(hv / (HV / H));
      // normalised q, k per step, with the raw norms' reciprocals
      const qs = new Float64Array(len * dk), ks = new Float64Array(len * dk), rq = new Float64Array(len), rk = new Float64Array(len);
      for (let t = 0; t < len; t++) {
        let sq = 0, sk = 0;
        for (let d = 0; d < dk; d++) {
          const qv = x.q[at(s, H, dk, b, t0 + t, h, d)], kv = x.k[at(s, H, dk, b, t0 + t, h, d)];
          qs[t * dk + d] = qv; ks[t * dk + d] = kv; sq += qv * qv; sk += kv * kv;
        }
        rq[t] = opts.qkL2norm ? 1 / Math.sqrt(sq + 1e-6) : 1;
        rk[t] = opts.qkL2norm ? 1 / Math.sqrt(sk + 1e-6) : 1;
        for (let d = 0; d < dk; d++) { qs[t * dk + d] *= rq[t]; ks[t * dk + d] *= rk[t]; }
      }
      // forward sweep: states[t] = S before step t (states[len] = final)
      const states = new Float64Array((len + 1) * SS);
      if (x.S0) states.set(x.S0.subarray((n * HV + hv) * SS, (n * HV + hv + 1) * SS));
      for (let t = 0; t < len; t++) {
        const S = states.subarray(t * SS, (t + 1) * SS), Sn = states.subarray((t + 1) * SS, (t + 2) * SS);
        const gi = at(s, HV, 1, b, t0 + t, hv, 0);
        const a = Math.exp(x.g[gi]), be = x.beta[gi];
        for (let e = 0; e < dv; e++) {
          let kS = 0;
          for (let d = 0; d < dk; d++) kS += ks[t * dk + d] * S[d * dv + e];
          const r = x.v[at(s, HV, dv, b, t0 + t, hv, e)] - a * kS;
          for (let d = 0; d < dk; d++) Sn[d * dv + e] = a * S[d * dv + e] + be * ks[t * dk + d] * r;
        }
      }
      // reverse sweep
      const dS = new Float64Array(SS);
      if (dF) dS.set(dF.subarray((n * HV + hv) * SS, (n * HV + hv + 1) * SS));
      const dqn = new Float64Array(dk), dkn = new Float64Array(dk), kS = new Float64Array(dv), r = new Float64Array(dv), dr = new Float64Array(dv);
      for (let t = len - 1; t >= 0; t--) {
        const S = states.subarray(t * SS, (t + 1) * SS), Sn = states.subarray((t + 1) * SS, (t + 2) * SS);
        const gi = at(s, HV, 1, b, t0 + t, hv, 0);
        const a = Math.exp(x.g[gi]), be = x.beta[gi];
        const q = qs.subarray(t * dk, (t + 1) * dk), k = ks.subarray(t * dk, (t + 1) * dk);
        // o_t = scale·Sₜᵀq
        dqn.fill(0); dkn.fill(0);
        for (let d = 0; d < dk; d++) {
          for (let e = 0; e < dv; e++) {
            const go = scale * dO[at(s, HV, dv, b, t0 + t, hv, e)];
            dqn[d] += Sn[d * dv + e] * go;
            dS[d * dv + e] += q[d] * go;
          }
        }
        // Sₜ = a·S + β·k·rᵀ, r = v − a·Sᵀk
        let da = 0, dbe = 0;
        for (let e = 0; e < dv; e++) {
          let ks_ = 0, dre = 0;
          for (let d = 0; d < dk; d++) { ks_ += k[d] * S[d * dv + e]; dre += k[d] * dS[d * dv + e]; }
          kS[e] = ks_;
          r[e] = x.v[at(s, HV, dv, b, t0 + t, hv, e)] - a * ks_;
          dr[e] = be * dre;
          dbe += dre * r[e];
          G.dv[at(s, HV, dv, b, t0 + t, hv, e)] = dr[e];
          da -= dr[e] * ks_;
        }
        for (let d = 0; d < dk; d++) {
          let dkd = 0;
          for (let e = 0; e < dv; e++) {
            dkd += be * dS[d * dv + e] * r[e] - a * dr[e] * S[d * dv + e];
            da += dS[d * dv + e] * S[d * dv + e];
          }
          dkn[d] += dkd;
        }
        for (let d = 0; d < dk; d++) for (let e = 0; e < dv; e++) dS[d * dv + e] = a * dS[d * dv + e] - a * k[d] * dr[e];
        G.dbeta[gi] = dbe;
        G.dg[gi] = a * da;
        // through the normalisation: dx = r·(dn − n·(n·dn))
        let pq = 0, pk = 0;
        for (let d = 0; d < dk; d++) { pq += q[d] * dqn[d]; pk += k[d] * dkn[d]; }
        for (let d = 0; d < dk; d++) {
          const i = at(s, H, dk, b, t0 + t, h, d);
          G.dq[i] += opts.qkL2norm ? rq[t] * (dqn[d] - q[d] * pq) : dqn[d];
          G.dk[i] += opts.qkL2norm ? rk[t] * (dkn[d] - k[d] * pk) : dkn[d];
        }
      }
      if (G.dS0) G.dS0.set(dS, (n * HV + hv) * SS);
    }
  }
  return G;
}

/** The chunked forward's stage outputs in float64 (layouts as GdnWy / GdnStates in src/backend/gpu/gdn_chunks.ts). */
export interface GdnChunkStages {
  count: number;
  gcum: Float64Array;
  W: Float64Array;
  U: Float64Array;
  T: Float64Array;
  /** Normalised q, k in q's layout (qkL2norm), else null. */
  qn: Float64Array | null;
  kn: Float64Array | null;
  h: Float64Array;
  vn: Float64Array;
  finalState: Float64Array;
}

/** gcum, W, U, T = (I + A)⁻¹, h_c and Vn of every chunk (chunk order as gdnChunkTable), float64. */
export function gdnChunkStages(s: GdnShape, x: GdnData, C: number, opts: GdnRefOptions = {}): GdnChunkStages {
  const { H, HV, dk, dv } = s;
  const N = seqCount(s);
  const lens: number[] = [], starts: number[] = [];
  for (let n = 0; n < N; n++) {
    starts.push(s.cuSeqlens ? s.cuSeqlens[n] : 0);
    lens.push(s.cuSeqlens ? s.cuSeqlens[n + 1] - s.cuSeqlens[n] : s.T);
  }
  let count = 0;
  for (const l of lens) count += Math.ceil(l / C);
  let qn: Float64Array | null = null, kn: Float64Array | null = null;
  if (opts.qkL2norm) {
    qn = x.q.slice(); kn = x.k.slice();
    for (let i = 0; i < qn.length; i += dk) {
      let sq = 0, sk = 0;
      for (let d = 0; d < dk; d++) { sq += qn[i + d] ** 2; sk += kn[i + d] ** 2; }
      for (let d = 0; d < dk; d++) { qn[i + d] /= Math.sqrt(sq + 1e-6); kn[i + d] /= Math.sqrt(sk + 1e-6); }
    }
  }
  const K = kn ?? x.k;
  const st: GdnChunkStages = {
    count, qn, kn,
    gcum: new Float64Array(count * HV * C), W: new Float64Array(count * HV * C * dk), U: new Float64Array(count * HV * C * dv),
    T: new Float64Array(count * HV * C * C), h: new Float64Array(count * HV * dk * dv), vn: new Float64Array(count * HV * C * dv),
    finalState: new Float64Array(N * HV * dk * dv),
  };
  let c0 = 0;
  for (let n = 0; n < N; n++) {
    const b = s.cuSeqlens ? 0 : n;
    const nc = Math.ceil(lens[n] / C);
    for (let hv = 0; hv < HV; hv++) {
      const h = Math.floor(hv / (HV / H));
      const S = x.S0 ? x.S0.slice((n * HV + hv) * dk * dv, (n * HV + hv + 1) * dk * dv) : new Float64Array(dk * dv);
      for (let cc = 0; cc < nc; cc++) {
        const c = c0 + cc, base = c * HV + hv;
        const t0 = starts[n] + cc * C, L = Math.min(C, lens[n] - cc * C);
        const kr = (i: number, d: number): number => (i < L ? K[at(s, H, dk, b, t0 + i, h, d)] : 0);
        const vr = (i: number, e: number): number => (i < L ? x.v[at(s, HV, dv, b, t0 + i, hv, e)] : 0);
        const be = (i: number): number => (i < L ? x.beta[at(s, HV, 1, b, t0 + i, hv, 0)] : 0);
        const gam = new Float64Array(C);
        for (let i = 0, acc = 0; i < C; i++) {
          if (i < L) acc += x.g[at(s, HV, 1, b, t0 + i, hv, 0)];
          gam[i] = acc;
        }
        st.gcum.set(gam, base * C);
        // T = (I + A)⁻¹ by forward substitution on the identity
        const A = new Float64Array(C * C);
        for (let i = 0; i < C; i++) {
          for (let j = 0; j < i; j++) {
            let kk = 0;
            for (let d = 0; d < dk; d++) kk += kr(i, d) * kr(j, d);
            A[i * C + j] = be(i) * kk * Math.exp(gam[i] - gam[j]);
          }
        }
        const T = new Float64Array(C * C);
        for (let col = 0; col < C; col++) {
          for (let i = 0; i < C; i++) {
            let v = i === col ? 1 : 0;
            for (let j = 0; j < i; j++) v -= A[i * C + j] * T[j * C + col];
            T[i * C + col] = v;
          }
        }
        st.T.set(T, base * C * C);
        const W = new Float64Array(C * dk), U = new Float64Array(C * dv);
        for (let i = 0; i < C; i++) {
          for (let j = 0; j <= i; j++) {
            const t = T[i * C + j];
            for (let d = 0; d < dk; d++) W[i * dk + d] += t * be(j) * Math.exp(gam[j]) * kr(j, d);
            for (let e = 0; e < dv; e++) U[i * dv + e] += t * be(j) * vr(j, e);
          }
        }
        st.W.set(W, base * C * dk); st.U.set(U, base * C * dv);
        st.h.set(S, base * dk * dv);
        const Vn = new Float64Array(C * dv);
        for (let i = 0; i < C; i++) {
          for (let e = 0; e < dv; e++) {
            let acc = U[i * dv + e];
            for (let d = 0; d < dk; d++) acc -= W[i * dk + d] * S[d * dv + e];
            Vn[i * dv + e] = acc;
          }
        }
        st.vn.set(Vn, base * C * dv);
        const gL = gam[C - 1];
        for (let d = 0; d < dk; d++) {
          for (let e = 0; e < dv; e++) {
            let acc = Math.exp(gL) * S[d * dv + e];
            for (let i = 0; i < L; i++) acc += kr(i, d) * Math.exp(gL - gam[i]) * Vn[i * dv + e];
            S[d * dv + e] = acc;
          }
        }
      }
      st.finalState.set(S, (n * HV + hv) * dk * dv);
    }
    c0 += nc;
  }
  return st;
}
