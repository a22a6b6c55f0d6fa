// Validation and planning of Gated DeltaNet calls: one GdnPlan (src/backend/ops.ts) for the
// chunked forward, its backward and the recurrent step, whichever device runs them.
import { asTensor, type TensorLike } from '../core/create.js';
import { Tensor } from '../core/tensor.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, fmtShape } from '../core/errors.js';
import type { GdnInputs, GdnPlan } from '../backend/ops.js';

export type GdnDType = GdnPlan['dtype'];

/** Element strides (batch, time, head) of a (B, T, heads, dim) or (B, heads, T, dim) tensor. */
export interface GdnStrides {
  sB: number;
  sT: number;
  sH: number;
}

/** Strides of a q/k (heads = plan.heads, dim = dk), v/o (vHeads, dv) or beta/g (vHeads, 1) tensor. */
export function gdnStrides(plan: GdnPlan, heads: number, dim: number): GdnStrides {
  const T = plan.time;
  return plan.layout === 'bthd'
    ? { sB: T * heads * dim, sT: heads * dim, sH: dim }
    : { sB: heads * T * dim, sT: dim, sH: T * dim };
}

/** The dtype of final/initial states: float32 for float16 inputs (accumulation precision), else the inputs'. */
export function stateDtype(d: GdnDType): 'float32' | 'float64' {
  return d === 'float64' ? 'float64' : 'float32';
}

export function gdnDtype(t: Tensor, who: string, name: string): GdnDType {
  const d = t.dtype as string;
  if (d !== 'float32' && d !== 'float64' && d !== 'float16') {
    throw new DTypeError(`${who}: ${name} is ${t.dtype}; expected float16, float32 or float64`);
  }
  return d;
}

/** cuSeqlens as host offsets: N + 1 non-decreasing integers from 0 to T. */
export function readCuSeqlens(x: unknown, T: number, who: string): Int32Array {
  let vals: ArrayLike<number>;
  if (x instanceof Tensor) {
    if (x.device !== 'cpu') {
      throw new DeviceError(`${who}: cuSeqlens must be on the host (the launch grid depends on it); pass an array or a CPU tensor`);
    }
    if (x.dtype !== 'int32' && x.dtype !== 'uint32' && x.dtype !== 'float64' && x.dtype !== 'float32') {
      throw new DTypeError(`${who}: cuSeqlens is ${x.dtype}; expected integer offsets`);
    }
    if (x.ndim !== 1) throw new ShapeError(`${who}: cuSeqlens is ${fmtShape(x.shape)}, expected (N + 1)`);
    vals = x.dataSync() as ArrayLike<number>;
  } else if (Array.isArray(x) || ArrayBuffer.isView(x)) {
    vals = x as ArrayLike<number>;
  } else {
    throw new ArgumentError(`${who}: cuSeqlens must be an array, a typed array or a CPU tensor of offsets`);
  }
  if (vals.length < 2) throw new ShapeError(`${who}: cuSeqlens has ${vals.length} entries; it needs N + 1 ≥ 2 offsets`);
  const out = new Int32Array(vals.length);
  for (let i = 0; i < vals.length; i++) {
    const v = Number(vals[i]);
    if (!Number.isInteger(v)) throw new ArgumentError(`${who}: cuSeqlens[${i}] is ${v}; offsets must be integers`);
    if (i === 0 && v !== 0) throw new ArgumentError(`${who}: cuSeqlens[0] is ${v}; it must be 0`);
    if (i > 0 && v < out[i - 1]) throw new ArgumentError(`${who}: cuSeqlens[${i}] is ${v} < cuSeqlens[${i - 1}] = ${out[i - 1]}; offsets must not decrease`);
    out[i] = v;
  }
  if (out[out.length - 1] !== T) {
    throw new ArgumentError(`${who}: cuSeqlens ends at ${out[out.length - 1]}, but the packed sequence has ${T} tokens`);
  }
  return out;
}

export interface GdnCallShape {
  layout: 'bthd' | 'bhtd';
  chunk: 16 | 32 | 64;
  scale?: number;
  qkL2norm: boolean;
  cuSeqlens?: unknown;
}

/**
 * Checks q, k, v, beta, g (and the initial state) against each other and builds the plan.
 * q, k (B, T, H, dk) · v (B, T, HV, dv) · beta, g (B, T, HV), or the 'bhtd' order.
 */
export function planGdn(
  raw: { q: TensorLike; k: TensorLike; v: TensorLike; beta: TensorLike; g: TensorLike; initialState?: TensorLike },
  call: GdnCallShape, who: string,
): { x: GdnInputs; plan: GdnPlan } {
  const q = asTensor(raw.q, who, 'q');
  const dtype = gdnDtype(q, who, 'q');
  const k = asTensor(raw.k, who, 'k', q.dtype), v = asTensor(raw.v, who, 'v', q.dtype);
  const beta = asTensor(raw.beta, who, 'beta', q.dtype), g = asTensor(raw.g, who, 'g', q.dtype);
  for (const [t, name] of [[k, 'k'], [v, 'v'], [beta, 'beta'], [g, 'g']] as const) {
    if (t.dtype !== q.dtype) throw new DTypeError(`${who}: ${name} is ${t.dtype}, q is ${q.dtype}; they must match`);
    if (t.device !== q.device) throw new DeviceError(`${who}: q is on ${q.device} and ${name} on ${t.device}; move one of them`);
  }
  const bthd = call.layout === 'bthd';
  const order = bthd ? '(batch, time, heads, dim)' : '(batch, heads, time, dim)';
  if (q.ndim !== 4) throw new ShapeError(`${who}: q is ${fmtShape(q.shape)}, expected ${order}`);
  const [B, a1, a2, dk] = q.shape;
  const T = bthd ? a1 : a2, H = bthd ? a2 : a1;
  const same4 = (t: Tensor, b: number, tt: number, h: number): boolean =>
    t.ndim === 4 && t.shape[0] === b && (bthd ? t.shape[1] === tt && t.shape[2] === h : t.shape[1] === h && t.shape[2] === tt);
  if (!same4(k, B, T, H) || k.shape[3] !== dk) throw new ShapeError(`${who}: k is ${fmtShape(k.shape)}, expected ${fmtShape(q.shape)} like q`);
  if (v.ndim !== 4 || v.shape[0] !== B || v.shape[bthd ? 1 : 2] !== T) {
    throw new ShapeError(`${who}: v is ${fmtShape(v.shape)}, expected ${bthd ? `(${B}, ${T}, vHeads, dv)` : `(${B}, vHeads, ${T}, dv)`}`);
  }
  const HV = v.shape[bthd ? 2 : 1], dv = v.shape[3];
  if (HV % H !== 0 || HV === 0 && H !== 0) {
    throw new ShapeError(`${who}: v has ${HV} heads and q/k ${H}; the value heads must be a multiple of the key heads`);
  }
  for (const [t, name] of [[beta, 'beta'], [g, 'g']] as const) {
    const ok = t.ndim === 3 && t.shape[0] === B && (bthd ? t.shape[1] === T && t.shape[2] === HV : t.shape[1] === HV && t.shape[2] === T);
    if (!ok) throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape)}, expected ${bthd ? `(${B}, ${T}, ${HV})` : `(${B}, ${HV}, ${T})`}`);
  }
  if (dk === 0 || dv === 0) throw new ShapeError(`${who}: dk = ${dk} and dv = ${dv} must be positive`);
  if (dtype === 'float16' && (dk % 2 !== 0 || dv % 2 !== 0)) {
    throw new ShapeError(`${who}: float16 needs even dk and dv (two halves per 32-bit word), got dk = ${dk}, dv = ${dv}`);
  }
  let seqStart: Int32Array, seqLen: Int32Array, varlen = false;
  if (call.cuSeqlens !== undefined) {
    if (B !== 1) throw new ShapeError(`${who}: with cuSeqlens the batch must be 1 (sequences packed along time), got ${B}`);
    const cu = readCuSeqlens(call.cuSeqlens, T, who);
    varlen = true;
    seqStart = cu.slice(0, -1);
    seqLen = new Int32Array(cu.length - 1);
    for (let n = 0; n < seqLen.length; n++) seqLen[n] = cu[n + 1] - cu[n];
  } else {
    seqStart = new Int32Array(B);
    seqLen = new Int32Array(B).fill(T);
  }
  const N = seqLen.length;
  const scale = call.scale ?? 1 / Math.sqrt(dk);
  let S0: Tensor | null = null;
  if (raw.initialState !== undefined) {
    const sd = stateDtype(dtype);
    const s = asTensor(raw.initialState, who, 'initialState', sd);
    if (s.dtype !== sd) throw new DTypeError(`${who}: initialState is ${s.dtype}; expected ${sd} for ${dtype} inputs`);
    if (s.device !== q.device) throw new DeviceError(`${who}: q is on ${q.device} and initialState on ${s.device}; move one of them`);
    if (s.ndim !== 4 || s.shape[0] !== N || s.shape[1] !== HV || s.shape[2] !== dk || s.shape[3] !== dv) {
      throw new ShapeError(`${who}: initialState is ${fmtShape(s.shape)}, expected (${N}, ${HV}, ${dk}, ${dv}) (sequences, value heads, dk, dv)`);
    }
    S0 = s;
  }
  return {
    x: { q, k, v, beta, g, initialState: S0 },
    plan: {
      dtype, layout: call.layout, batch: B, time: T, heads: H, vHeads: HV, dk, dv, seqs: N, varlen,
      seqStart, seqLen, chunk: call.chunk, scale, qkL2norm: call.qkL2norm,
    },
  };
}

const STATUS_MESSAGE: Record<number, string> = {
  1: 'q, k, v, beta or the initial state holds NaN or ±Inf; inputs must be finite',
  2: 'a log decay g is > 0, NaN or −∞; log decays must be finite and ≤ 0 (the state is scaled by exp(g))',
};

/**
 * Raises the ArgumentError of the first failing (sequence, value head) of `status`
 * (plan.seqs, plan.vHeads): now on the CPU; on the GPU at the first read of `results` (status is
 * read once and disposed then: callers leave it alone).
 */
export function raiseOnGdnStatus(status: Tensor<'int32'>, plan: GdnPlan, who: string, results: readonly Tensor[]): void {
  const scan = (d: ArrayLike<number>): void => {
    for (let i = 0; i < d.length; i++) {
      if (d[i] === 0) continue;
      const where = plan.varlen ? `sequence ${Math.floor(i / plan.vHeads)}` : `batch ${Math.floor(i / plan.vHeads)}`;
      throw new ArgumentError(`${who}: ${where}, value head ${i % plan.vHeads}: ${STATUS_MESSAGE[d[i]] ?? `status ${d[i]}`}`);
    }
  };
  if (status.device === 'cpu') {
    scan(status.dataSync());
    return;
  }
  // One read of status for every result (it is freed then): the first read of any of them throws.
  let outcome: Promise<void> | undefined;
  const check = (): Promise<void> => (outcome ??= status.data().then((d) => {
    status.dispose();
    scan(d);
  }));
  for (const r of results) r.setCheck(check);
}
