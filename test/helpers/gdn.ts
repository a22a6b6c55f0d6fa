// The Gated DeltaNet reference for tests: the token-by-token recurrence in float64 with every
// option of gdn.chunkedForward (layouts, scale, qkL2norm, grouped value heads, initial state,
// packed sequences), and random inputs shaped as the public API takes them.
import { Rng, Tensor } from '../../src/index.js';

export interface GdnShape {
  /** Batch rows (1 with cuSeqlens). */
  B: number;
  /** Time steps per row (the packed total with cuSeqlens). */
  T: number;
  H: number;
  HV: number;
  dk: number;
  dv: number;
  layout: 'bthd' | 'bhtd';
  /** Packed sequences: N + 1 offsets ending at T (then B must be 1). */
  cuSeqlens?: number[];
}

export interface GdnData {
  q: Float64Array;
  k: Float64Array;
  v: Float64Array;
  beta: Float64Array;
  g: Float64Array;
  /** (N, HV, dk, dv) or undefined. */
  S0?: Float64Array;
}

export interface GdnRefOptions {
  /** Default dk^−½. */
  scale?: number;
  qkL2norm?: boolean;
}

/** Number of sequences. */
export function seqCount(s: GdnShape): number {
  return s.cuSeqlens ? s.cuSeqlens.length - 1 : s.B;
}

/** Flat index of (b, t, head, d) in a (B, T, heads, dim) / (B, heads, T, dim) array. */
export function at(s: GdnShape, heads: number, dim: number, b: number, t: number, h: number, d: number): number {
  return s.layout === 'bthd' ? ((b * s.T + t) * heads + h) * dim + d : ((b * heads + h) * s.T + t) * dim + d;
}

/** Shapes of q/k, v/o and beta/g for the public API. */
export function gdnShapes(s: GdnShape): { qk: number[]; v: number[]; gate: number[]; state: number[] } {
  const bthd = s.layout === 'bthd';
  return {
    qk: bthd ? [s.B, s.T, s.H, s.dk] : [s.B, s.H, s.T, s.dk],
    v: bthd ? [s.B, s.T, s.HV, s.dv] : [s.B, s.HV, s.T, s.dv],
    gate: bthd ? [s.B, s.T, s.HV] : [s.B, s.HV, s.T],
    state: [seqCount(s), s.HV, s.dk, s.dv],
  };
}

/**
 * S_t = exp(g_t)·(I − β_t·k_t·k_tᵀ)·S_{t−1} + β_t·k_t·v_tᵀ, o_t = S_tᵀ·(scale·q_t), token by
 * token in float64, per sequence and value head (q/k head ⌊hv/(HV/H)⌋).
 */
export function gdnReference(s: GdnShape, x: GdnData, opts: GdnRefOptions = {}): { o: Float64Array; S: Float64Array } {
  const { H, HV, dk, dv } = s;
  const scale = opts.scale ?? 1 / Math.sqrt(dk);
  const N = seqCount(s);
  const o = new Float64Array(x.v.length);
  const Sall = new Float64Array(N * HV * dk * dv);
  const qt = new Float64Array(dk), kt = new Float64Array(dk), kS = new Float64Array(dv);
  for (let n = 0; n < N; n++) {
    const b = s.cuSeqlens ? 0 : n;
    const t0 = s.cuSeqlens ? s.cuSeqlens[n] : 0, t1 = s.cuSeqlens ? s.cuSeqlens[n + 1] : s.T;
    for (let hv = 0; hv < HV; hv++) {
      const h = Math.floor(hv / (HV / H));
      const S = x.S0 ? x.S0.slice((n * HV + hv) * dk * dv, (n * HV + hv + 1) * dk * dv) : new Float64Array(dk * dv);
      for (let t = t0; t < t1; t++) {
        for (let d = 0; d < dk; d++) {
          qt[d] = x.q[at(s, H, dk, b, t, h, d)];
          kt[d] = x.k[at(s, H, dk, b, t, h, d)];
        }
        if (opts.qkL2norm) {
          let sq = 0, sk = 0;
          for (let d = 0; d < dk; d++) { sq += qt[d] * qt[d]; sk += kt[d] * kt[d]; }
          const rq = 1 / Math.sqrt(sq + 1e-6), rk = 1 / Math.sqrt(sk + 1e-6);
          for (let d = 0; d < dk; d++) { qt[d] *= rq; kt[d] *= rk; }
        }
        const gi = at(s, HV, 1, b, t, hv, 0);
        const a = Math.exp(x.g[gi]), be = x.beta[gi];
        kS.fill(0);
        for (let d = 0; d < dk; d++) for (let e = 0; e < dv; e++) kS[e] += kt[d] * S[d * dv + e];
        for (let d = 0; d < dk; d++) {
          for (let e = 0; e < dv; e++) {
            S[d * dv + e] = a * (S[d * dv + e] - be * kt[d] * kS[e]) + be * kt[d] * x.v[at(s, HV, dv, b, t, hv, e)];
          }
        }
        for (let e = 0; e < dv; e++) {
          let acc = 0;
          for (let d = 0; d < dk; d++) acc += S[d * dv + e] * qt[d];
          o[at(s, HV, dv, b, t, hv, e)] = scale * acc;
        }
      }
      Sall.set(S, (n * HV + hv) * dk * dv);
    }
  }
  return { o, S: Sall };
}

export interface GdnRandomOptions {
  /** L2-normalised keys (default true unless the kernels normalise). */
  unitKeys?: boolean;
  /** Log decays in [gMin, 0] (default −0.2). */
  gMin?: number;
  /** β in [betaMin, betaMax] (default 0.1 … 0.9). */
  betaMin?: number;
  betaMax?: number;
  initialState?: boolean;
}

/** Random inputs as Gated DeltaNet sees them: unit keys, β ∈ (0, 1), g ≤ 0, q ~ N(0, 1). */
export function gdnRandom(s: GdnShape, rng: Rng, o: GdnRandomOptions = {}): GdnData {
  const sh = gdnShapes(s);
  const size = (a: number[]): number => a.reduce((p, c) => p * c, 1);
  const randn = (n: number): Float64Array => Float64Array.from({ length: n }, () => rng.normal());
  const q = randn(size(sh.qk)), k = randn(size(sh.qk)), v = randn(size(sh.v));
  if (o.unitKeys ?? true) {
    for (let i = 0; i < k.length; i += s.dk) {
      // every (token, head) vector is contiguous in both layouts
      let ss = 0;
      for (let d = 0; d < s.dk; d++) ss += k[i + d] ** 2;
      for (let d = 0; d < s.dk; d++) k[i + d] /= Math.sqrt(ss);
    }
  }
  const bMin = o.betaMin ?? 0.1, bMax = o.betaMax ?? 0.9, gMin = o.gMin ?? -0.2;
  const beta = Float64Array.from({ length: size(sh.gate) }, () => bMin + (bMax - bMin) * rng.uniform());
  const g = Float64Array.from({ length: size(sh.gate) }, () => gMin * rng.uniform());
  const x: GdnData = { q, k, v, beta, g };
  if (o.initialState) x.S0 = randn(size(sh.state)).map((t) => 0.5 * t);
  return x;
}

/** The inputs as tensors of `dtype` (float32/float64; float16 through a cast) for gdn.chunkedForward. */
export function gdnTensors(s: GdnShape, x: GdnData, dtype: 'float32' | 'float64'): {
  q: Tensor; k: Tensor; v: Tensor; beta: Tensor; g: Tensor; initialState?: Tensor;
} {
  const sh = gdnShapes(s);
  const mk = (a: Float64Array, shape: number[]): Tensor =>
    Tensor.fromStorage(dtype, shape, (dtype === 'float32' ? Float32Array.from(a) : Float64Array.from(a)) as never) as Tensor;
  const r: ReturnType<typeof gdnTensors> = {
    q: mk(x.q, sh.qk), k: mk(x.k, sh.qk), v: mk(x.v, sh.v), beta: mk(x.beta, sh.gate), g: mk(x.g, sh.gate),
  };
  if (x.S0) r.initialState = mk(x.S0, sh.state);
  return r;
}

/** ‖x − ref‖ / ‖ref‖. */
export function relErr(x: ArrayLike<number>, ref: ArrayLike<number>): number {
  let num = 0, den = 0;
  for (let i = 0; i < ref.length; i++) {
    num += (x[i] - ref[i]) ** 2;
    den += ref[i] ** 2;
  }
  return Math.sqrt(num / den);
}
