// The backward pass over one tape: nodes in reverse order, each rule's cotangents fitted to
// its arguments (summed over broadcast dims, the real part for real arguments, cast to their
// dtype) and accumulated. Everything here calls public ops, so the pass runs on the device of
// the tensors, and an enclosing tape records it (second derivatives).
import { Tensor } from '../core/tensor.js';
import { ArgumentError, ShapeError, fmtShape } from '../core/errors.js';
import { isComplex } from '../core/dtype.js';
import { zeros } from '../core/create.js';
import {
  type Tape, type GradNode, tensorLeaves, isPlainObject, otherTapesTracking, mapTensorLeaves,
} from '../core/grad.js';
import { add, cast, real } from '../ops/elementwise.js';
import { sum } from '../ops/reduce.js';

/** Cotangents by tensor (identity). */
export type CotMap = Map<Tensor, Tensor>;

/** `g` summed to `shape` (leading dims, then dims of size 1 in `shape`): the adjoint of broadcasting. */
export function sumToShape(g: Tensor, shape: readonly number[], who = 'grad'): Tensor {
  if (g.shape.length === shape.length && g.shape.every((d, i) => d === shape[i])) return g;
  const lead = g.ndim - shape.length;
  if (lead < 0) throw new ShapeError(`${who}: a cotangent of shape ${fmtShape(g.shape)} cannot reduce to ${fmtShape(shape)}`);
  const dims: number[] = [];
  for (let i = 0; i < g.ndim; i++) {
    if (i < lead) dims.push(i);
    else if (shape[i - lead] === 1 && g.shape[i] !== 1) dims.push(i);
    else if (shape[i - lead] !== g.shape[i]) {
      throw new ShapeError(`${who}: a cotangent of shape ${fmtShape(g.shape)} cannot reduce to ${fmtShape(shape)}`);
    }
  }
  const r = dims.length > 0 ? sum(g, { dim: dims, keepDims: true }) : g;
  return r.reshape(shape);
}

/** `g` as a cotangent of `x`: its shape (broadcast dims summed) and dtype (real part for a real x). */
export function fitGrad(g: Tensor, x: Tensor, who: string): Tensor {
  if (g.device !== x.device) {
    throw new ArgumentError(`${who}: the gradient rule produced a ${g.device} cotangent for a ${x.device} argument`);
  }
  let r = sumToShape(g, x.shape, who);
  if (isComplex(r.dtype) && !isComplex(x.dtype)) r = real(r);
  if (r.dtype !== x.dtype) r = cast(r, x.dtype);
  return r;
}

function accumulate(cots: CotMap, x: Tensor, g: Tensor): void {
  const prev = cots.get(x);
  cots.set(x, prev ? add(prev, g) : g);
}

/** Walks an argument and the rule's result for it in step, accumulating at tracked tensors. */
function scatter(tape: Tape, arg: unknown, res: unknown, cots: CotMap, who: string, depth = 0): void {
  if (res === null || res === undefined) return;
  if (arg instanceof Tensor) {
    if (!tape.tracks(arg)) return;
    if (!(res instanceof Tensor)) throw new Error(`${who}: gradient rule returned ${typeof res} for a tensor argument`);
    accumulate(cots, arg, fitGrad(res, arg, who));
  } else if (depth < 4 && Array.isArray(arg) && Array.isArray(res)) {
    arg.forEach((a, i) => scatter(tape, a, res[i], cots, who, depth + 1));
  } else if (depth < 4 && isPlainObject(arg) && isPlainObject(res)) {
    for (const [k, a] of Object.entries(arg)) scatter(tape, a, res[k], cots, who, depth + 1);
  }
}

function runNode(tape: Tape, node: GradNode, cots: CotMap): void {
  if (!node.outputs.some((o) => cots.has(o))) return;
  const cot = node.output instanceof Tensor ? cots.get(node.output)! : mapTensorLeaves(node.output, (t) => cots.get(t) ?? null);
  if (node.rule.firstOrderOnly) {
    const involved = [...tensorLeaves(node.args), ...tensorLeaves(node.output), ...tensorLeaves(cot)];
    if (otherTapesTracking(tape, involved)) {
      throw new ArgumentError(`${node.name}: its gradient is not differentiable (no second derivatives through ${node.name})`);
    }
  }
  const res = node.rule.backward({
    name: node.name, args: node.args, output: node.output, saved: node.saved,
    needsGrad: (i: number) => tensorLeaves(node.args[i]).some((t) => tape.tracks(t)),
  }, cot);
  // cotangents of this node's outputs are complete (every consumer came later on the tape)
  for (const o of node.outputs) cots.delete(o);
  node.args.forEach((a, i) => scatter(tape, a, res[i], cots, node.name));
}

/** Runs the tape backward from `seeds`; returns the cotangents left at the tape's leaves. */
export function backward(tape: Tape, seeds: CotMap): CotMap {
  const cots: CotMap = new Map(seeds);
  for (let i = tape.nodes.length - 1; i >= 0; i--) runNode(tape, tape.nodes[i], cots);
  return cots;
}

/** Zeros of `x`'s shape, dtype and device (the gradient of an argument nothing reached). */
export function zerosLike(x: Tensor): Tensor {
  return zeros(x.shape, { dtype: x.dtype, device: x.device });
}

/** Ones of `x`'s shape, dtype and device. */
export function onesLike(x: Tensor): Tensor {
  return add(zerosLike(x), 1);
}
