// Tensor methods where users look for them (`A.add(B)`, `A.matmul(B)`, `A.mT`, `A.sum()`):
// each is a thin call of the public function of the same name, installed on
// Tensor.prototype when src/ops is imported (src/ops/index.ts imports this file for that).
// `where` stays a function only: its first operand is the condition, not the tensor.
import type { DType } from '../core/dtype.js';
import { ShapeError, fmtShape } from '../core/errors.js';
import type { TensorLike } from '../core/create.js';
import { Tensor } from '../core/tensor.js';
import { matmul, type MatmulOptions } from '../linalg/matmul.js';
import * as ew from './elementwise.js';
import * as ix from './indexing.js';
import * as rd from './reduce.js';
import type { Operand } from './operands.js';

declare module '../core/tensor.js' {
  // Declaration merging: the methods below are installed on Tensor.prototype at import.
  interface Tensor<D extends DType = DType> {
    /** `add(this, b)`. */ add(b: Operand): Tensor;
    /** `sub(this, b)`. */ sub(b: Operand): Tensor;
    /** `mul(this, b)`. */ mul(b: Operand): Tensor;
    /** `div(this, b)` (true division: integers give float32). */ div(b: Operand): Tensor;
    /** `pow(this, exponent)`. */ pow(exponent: Operand): Tensor;
    /** `minimum(this, b)`. */ minimum(b: Operand): Tensor;
    /** `maximum(this, b)`. */ maximum(b: Operand): Tensor;
    /** `eq(this, b)`. */ eq(b: Operand): Tensor<'bool'>;
    /** `ne(this, b)`. */ ne(b: Operand): Tensor<'bool'>;
    /** `lt(this, b)`. */ lt(b: Operand): Tensor<'bool'>;
    /** `le(this, b)`. */ le(b: Operand): Tensor<'bool'>;
    /** `gt(this, b)`. */ gt(b: Operand): Tensor<'bool'>;
    /** `ge(this, b)`. */ ge(b: Operand): Tensor<'bool'>;
    /** `logicalAnd(this, b)`. */ logicalAnd(b: Operand): Tensor<'bool'>;
    /** `logicalOr(this, b)`. */ logicalOr(b: Operand): Tensor<'bool'>;
    /** `logicalNot(this)`. */ logicalNot(): Tensor<'bool'>;
    /** `neg(this)`. */ neg(): Tensor;
    /** `abs(this)` (complex: the real modulus). */ abs(): Tensor;
    /** `sign(this)`. */ sign(): Tensor;
    /** `sqrt(this)`. */ sqrt(): Tensor;
    /** `exp(this)`. */ exp(): Tensor;
    /** `log(this)`. */ log(): Tensor;
    /** `log1p(this)`. */ log1p(): Tensor;
    /** `expm1(this)`. */ expm1(): Tensor;
    /** `sin(this)`. */ sin(): Tensor;
    /** `cos(this)`. */ cos(): Tensor;
    /** `tanh(this)`. */ tanh(): Tensor;
    /** `sigmoid(this)`. */ sigmoid(): Tensor;
    /** `conj(this)`. */ conj(): Tensor;
    /** `real(this)`. */ real(): Tensor;
    /** `imag(this)`. */ imag(): Tensor;
    /** `angle(this)`. */ angle(): Tensor;
    /** `clamp(this, min, max)`. */ clamp(min?: Operand | null, max?: Operand | null): Tensor;
    /** `cast(this, dtype)`. */ cast<T extends DType>(dtype: T): Tensor<T>;
    /** `cast(this, dtype)` under numpy's name. */ astype<T extends DType>(dtype: T): Tensor<T>;

    /** `linalg.matmul(this, B, opts)`. */ matmul(B: TensorLike, opts?: MatmulOptions): Tensor;

    /** `sum(this, { dim, keepDims })`. */ sum(opts?: rd.ReduceOptions): Tensor;
    /** `prod(this, opts)`. */ prod(opts?: rd.ReduceOptions): Tensor;
    /** `mean(this, opts)`. */ mean(opts?: rd.ReduceOptions): Tensor;
    /** `max(this, opts)` (values; `maxWithIndices` for indices too). */ max(opts?: rd.ReduceOptions): Tensor;
    /** `min(this, opts)`. */ min(opts?: rd.ReduceOptions): Tensor;
    /** `any(this, opts)`. */ any(opts?: rd.ReduceOptions): Tensor;
    /** `all(this, opts)`. */ all(opts?: rd.ReduceOptions): Tensor;
    /** `argmax(this, { dim, keepDims })`. */ argmax(opts?: rd.ArgReduceOptions): Tensor<'int32'>;
    /** `argmin(this, opts)`. */ argmin(opts?: rd.ArgReduceOptions): Tensor<'int32'>;
    /** `maxWithIndices(this, dim, opts)`. */ maxWithIndices(dim: number, opts?: rd.WithIndicesOptions): { values: Tensor; indices: Tensor<'int32'> };
    /** `minWithIndices(this, dim, opts)`. */ minWithIndices(dim: number, opts?: rd.WithIndicesOptions): { values: Tensor; indices: Tensor<'int32'> };

    /** `flatten(this, startDim, endDim)` (shares storage). */ flatten(startDim?: number, endDim?: number): Tensor<D>;
    /** `squeeze(this, dim)` (shares storage). */ squeeze(dim?: number | readonly number[]): Tensor<D>;
    /** `unsqueeze(this, dim)` (shares storage). */ unsqueeze(dim: number): Tensor<D>;
    /** `expand(this, shape)`. */ expand(shape: readonly number[]): Tensor<D>;
    /** `broadcastTo(this, shape)`. */ broadcastTo(shape: readonly number[]): Tensor<D>;
    /** `transpose(this, dim0, dim1)` (default the last two dims). */ transpose(dim0?: number, dim1?: number): Tensor<D>;
    /** `permute(this, dims)`. */ permute(dims: readonly number[]): Tensor<D>;
    /** `diagonal(this, opts)`. */ diagonal(opts?: ix.DiagonalOptions): Tensor<D>;
    /** `triu(this, k)`. */ triu(k?: number): Tensor<D>;
    /** `tril(this, k)`. */ tril(k?: number): Tensor<D>;
    /** `trace(this)`. */ trace(): Tensor;
    /** `slice(this, ...specs)`: `A.slice('1:3', -1)`. */ slice(...specs: ix.SliceSpec[]): Tensor<D>;
    /** `split(this, sizeOrSections, dim)`. */ split(sizeOrSections: number | readonly number[], dim?: number): Tensor<D>[];
    /** `take(this, index)`. */ take(index: TensorLike): Tensor<D>;
    /** `put(this, index, values, opts)` (a copy, not in place). */ put(index: TensorLike, values: Operand, opts?: ix.PutOptions): Tensor<D>;
    /** The transpose of the last two dims (`matrixTranspose`, torch's `x.mT`). */ readonly mT: Tensor<D>;
    /** The conjugate transpose of the last two dims (`adjoint`, torch's `x.mH`). */ readonly mH: Tensor<D>;
    /**
     * numpy's `.T` for at most 2 dims (the dims reversed: a 2-D transpose; 0-d and 1-D as they
     * are, copied). More dims are a ShapeError: use `mT` (batches of matrices) or `permute`.
     */
    readonly T: Tensor<D>;
  }
}

/** Installs a method like a class method (non-enumerable, so objects print and spread as before). */
function method(name: string, fn: (this: Tensor, ...args: never[]) => unknown): void {
  Object.defineProperty(Tensor.prototype, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

function getter(name: string, get: (this: Tensor) => unknown): void {
  Object.defineProperty(Tensor.prototype, name, { get, configurable: true, enumerable: false });
}

// ---- elementwise (src/ops/elementwise.ts)
const BINARY = ['add', 'sub', 'mul', 'div', 'pow', 'minimum', 'maximum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr'] as const;
for (const name of BINARY) {
  const f = ew[name] as (a: Operand, b: Operand) => Tensor;
  method(name, function (this: Tensor, b: Operand) { return f(this, b); });
}
const UNARY = [
  'neg', 'abs', 'sign', 'sqrt', 'exp', 'log', 'log1p', 'expm1', 'sin', 'cos', 'tanh', 'sigmoid', 'conj', 'real', 'imag', 'angle',
  'logicalNot',
] as const;
for (const name of UNARY) {
  const f = ew[name] as (x: Operand) => Tensor;
  method(name, function (this: Tensor) { return f(this); });
}
method('clamp', function (this: Tensor, min?: Operand | null, max?: Operand | null) { return ew.clamp(this, min, max); });
method('cast', function (this: Tensor, dtype: DType) { return ew.cast(this, dtype); });
method('astype', function (this: Tensor, dtype: DType) { return ew.cast(this, dtype); });

// ---- linalg
method('matmul', function (this: Tensor, B: TensorLike, opts?: MatmulOptions) { return matmul(this, B, opts); });

// ---- reductions (src/ops/reduce.ts)
for (const name of ['sum', 'prod', 'mean', 'max', 'min', 'any', 'all'] as const) {
  const f = rd[name] as (x: Operand, opts?: rd.ReduceOptions) => Tensor;
  method(name, function (this: Tensor, opts?: rd.ReduceOptions) { return f(this, opts); });
}
method('argmax', function (this: Tensor, opts?: rd.ArgReduceOptions) { return rd.argmax(this, opts); });
method('argmin', function (this: Tensor, opts?: rd.ArgReduceOptions) { return rd.argmin(this, opts); });
method('maxWithIndices', function (this: Tensor, dim: number, opts?: rd.WithIndicesOptions) { return rd.maxWithIndices(this, dim, opts); });
method('minWithIndices', function (this: Tensor, dim: number, opts?: rd.WithIndicesOptions) { return rd.minWithIndices(this, dim, opts); });

// ---- shapes and indexing (src/ops/indexing.ts)
method('flatten', function (this: Tensor, startDim?: number, endDim?: number) { return ix.flatten(this, startDim, endDim); });
method('squeeze', function (this: Tensor, dim?: number | readonly number[]) { return ix.squeeze(this, dim); });
method('unsqueeze', function (this: Tensor, dim: number) { return ix.unsqueeze(this, dim); });
method('expand', function (this: Tensor, shape: readonly number[]) { return ix.expand(this, shape); });
method('broadcastTo', function (this: Tensor, shape: readonly number[]) { return ix.broadcastTo(this, shape); });
method('transpose', function (this: Tensor, dim0?: number, dim1?: number) { return ix.transpose(this, dim0, dim1); });
method('permute', function (this: Tensor, dims: readonly number[]) { return ix.permute(this, dims); });
method('diagonal', function (this: Tensor, opts?: ix.DiagonalOptions) { return ix.diagonal(this, opts); });
method('triu', function (this: Tensor, k?: number) { return ix.triu(this, k); });
method('tril', function (this: Tensor, k?: number) { return ix.tril(this, k); });
method('trace', function (this: Tensor) { return ix.trace(this); });
method('slice', function (this: Tensor, ...specs: ix.SliceSpec[]) { return ix.slice(this, ...specs); });
method('split', function (this: Tensor, s: number | readonly number[], dim?: number) { return ix.split(this, s, dim); });
method('take', function (this: Tensor, index: TensorLike) { return ix.take(this, index); });
method('put', function (this: Tensor, index: TensorLike, values: Operand, opts?: ix.PutOptions) { return ix.put(this, index, values, opts); });
getter('mT', function (this: Tensor) { return ix.matrixTranspose(this); });
getter('mH', function (this: Tensor) { return ix.adjoint(this); });
getter('T', function (this: Tensor) {
  if (this.ndim > 2) {
    throw new ShapeError(`T: the tensor is ${fmtShape(this.shape)}; .T takes at most 2 dims (use .mT for batches of matrices, or permute)`);
  }
  return ix.permute(this, this.shape.map((_, i) => this.ndim - 1 - i));
});
