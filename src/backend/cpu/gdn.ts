// CPU entries of the Gated DeltaNet ops (docs/gdn.md): the native kernels in native/src/gdn/
// (chunked WY forward, recurrent step, backward), float32 and float64. float16 is GPU-only.
import { dtypeCode } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import type { GdnInputs, GdnPlan } from '../ops.js';
import { floats, native, type GdnNativeProblem } from './binding.js';

const DTYPES = ['float32', 'float64'] as const;

function problem(plan: GdnPlan): GdnNativeProblem {
  return {
    batch: plan.batch, time: plan.time, heads: plan.heads, vHeads: plan.vHeads, keyDim: plan.dk, valueDim: plan.dv,
    layout: plan.layout === 'bthd' ? 0 : 1, varlen: plan.varlen, chunk: plan.chunk, scale: plan.scale,
    qkL2norm: plan.qkL2norm, seqStart: plan.seqStart, seqLen: plan.seqLen,
  };
}

function stateShape(plan: GdnPlan): number[] {
  return [plan.seqs, plan.vHeads, plan.dk, plan.dv];
}

function gdnForward(x: GdnInputs, plan: GdnPlan) {
  const dtype = x.q.dtype as 'float32' | 'float64';
  const o = Tensor.empty(dtype, x.v.shape);
  const finalState = Tensor.empty(dtype, stateShape(plan));
  const status = Tensor.empty('int32', [plan.seqs, plan.vHeads]);
  native().gdnForward({
    dtype: dtypeCode(dtype), q: floats(x.q), k: floats(x.k), v: floats(x.v), beta: floats(x.beta), g: floats(x.g),
    initialState: x.initialState ? floats(x.initialState) : null, o: floats(o), finalState: floats(finalState),
    status: status.dataSync(), ...problem(plan),
  });
  return { o, finalState, status };
}

function gdnRecurrentStep(state: Tensor, q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, plan: GdnPlan) {
  const dtype = q.dtype as 'float32' | 'float64';
  const o = Tensor.empty(dtype, [plan.seqs, plan.vHeads, plan.dv]);
  const next = Tensor.empty(dtype, stateShape(plan));
  const status = Tensor.empty('int32', [plan.seqs, plan.vHeads]);
  native().gdnRecurrentStep({
    dtype: dtypeCode(dtype), state: floats(state), q: floats(q), k: floats(k), v: floats(v), beta: floats(beta), g: floats(g),
    o: floats(o), newState: floats(next), status: status.dataSync(), seqs: plan.seqs, heads: plan.heads, vHeads: plan.vHeads,
    keyDim: plan.dk, valueDim: plan.dv, scale: plan.scale, qkL2norm: plan.qkL2norm,
  });
  return { o, state: next, status };
}

function gdnBackward(x: GdnInputs, dO: Tensor, dFinal: Tensor | null, plan: GdnPlan) {
  const dtype = x.q.dtype as 'float32' | 'float64';
  const like = (t: Tensor): Tensor => Tensor.empty(dtype, t.shape);
  const dq = like(x.q), dk = like(x.k), dv = like(x.v), dbeta = like(x.beta), dg = like(x.g);
  const dInitialState = x.initialState ? like(x.initialState) : null;
  const status = Tensor.empty('int32', [plan.seqs, plan.vHeads]);
  native().gdnBackward({
    dtype: dtypeCode(dtype), q: floats(x.q), k: floats(x.k), v: floats(x.v), beta: floats(x.beta), g: floats(x.g),
    initialState: x.initialState ? floats(x.initialState) : null, dO: floats(dO), dFinal: dFinal ? floats(dFinal) : null,
    dq: floats(dq), dk: floats(dk), dv: floats(dv), dbeta: floats(dbeta), dg: floats(dg),
    dInitialState: dInitialState ? floats(dInitialState) : null, status: status.dataSync(), ...problem(plan),
  });
  return { dq, dk, dv, dbeta, dg, dInitialState, status };
}

export function registerGdnCpu(): void {
  register('gdnForward', DTYPES, 'cpu', gdnForward);
  register('gdnRecurrentStep', DTYPES, 'cpu', gdnRecurrentStep);
  register('gdnBackward', DTYPES, 'cpu', gdnBackward);
}
