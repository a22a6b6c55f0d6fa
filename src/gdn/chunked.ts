// The planning and the backward body of gdn.chunkedForward / gdn.chunkedBackward, outside the
// `lapis/gdn` entry so the autodiff rule can pass the stages a recorded forward kept (GPU)
// without that internal form becoming part of the public namespace.
import { asTensor } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, fmtShape } from '../core/errors.js';
import { lookup } from '../backend/registry.js';
import type { GdnSaved } from '../backend/ops.js';
import { readOptions, opt } from '../core/options.js';
import { planGdn, raiseOnGdnStatus, stateDtype } from './plan.js';
import type { ChunkedBackwardGrads, ChunkedBackwardOutput, ChunkedForwardInput } from './index.js';

const FORWARD_KEYS = {
  q: opt.any, k: opt.any, v: opt.any, beta: opt.any, g: opt.any, layout: opt.oneOf('bthd', 'bhtd'),
  scale: opt.num(), qkL2norm: opt.bool, initialState: opt.any, cuSeqlens: opt.any, chunkSize: opt.oneOf(16, 32, 64),
};

/** The checked input object of chunkedForward/chunkedBackward and its plan. */
export function planForward(input: ChunkedForwardInput, who: string): ReturnType<typeof planGdn> {
  input = readOptions(who, input, FORWARD_KEYS, 'input');
  for (const key of ['q', 'k', 'v', 'beta', 'g'] as const) {
    if (input[key] === undefined) throw new ArgumentError(`${who}: input.${key} is missing`);
  }
  return planGdn(input, {
    layout: input.layout ?? 'bthd', chunk: input.chunkSize ?? 64, scale: input.scale,
    qkL2norm: input.qkL2norm ?? false, cuSeqlens: input.cuSeqlens,
  }, who);
}

/**
 * chunkedBackward, reusing the stages a recorded chunkedForward kept (`saved`, GPU);
 * `forwardOut` is that forward's o, whose deferred status check the gradients then carry (the
 * kept stages' status was the forward's and is read once).
 */
export function chunkedBackwardFrom(
  input: ChunkedForwardInput, grads: ChunkedBackwardGrads, saved?: GdnSaved, forwardOut?: Tensor,
): ChunkedBackwardOutput {
  const who = 'gdn.chunkedBackward';
  const { x, plan } = planForward(input, who);
  grads = readOptions(who, grads, { dO: opt.any, dFinalState: opt.any }, 'grads');
  const dO = asTensor(grads.dO, who, 'dO', x.v.dtype);
  if (dO.dtype !== x.v.dtype) throw new DTypeError(`${who}: dO is ${dO.dtype}; expected ${x.v.dtype} like v`);
  if (dO.device !== x.v.device) throw new DeviceError(`${who}: dO is on ${dO.device} and v on ${x.v.device}; move one of them`);
  if (dO.ndim !== 4 || dO.shape.some((s, i) => s !== x.v.shape[i])) {
    throw new ShapeError(`${who}: dO is ${fmtShape(dO.shape)}, expected ${fmtShape(x.v.shape)} like o`);
  }
  let dF: Tensor | null = null;
  if (grads.dFinalState !== undefined) {
    const sd = stateDtype(plan.dtype);
    dF = asTensor(grads.dFinalState, who, 'dFinalState', sd);
    if (dF.dtype !== sd) throw new DTypeError(`${who}: dFinalState is ${dF.dtype}; expected ${sd}`);
    if (dF.device !== x.v.device) throw new DeviceError(`${who}: dFinalState is on ${dF.device} and v on ${x.v.device}; move one of them`);
    const want = [plan.seqs, plan.vHeads, plan.dk, plan.dv];
    if (dF.ndim !== 4 || dF.shape.some((s, i) => s !== want[i])) {
      throw new ShapeError(`${who}: dFinalState is ${fmtShape(dF.shape)}, expected ${fmtShape(want)} like finalState`);
    }
  }
  const r = lookup('gdnBackward', x.q.dtype, x.q.device, who)(x, dO, dF, plan, saved);
  const outs = [r.dq, r.dk, r.dv, r.dbeta, r.dg, ...(r.dInitialState ? [r.dInitialState] : [])];
  const fwdCheck = saved ? forwardOut?.pendingCheck() : undefined;
  if (!saved) raiseOnGdnStatus(r.status, plan, who, outs);
  else if (fwdCheck) for (const t of outs) t.setCheck(fwdCheck);
  const res: ChunkedBackwardOutput = { dq: r.dq, dk: r.dk, dv: r.dv, dbeta: r.dbeta, dg: r.dg };
  if (r.dInitialState) res.dInitialState = r.dInitialState;
  return res;
}

