// CPU entries of the elementwise ops of the tensor API (native/src/elementwise). Registry ops:
//   cast(x, to) → x converted                       (registered per source dtype)
//   unary(x, op) → op(x)                            (output: unaryOutDtype)
//   binary(a, b, op, layout) → a ∘ b                (output: binaryOutDtype; layout: src/core/broadcast.ts)
//   where(cond, a, b, layout) → cond ? a : b        (registered per a's dtype)
// Ops travel to the addon as small integer codes: the tables below, in the order of the
// enums in native/include/lapis/elementwise.hpp (test/property/elementwise.test.ts checks them).
import { DTYPES, NATIVE_DTYPES, dtypeCode, type AnyStorage, type DType } from '../../core/dtype.js';
import { castCpu } from '../../core/create.js';
import { Tensor } from '../../core/tensor.js';
import type { ElementwiseLayout, ElementwiseLayoutN } from '../../core/broadcast.js';
import { binaryOutDtype, unaryOutDtype, type BinaryOp, type UnaryOp } from '../ops.js';
import { register } from '../registry.js';
import { native } from './binding.js';

/** Native codes of the unary ops (UnaryOp in native/include/lapis/elementwise.hpp). */
export const UNARY_OP_CODES: Readonly<Record<UnaryOp, number>> = {
  neg: 0, abs: 1, sign: 2, sqrt: 3, exp: 4, log: 5, log1p: 6, expm1: 7, sin: 8, cos: 9, tanh: 10, sigmoid: 11,
  conj: 12, real: 13, imag: 14, angle: 15, logicalNot: 16,
};

/** Native codes of the binary ops (BinaryOp in native/include/lapis/elementwise.hpp). */
export const BINARY_OP_CODES: Readonly<Record<BinaryOp, number>> = {
  add: 0, sub: 1, mul: 2, div: 3, pow: 4, minimum: 5, maximum: 6, eq: 7, ne: 8, lt: 9, le: 10, gt: 11, ge: 12,
  logicalAnd: 13, logicalOr: 14,
};

function data(t: Tensor): AnyStorage {
  return t.dataSync();
}

function cast(x: Tensor, to: DType): Tensor {
  if (x.dtype === to) return x;
  if (x.dtype === 'float16' || to === 'float16') return castCpu(x, to); // the addon holds no halves: src/core/half.ts
  const out = Tensor.uninit(to, x.shape);
  if (x.size > 0) native().cast({ from: dtypeCode(x.dtype), to: dtypeCode(to), x: data(x), out: data(out) });
  return out;
}

/**
 * Whether writing `dst` element by element could change an input before it is read: the
 * storages overlap other than exactly (the same bytes are read and written at one index).
 */
function clobbers(dst: AnyStorage, src: AnyStorage): boolean {
  return dst.buffer === src.buffer && dst.byteLength > 0 && src.byteLength > 0
    && dst.byteOffset < src.byteOffset + src.byteLength && src.byteOffset < dst.byteOffset + dst.byteLength
    && !(dst.byteOffset === src.byteOffset && dst.byteLength === src.byteLength);
}

/** The tensor a kernel writes: `out` itself, or a fresh one where out clobbers an input (then copied in). */
function target(out: Tensor | undefined, dtype: DType, shape: readonly number[], inputs: readonly Tensor[]): Tensor {
  if (out && !inputs.some((t) => clobbers(data(out), data(t)))) return out;
  return Tensor.uninit(dtype, shape);
}

function finish(res: Tensor, out: Tensor | undefined): Tensor {
  if (!out || res === out) return res;
  (data(out) as Float64Array).set(data(res) as Float64Array);
  return out;
}

function unary(x: Tensor, op: UnaryOp, out?: Tensor): Tensor {
  const res = target(out, unaryOutDtype(op, x.dtype), x.shape, [x]);
  if (x.size > 0) native().unary({ dtype: dtypeCode(x.dtype), op: UNARY_OP_CODES[op], x: data(x), out: data(res) });
  return finish(res, out);
}

function binary(a: Tensor, b: Tensor, op: BinaryOp, L: ElementwiseLayout, out?: Tensor): Tensor {
  const res = target(out, binaryOutDtype(op, a.dtype), L.shape, [a, b]);
  if (L.size === 0) return finish(res, out);
  native().binary({
    dtype: dtypeCode(a.dtype), op: BINARY_OP_CODES[op], a: data(a), b: data(b), out: data(res), shape: Float64Array.from(L.dims),
    aStrides: Float64Array.from(L.aStrides), bStrides: Float64Array.from(L.bStrides),
  });
  return finish(res, out);
}

function where(cond: Tensor<'bool'>, a: Tensor, b: Tensor, L: ElementwiseLayoutN): Tensor {
  const out = Tensor.uninit(a.dtype, L.shape);
  if (L.size === 0) return out;
  native().where({
    dtype: dtypeCode(a.dtype), cond: cond.dataSync(), a: data(a), b: data(b), out: data(out), shape: Float64Array.from(L.dims),
    condStrides: Float64Array.from(L.strides[0]), aStrides: Float64Array.from(L.strides[1]), bStrides: Float64Array.from(L.strides[2]),
  });
  return out;
}

export function registerElementwiseCpu(): void {
  register('cast', DTYPES, 'cpu', cast);
  register('unary', NATIVE_DTYPES, 'cpu', unary);
  register('binary', NATIVE_DTYPES, 'cpu', binary);
  register('where', NATIVE_DTYPES, 'cpu', where);
}
