// The WY stage of the chunked Gated DeltaNet forward in float64 JavaScript (src/backend/gpu/gdn_wy.ts
// computes the same in float32): per chunk and value head γ, A, T = (I + A)⁻¹, W, U in the
// stage's layouts (count, HV, C, …), the qkL2norm copies, and float16 bit helpers.
import { at, seqCount, type GdnData, type GdnShape } from './gdn.js';

export interface GdnWyRef {
  /** (n, batch row, t0, len) per chunk, in sequence order. */
  chunks: Array<[number, number, number, number]>;
  gcum: Float64Array;
  T: Float64Array;
  W: Float64Array;
  U: Float64Array;
  qn?: Float64Array;
  kn?: Float64Array;
}

function l2rows(a: Float64Array, d: number): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i += d) {
    let ss = 0;
    for (let j = 0; j < d; j++) ss += a[i + j] ** 2;
    const r = 1 / Math.sqrt(ss + 1e-6);
    for (let j = 0; j < d; j++) out[i + j] = a[i + j] * r;
  }
  return out;
}

export function gdnWyReference(s: GdnShape, x: GdnData, C: number, qkL2norm = false): GdnWyRef {
  const { H, HV, dk, dv } = s;
  const N = seqCount(s);
  const chunks: Array<[number, number, number, number]> = [];
  for (let n = 0; n < N; n++) {
    const t0 = s.cuSeqlens ? s.cuSeqlens[n] : 0;
    const L = s.cuSeqlens ? s.cuSeqlens[n + 1] - t0 : s.T;
    for (let c = 0; c < L; c += C) chunks.push([n, s.cuSeqlens ? 0 : n, t0 + c, Math.min(C, L - c)]);
  }
  const kk = qkL2norm ? l2rows(x.k, dk) : x.k;
  const count = chunks.length;
  const gcum = new Float64Array(count * HV * C), T = new Float64Array(count * HV * C * C);
  const W = new Float64Array(count * HV * C * dk), U = new Float64Array(count * HV * C * dv);
  chunks.forEach(([, b, t0, len], ci) => {
    for (let hv = 0; hv < HV; hv++) {
      const h = Math.floor(hv / (HV / H)), pr = ci * HV + hv;
      const K = new Float64Array(C * dk), V = new Float64Array(C * dv), beta = new Float64Array(C), gam = new Float64Array(C);
      let acc = 0;
      for (let i = 0; i < C; i++) {
        if (i < len) {
          const t = t0 + i;
          for (let d = 0; d < dk; d++) K[i * dk + d] = kk[at(s, H, dk, b, t, h, d)];
          for (let d = 0; d < dv; d++) V[i * dv + d] = x.v[at(s, HV, dv, b, t, hv, d)];
          beta[i] = x.beta[at(s, HV, 1, b, t, hv, 0)];
          acc += x.g[at(s, HV, 1, b, t, hv, 0)];
        }
        gam[i] = acc;
        gcum[pr * C + i] = acc;
      }
      const A = new Float64Array(C * C);
      for (let i = 0; i < C; i++) {
        for (let j = 0; j < i; j++) {
          let dot = 0;
          for (let d = 0; d < dk; d++) dot += K[i * dk + d] * K[j * dk + d];
          A[i * C + j] = beta[i] * dot * Math.exp(gam[i] - gam[j]);
        }
      }
      const Tm = T.subarray(pr * C * C, (pr + 1) * C * C);
      for (let j = 0; j < C; j++) {
        Tm[j * C + j] = 1;
        for (let i = j + 1; i < C; i++) {
          let r = 0;
          for (let k = j; k < i; k++) r -= A[i * C + k] * Tm[k * C + j];
          Tm[i * C + j] = r;
        }
      }
      for (let i = 0; i < C; i++) {
        for (let k = 0; k <= i; k++) {
          const t = Tm[i * C + k];
          if (t === 0) continue;
          const sw = t * beta[k] * Math.exp(gam[k]), su = t * beta[k];
          for (let d = 0; d < dk; d++) W[(pr * C + i) * dk + d] += sw * K[k * dk + d];
          for (let d = 0; d < dv; d++) U[(pr * C + i) * dv + d] += su * V[k * dv + d];
        }
      }
    }
  });
  const r: GdnWyRef = { chunks, gcum, T, W, U };
  if (qkL2norm) {
    r.qn = l2rows(x.q, dk);
    r.kn = kk;
  }
  return r;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float → IEEE binary16 bits, round to nearest even (overflow → ±inf, NaN kept). */
export function halfBits(v: number): number {
  f32[0] = v;
  const u = u32[0];
  const sign = (u >>> 16) & 0x8000, a = u & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00;
  if (a >= 0x477ff000) return sign | 0x7c00;
  if (a >= 0x38800000) return sign | (((a + 0xfff + ((a >>> 13) & 1)) >>> 13) - 0x1c000);
  if (a <= 0x33000000) return sign;
  const sh = 126 - (a >>> 23), m = (a & 0x7fffff) | 0x800000;
  const q = m >>> sh, rem = m & ((1 << sh) - 1), half = 1 << (sh - 1);
  return sign | (rem > half || (rem === half && (q & 1) === 1) ? q + 1 : q);
}

/** binary16 bits → number (exact). */
export function halfValue(h: number): number {
  const e = (h >> 10) & 0x1f, m = h & 0x3ff, sgn = h & 0x8000 ? -1 : 1;
  if (e === 0x1f) return m ? NaN : sgn * Infinity;
  return sgn * (e ? (1 + m / 1024) * 2 ** (e - 15) : m * 2 ** -24);
}

/** Rounds every value to float16 in place; returns their binary16 bits (a float16 tensor's storage). */
export function toHalves(a: Float64Array): Uint16Array {
  const h = new Uint16Array(a.length);
  for (let i = 0; i < a.length; i++) {
    h[i] = halfBits(a[i]);
    a[i] = halfValue(h[i]);
  }
  return h;
}
