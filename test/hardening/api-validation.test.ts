// Every public function × bad arguments (issue 10 item 17): null or non-object options,
// unknown option keys, non-boolean booleans, NaN and non-integer numbers, wrong types and
// disposed tensors for tensor arguments. Each must be one of the library's typed errors
// (never a TypeError from the engine, never a silent coercion) and name the function.
import { describe, expect, it } from 'vitest';
import * as lapis from '../../src/index.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, Tensor, eye, zeros, tensor } from '../../src/index.js';

type Args = unknown[];
interface Entry {
  /** The prefix every message must start with. */
  who: string;
  call: (...args: Args) => unknown;
  /** Valid arguments (fresh each call). */
  valid: () => Args;
  /** Index of the options argument, if any. */
  optsAt?: number;
  /** The options the valid call may carry (merged into the bad ones so required keys stay valid). */
  baseOpts?: Record<string, unknown>;
  booleans?: string[];
  /** Options whose value must be a non-NaN number. */
  numbers?: string[];
  /** Options that take one of a few strings. */
  enums?: string[];
  /** Indices of tensor-like arguments. */
  tensorsAt?: number[];
  /** Scalar arguments and a bad value for each. */
  scalars?: Array<[number, unknown]>;
}

const A3 = () => [[4, 1, 0], [1, 3, 1], [0, 1, 2]];
const B3 = () => [[1], [2], [3]];
const piv3 = () => tensor([1, 2, 3], { dtype: 'int32' });
const gdnInput = () => ({
  q: zeros([1, 1, 4, 2]), k: zeros([1, 1, 4, 2]), v: zeros([1, 1, 4, 2]), beta: zeros([1, 1, 4]), g: zeros([1, 1, 4]),
});

const L = lapis.linalg;
const T: Record<string, Entry> = {
  tensor: { who: 'tensor', call: (v, o) => lapis.tensor(v as never, o as never), valid: () => [[1, 2], {}], optsAt: 1, enums: ['dtype', 'device'], tensorsAt: [0] },
  zeros: { who: 'zeros', call: (s, o) => lapis.zeros(s as never, o as never), valid: () => [[2], {}], optsAt: 1, enums: ['dtype', 'device'],
    scalars: [[0, [-1]], [0, null]] },
  eye: { who: 'eye', call: (n, o) => lapis.eye(n as never, o as never), valid: () => [2, {}], optsAt: 1, enums: ['dtype', 'device'],
    numbers: ['m'], scalars: [[0, 1.5], [0, NaN], [0, '2']] },
  randn: { who: 'randn', call: (s, o) => lapis.randn(s as never, o as never), valid: () => [[2], {}], optsAt: 1, enums: ['dtype', 'device'],
    numbers: ['seed'], scalars: [[0, [NaN]]] },
  Rng: { who: 'Rng', call: (s) => new lapis.Rng(s as never), valid: () => [1], scalars: [[0, NaN], [0, 'x'], [0, 0.5]] },
  Complex: { who: 'Complex', call: (re, im) => new lapis.Complex(re as never, im as never), valid: () => [1, 2], scalars: [[0, 'a'], [1, null]] },
  fromMathjs: { who: 'fromMathjs', call: (v) => lapis.fromMathjs(v), valid: () => [[1, 2]], scalars: [[0, 'a'], [0, null]] },
  toMathjs: { who: 'toMathjs', call: (m, v) => lapis.toMathjs(m as never, v), valid: () => [{ matrix: (x: unknown) => x, complex: () => 0 }, [1]],
    scalars: [[0, null], [0, {}]] },
  toMlMatrix: { who: 'toMlMatrix', call: (t, C) => lapis.toMlMatrix(t as never, C as never), valid: () => [[[1, 2]], class { set(): void {} }],
    tensorsAt: [0], scalars: [[1, null], [1, {}], [1, 5], [0, [[[1]]]], [0, tensor([1], { dtype: 'complex64' })]] },
  numThreads: { who: 'numThreads', call: () => lapis.numThreads(), valid: () => [] },
  setNumThreads: { who: 'setNumThreads', call: (n) => lapis.setNumThreads(n as never), valid: () => [lapis.numThreads()],
    scalars: [[0, NaN], [0, 1.5], [0, '2'], [0, 0], [0, 1e9]] },
  gemmKernel: { who: 'gemmKernel', call: () => lapis.gemmKernel(), valid: () => [] },
  cpuBackend: { who: 'cpuBackend', call: () => lapis.cpuBackend(), valid: () => [] },
  cpuPeakFlops: { who: 'cpuPeakFlops', call: (d, t) => lapis.cpuPeakFlops(d as never, t as never), valid: () => ['float64', 1],
    scalars: [[0, 'int32'], [0, 'complex64'], [0, null], [1, 0], [1, 257], [1, 1.5], [1, NaN], [1, '2'], [1, null]] },
  frexp: { who: 'frexp', call: (x) => lapis.frexp(x as never), valid: () => [[1, 2]], tensorsAt: [0] },
  heaviside: { who: 'heaviside', call: (x, v) => lapis.heaviside(x as never, v as never), valid: () => [[1, 2], 0.5], tensorsAt: [0, 1] },
  logspace: { who: 'logspace', call: (a, b, n, o) => lapis.logspace(a as never, b as never, n as never, o as never), valid: () => [0, 2, 3, {}],
    optsAt: 3, enums: ['dtype', 'device'], scalars: [[0, 'a'], [1, null], [2, NaN], [2, 1.5], [2, -1], [2, '3']] },
  'special.laguerrePolynomialL': { who: 'laguerrePolynomialL', call: (x, n) => lapis.special.laguerrePolynomialL(x as never, n as never),
    valid: () => [[1, 2], 3], tensorsAt: [0, 1] },
  'special.frexp': { who: 'frexp', call: (x) => lapis.special.frexp(x as never), valid: () => [[1]], tensorsAt: [0] },
  'special.heaviside': { who: 'heaviside', call: (x, v) => lapis.special.heaviside(x as never, v as never), valid: () => [[1], [0]], tensorsAt: [0, 1] },
  'special.logspace': { who: 'logspace', call: (a, b, n, o) => lapis.special.logspace(a as never, b as never, n as never, o as never),
    valid: () => [0, 1, 2, {}], optsAt: 3, enums: ['dtype', 'device'] },
  grad: { who: 'grad', call: (f, o) => lapis.grad(f as never, o as never)(tensor([1, 2])), valid: () => [(x: Tensor) => lapis.sum(x), {}], optsAt: 1,
    scalars: [[0, null], [0, 5], [1, { argnums: -1 }], [1, { argnums: [] }], [1, { argnums: 1 }], [1, { argnums: [0, 0] }]] },
  valueAndGrad: { who: 'valueAndGrad', call: (f, o) => lapis.valueAndGrad(f as never, o as never)(tensor([1, 2])),
    valid: () => [(x: Tensor) => lapis.sum(x), {}], optsAt: 1, scalars: [[0, 'f'], [1, { argnums: 1.5 }], [1, { argnums: 3 }]] },
  vjp: { who: 'vjp', call: (f, x) => lapis.vjp(f as never, x as never), valid: () => [(x: Tensor) => lapis.mul(x, 2), tensor([1, 2])],
    scalars: [[0, null], [1, 'abc'], [1, [1, 2]], [1, tensor([1], { dtype: 'int32' })], [1, disposed()]] },
  stopGradient: { who: 'stopGradient', call: (x) => lapis.stopGradient(x as never), valid: () => [tensor([1])], tensorsAt: [0] },
  'linalg.matmul': { who: 'matmul', call: (a, b, o) => L.matmul(a as never, b as never, o as never), valid: () => [A3(), B3(), {}],
    optsAt: 2, booleans: ['transposeA', 'transposeB', 'adjointA', 'adjointB'], tensorsAt: [0, 1] },
  'linalg.luFactor': { who: 'luFactor', call: (a) => L.luFactor(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.luFactorEx': { who: 'luFactorEx', call: (a) => L.luFactorEx(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.luFactorAsync': { who: 'luFactorAsync', call: (a) => L.luFactorAsync(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.lu': { who: 'lu', call: (a) => L.lu(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.luSolve': { who: 'luSolve', call: (a, p, b, o) => L.luSolve(a as never, p as never, b as never, o as never),
    valid: () => [A3(), piv3(), B3(), {}], optsAt: 3, booleans: ['left', 'adjoint'], tensorsAt: [0, 1, 2],
    scalars: [[1, [1.5, 2, 3]], [1, [NaN, 2, 3]]] },
  'linalg.solveTriangular': { who: 'solveTriangular', call: (a, b, o) => L.solveTriangular(a as never, b as never, o as never),
    valid: () => [A3(), B3(), { upper: true }], optsAt: 2, baseOpts: { upper: true }, booleans: ['upper', 'left', 'unitriangular'], tensorsAt: [0, 1] },
  'linalg.solve': { who: 'solve', call: (a, b, o) => L.solve(a as never, b as never, o as never), valid: () => [A3(), B3(), {}], optsAt: 2,
    booleans: ['left'], tensorsAt: [0, 1] },
  'linalg.solveEx': { who: 'solveEx', call: (a, b, o) => L.solveEx(a as never, b as never, o as never), valid: () => [A3(), B3(), {}], optsAt: 2,
    booleans: ['left'], tensorsAt: [0, 1] },
  'linalg.solveAsync': { who: 'solveAsync', call: (a, b, o) => L.solveAsync(a as never, b as never, o as never), valid: () => [A3(), B3(), {}],
    optsAt: 2, booleans: ['left'], tensorsAt: [0, 1] },
  'linalg.inv': { who: 'inv', call: (a) => L.inv(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.invEx': { who: 'invEx', call: (a) => L.invEx(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.invAsync': { who: 'invAsync', call: (a) => L.invAsync(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.det': { who: 'det', call: (a) => L.det(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.slogdet': { who: 'slogdet', call: (a) => L.slogdet(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.qr': { who: 'qr', call: (a, o) => L.qr(a as never, o as never), valid: () => [A3(), {}], optsAt: 1, enums: ['mode'], tensorsAt: [0] },
  'linalg.svd': { who: 'svd', call: (a, o) => L.svd(a as never, o as never), valid: () => [A3(), {}], optsAt: 1, booleans: ['fullMatrices'], tensorsAt: [0] },
  'linalg.svdEx': { who: 'svdEx', call: (a, o) => L.svdEx(a as never, o as never), valid: () => [A3(), {}], optsAt: 1, booleans: ['fullMatrices'],
    tensorsAt: [0] },
  'linalg.svdvals': { who: 'svdvals', call: (a) => L.svdvals(a as never), valid: () => [A3()], tensorsAt: [0] },
  'linalg.pinv': { who: 'pinv', call: (a, o) => L.pinv(a as never, o as never), valid: () => [A3(), {}], optsAt: 1, booleans: ['hermitian'],
    numbers: ['atol', 'rtol'], tensorsAt: [0] },
  'linalg.matrixRank': { who: 'matrixRank', call: (a, o) => L.matrixRank(a as never, o as never), valid: () => [A3(), {}], optsAt: 1,
    booleans: ['hermitian'], numbers: ['atol', 'rtol'], tensorsAt: [0] },
  'linalg.lstsq': { who: 'lstsq', call: (a, b, o) => L.lstsq(a as never, b as never, o as never), valid: () => [A3(), B3(), {}], optsAt: 2,
    numbers: ['rcond'], enums: ['driver'], tensorsAt: [0, 1] },
  'linalg.norm': { who: 'norm', call: (a, p, o) => L.norm(a as never, p as never, o as never), valid: () => [A3(), undefined, {}], optsAt: 2,
    booleans: ['keepdim'], numbers: ['dim'], tensorsAt: [0], scalars: [[1, NaN], [1, 'x'], [1, {}]] },
  'linalg.cond': { who: 'cond', call: (a, p) => L.cond(a as never, p as never), valid: () => [A3()], tensorsAt: [0],
    scalars: [[1, NaN], [1, 'x'], [1, {}]] },
  'gdn.chunkSolve': { who: 'gdn.chunkSolve', call: (a, b) => lapis.gdn.chunkSolve(a as never, b as never), valid: () => [A3(), B3()], tensorsAt: [0, 1] },
  'gdn.invUnitLower': { who: 'gdn.invUnitLower', call: (a) => lapis.gdn.invUnitLower(a as never), valid: () => [A3()], tensorsAt: [0] },
  'gdn.chunkedForward': { who: 'gdn.chunkedForward', call: (i) => lapis.gdn.chunkedForward(i as never), valid: () => [{ ...gdnInput(), chunkSize: 16 }],
    optsAt: 0, baseOpts: gdnInput(), booleans: ['qkL2norm'], numbers: ['chunkSize', 'scale'], enums: ['layout'] },
  'gdn.chunkedBackward': { who: 'gdn.chunkedBackward', call: (i, d) => lapis.gdn.chunkedBackward(i as never, d as never),
    valid: () => [{ ...gdnInput(), chunkSize: 16 }, { dO: zeros([1, 1, 4, 2]) }],
    optsAt: 0, baseOpts: gdnInput(), booleans: ['qkL2norm'], numbers: ['chunkSize', 'scale'], enums: ['layout'] },
  'gdn.recurrentStep': { who: 'gdn.recurrentStep',
    call: (s, q, k, v, b, g, o) => lapis.gdn.recurrentStep(s as never, q as never, k as never, v as never, b as never, g as never, o as never),
    valid: () => [zeros([1, 1, 2, 2]), zeros([1, 1, 2]), zeros([1, 1, 2]), zeros([1, 1, 2]), zeros([1, 1]), zeros([1, 1]), {}],
    optsAt: 6, booleans: ['qkL2norm'], numbers: ['scale'], tensorsAt: [0, 1, 2, 3, 4, 5] },
  // shapes and indexing (src/ops/indexing.ts)
  flatten: { who: 'flatten', call: (x, s, e) => lapis.flatten(x as never, s as never, e as never), valid: () => [A3(), 0, -1], tensorsAt: [0],
    scalars: [[1, 1.5], [1, 5], [2, 'a'], [1, NaN]] },
  squeeze: { who: 'squeeze', call: (x, d) => lapis.squeeze(x as never, d as never), valid: () => [[[1, 2]], 0], tensorsAt: [0],
    scalars: [[1, 5], [1, 0.5], [1, [0, 0]], [1, 'x']] },
  unsqueeze: { who: 'unsqueeze', call: (x, d) => lapis.unsqueeze(x as never, d as never), valid: () => [A3(), 0], tensorsAt: [0],
    scalars: [[1, 3], [1, null], [1, NaN]] },
  expand: { who: 'expand', call: (x, s) => lapis.expand(x as never, s as never), valid: () => [[[1], [2]], [2, 3]], tensorsAt: [0],
    scalars: [[1, null], [1, [0.5]], [1, [3, 3]], [1, [-2, 1]]] },
  broadcastTo: { who: 'broadcastTo', call: (x, s) => lapis.broadcastTo(x as never, s as never), valid: () => [[1, 2], [3, 2]], tensorsAt: [0],
    scalars: [[1, 'x'], [1, [3]], [1, [NaN, 2]]] },
  transpose: { who: 'transpose', call: (x, a, b) => lapis.transpose(x as never, a as never, b as never), valid: () => [A3(), 0, 1], tensorsAt: [0],
    scalars: [[1, 2], [2, 'x'], [1, 0.5]] },
  permute: { who: 'permute', call: (x, d) => lapis.permute(x as never, d as never), valid: () => [A3(), [1, 0]], tensorsAt: [0],
    scalars: [[1, [0]], [1, null], [1, [0, 0]], [1, [0, NaN]]] },
  matrixTranspose: { who: 'matrixTranspose', call: (x) => lapis.matrixTranspose(x as never), valid: () => [A3()], tensorsAt: [0], scalars: [[0, [1, 2]]] },
  adjoint: { who: 'adjoint', call: (x) => lapis.adjoint(x as never), valid: () => [A3()], tensorsAt: [0], scalars: [[0, 5]] },
  diagonal: { who: 'diagonal', call: (x, o) => lapis.diagonal(x as never, o as never), valid: () => [A3(), {}], optsAt: 1,
    numbers: ['offset', 'dim1', 'dim2'], tensorsAt: [0], scalars: [[0, [1, 2]]] },
  triu: { who: 'triu', call: (x, k) => lapis.triu(x as never, k as never), valid: () => [A3(), 0], tensorsAt: [0], scalars: [[1, 0.5], [1, 'a'], [0, [1]]] },
  tril: { who: 'tril', call: (x, k) => lapis.tril(x as never, k as never), valid: () => [A3(), 0], tensorsAt: [0], scalars: [[1, NaN], [1, null], [0, 1]] },
  trace: { who: 'trace', call: (x) => lapis.trace(x as never), valid: () => [A3()], tensorsAt: [0], scalars: [[0, [1, 2]]] },
  slice: { who: 'slice', call: (x, a, b) => lapis.slice(x as never, a as never, b as never), valid: () => [A3(), 0, '::-1'], tensorsAt: [0],
    scalars: [[1, 'x'], [1, 0.5], [2, '::0'], [1, 9], [2, { step: 0 }], [2, { from: 1 }], [1, true], [1, [1]]] },
  concat: { who: 'concat', call: (xs, d) => lapis.concat(xs as never, d as never), valid: () => [[A3(), A3()], 0],
    scalars: [[0, []], [0, null], [1, 5], [0, [A3(), [1]]], [0, [A3(), null]], [0, [A3(), disposed()]], [1, 'x']] },
  stack: { who: 'stack', call: (xs, d) => lapis.stack(xs as never, d as never), valid: () => [[A3(), A3()], 0],
    scalars: [[0, []], [0, 'x'], [1, 3], [0, [A3(), [1]]], [0, [A3(), {}]]] },
  split: { who: 'split', call: (x, s, d) => lapis.split(x as never, s as never, d as never), valid: () => [A3(), 1, 0], tensorsAt: [0],
    scalars: [[1, 0], [1, [1]], [2, 3], [1, null], [1, [1, 2, NaN]]] },
  take: { who: 'take', call: (x, i) => lapis.take(x as never, i as never), valid: () => [A3(), [0, -1]], tensorsAt: [0, 1],
    scalars: [[1, [9]], [1, [0.5]], [1, [true]], [1, tensor([0.0])]] },
  put: { who: 'put', call: (x, i, v, o) => lapis.put(x as never, i as never, v as never, o as never), valid: () => [A3(), [0], 5, {}], optsAt: 3,
    booleans: ['accumulate'], tensorsAt: [0, 1, 2], scalars: [[1, [9]], [2, [1, 2]]] },
  // reductions (src/ops/reduce.ts)
  ...Object.fromEntries((['sum', 'prod', 'mean', 'max', 'min', 'any', 'all'] as const).map((n) => [n, {
    who: n, call: (x: unknown, o: unknown) => lapis[n](x as never, o as never), valid: () => [A3(), { dim: -1 }], optsAt: 1,
    baseOpts: { dim: -1 }, booleans: ['keepDims'], tensorsAt: [0], scalars: [[1, { dim: 2 }], [1, { dim: [0, 0] }], [1, { dim: 0.5 }]],
  } satisfies Entry])),
  ...Object.fromEntries((['argmax', 'argmin'] as const).map((n) => [n, {
    who: n, call: (x: unknown, o: unknown) => lapis[n](x as never, o as never), valid: () => [A3(), { dim: 0 }], optsAt: 1,
    baseOpts: { dim: 0 }, booleans: ['keepDims'], tensorsAt: [0], scalars: [[1, { dim: 5 }], [1, { dim: 'x' }], [0, []]],
  } satisfies Entry])),
  ...Object.fromEntries((['maxWithIndices', 'minWithIndices'] as const).map((n) => [n, {
    who: n, call: (x: unknown, d: unknown, o: unknown) => lapis[n](x as never, d as never, o as never), valid: () => [A3(), 1, {}], optsAt: 2,
    booleans: ['keepDims'], tensorsAt: [0], scalars: [[1, 2], [1, 'x'], [1, 0.5], [0, [[1, 2]].map((r) => r.map((v) => ({ re: v, im: 0 })))]],
  } satisfies Entry])),
  // elementwise (src/ops/elementwise.ts): operands are tensors or JS scalars
  ...Object.fromEntries((['add', 'sub', 'mul', 'div', 'pow', 'minimum', 'maximum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd',
    'logicalOr'] as const).map((n) => [n, {
    who: n, call: (a: unknown, b: unknown) => lapis[n](a as never, b as never), valid: () => [[1, 2], 2], tensorsAt: [0, 1],
    scalars: [[1, [1, 2, 3]], ...(['minimum', 'maximum', 'lt', 'le', 'gt', 'ge'].includes(n) ? [[1, new lapis.Complex(1, 1)]] : [])] as Array<[number, unknown]>,
  }])),
  ...Object.fromEntries((['logicalNot', 'neg', 'abs', 'sign', 'sqrt', 'exp', 'log', 'log1p', 'expm1', 'sin', 'cos', 'tanh', 'sigmoid', 'conj',
    'real', 'imag', 'angle'] as const).map((n) => [n, {
    who: n, call: (x: unknown) => lapis[n](x as never), valid: () => [[1, 2]], tensorsAt: [0],
  }])),
  clamp: { who: 'clamp', call: (x, a, b) => lapis.clamp(x as never, a as never, b as never), valid: () => [[1, 2], 0, 1], tensorsAt: [0],
    scalars: [[1, new lapis.Complex(1, 1)], [2, [1, 2, 3]], [1, 'x'], [2, disposed()]] },
  where: { who: 'where', call: (c, a, b) => lapis.where(c as never, a as never, b as never),
    valid: () => [[true, false], tensor([1, 2], { dtype: 'int32' }), 1], tensorsAt: [0, 1, 2],
    scalars: [[2, [1, 2, 3]], [2, tensor({ data: new Uint32Array(1), shape: [1] })], [2, 2 ** 40]] },
  cast: { who: 'cast', call: (x, d) => lapis.cast(x as never, d as never), valid: () => [[1, 2], 'int32'], tensorsAt: [0],
    scalars: [[1, 'bfloat16'], [1, null], [0, tensor([1], { dtype: 'complex64' })]] },
  // another helper's addition of this round (issue 10 item 8): same options as solveTriangular
  ...('solveTriangularEx' in L ? {
    'linalg.solveTriangularEx': {
      who: 'solveTriangularEx', call: (a: unknown, b: unknown, o: unknown) => (L as unknown as Record<string, (...x: unknown[]) => unknown>).solveTriangularEx(a, b, o),
      valid: () => [A3(), B3(), { upper: true }], optsAt: 2, baseOpts: { upper: true }, booleans: ['upper', 'left', 'unitriangular'], tensorsAt: [0, 1],
    },
  } : {}),
  'gpu.init': { who: 'gpu.init', call: (o) => lapis.gpu.init(o as never), valid: () => [], optsAt: 0, booleans: ['forceSoftware'],
    enums: ['powerPreference'] },
  'gpu.memory': { who: 'gpu.memory', call: (o) => lapis.gpu.memory(o as never), valid: () => [{}], optsAt: 0, booleans: ['trim'],
    numbers: ['maxPooledBytes'] },
  'gpu.info': { who: 'gpu.info', call: () => lapis.gpu.info(), valid: () => [] },
  'gpu.available': { who: 'gpu.available', call: () => lapis.gpu.available(), valid: () => [] },
  'gpu.sync': { who: 'gpu.sync', call: () => lapis.gpu.sync(), valid: () => [] },
};

/** Functions (and classes) exported from the package root and its namespaces. */
function publicFunctions(): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(lapis)) {
    if (typeof v === 'function' && !/Error$/.test(k) && k !== 'Tensor') out.push(k);
    else if (v && typeof v === 'object') {
      for (const [k2, v2] of Object.entries(v)) if (typeof v2 === 'function') out.push(`${k}.${k2}`);
    }
  }
  return out;
}

/** Runs a call, awaiting promises; returns the error (or undefined). */
async function failure(f: () => unknown): Promise<unknown> {
  try {
    const r = f();
    if (r instanceof Promise) await r;
  } catch (e) {
    return e;
  }
  return undefined;
}

const TYPED = [ArgumentError, DTypeError, DeviceError, ShapeError];

async function expectTyped(entry: Entry, args: Args, what: string, cls?: (typeof TYPED)[number]): Promise<void> {
  const e = await failure(() => entry.call(...args));
  expect(e, `${what}: no error`).toBeDefined();
  expect(TYPED.some((C) => e instanceof C), `${what}: ${String(e)} is not a lapis typed error`).toBe(true);
  if (cls) expect(e, `${what}: ${String(e)}`).toBeInstanceOf(cls);
  expect((e as Error).message.startsWith(`${entry.who}:`) || (e as Error).message.startsWith(`${entry.who}.`),
    `${what}: "${(e as Error).message}" does not name ${entry.who}`).toBe(true);
}

function withArg(args: Args, i: number, v: unknown): Args {
  const a = [...args];
  while (a.length <= i) a.push(undefined);
  a[i] = v;
  return a;
}

function disposed(): Tensor {
  const t = eye(3);
  t.dispose();
  return t;
}

describe('public API argument validation (every function × bad inputs)', () => {
  it('the table covers every public function', () => {
    const missing = publicFunctions().filter((name) => !(name in T) && !name.startsWith('Complex.'));
    expect(missing, 'add these to the table in test/hardening/api-validation.test.ts').toEqual([]);
  });

  for (const [name, entry] of Object.entries(T)) {
    it(`${name}: valid arguments pass, bad ones are typed errors naming ${entry.who}`, async () => {
      if (!name.startsWith('gpu.') || name === 'gpu.memory' || name === 'gpu.info') {
        expect(await failure(() => entry.call(...entry.valid()))).toBeUndefined();
      }
      if (entry.optsAt !== undefined) {
        const at = entry.optsAt;
        const base = entry.baseOpts ?? {};
        for (const bad of [null, 'yes', 5, true, [1]]) {
          await expectTyped(entry, withArg(entry.valid(), at, bad), `options = ${JSON.stringify(bad)}`, ArgumentError);
        }
        await expectTyped(entry, withArg(entry.valid(), at, { ...base, bogusOption: 1 }), 'unknown option', ArgumentError);
        for (const k of entry.booleans ?? []) {
          for (const bad of ['no', 1, 0, null]) {
            await expectTyped(entry, withArg(entry.valid(), at, { ...base, [k]: bad }), `${k}: ${JSON.stringify(bad)}`, ArgumentError);
          }
        }
        for (const k of entry.numbers ?? []) {
          for (const bad of [NaN, '1', null]) await expectTyped(entry, withArg(entry.valid(), at, { ...base, [k]: bad }), `${k}: ${bad}`);
        }
        for (const k of entry.enums ?? []) {
          for (const bad of ['nonsense', 1, null]) await expectTyped(entry, withArg(entry.valid(), at, { ...base, [k]: bad }), `${k}: ${bad}`);
        }
      }
      for (const i of entry.tensorsAt ?? []) {
        const cases: Array<[unknown, (typeof TYPED)[number]]> = [
          [null, ArgumentError], ['abc', ArgumentError], [{}, ArgumentError], [Symbol('s'), ArgumentError],
          [[[1, 'a']], DTypeError], [[[1, 2], [3]], ShapeError], [{ data: [1], shape: [-1] }, ShapeError],
          [{ data: ['x'], shape: [1] }, DTypeError], [disposed(), DeviceError],
        ];
        for (const [bad, cls] of cases) await expectTyped(entry, withArg(entry.valid(), i, bad), `arg ${i} = ${String(bad)}`, cls);
      }
      for (const [i, bad] of entry.scalars ?? []) await expectTyped(entry, withArg(entry.valid(), i, bad), `arg ${i} = ${String(bad)}`);
    });
  }

  it('Tensor methods: reshape, to, toAsync refuse bad shapes and devices by name', async () => {
    const t = zeros([2, 2]);
    for (const s of [[-2, -2], [0.5, 8], null, 'x']) expect(() => t.reshape(s as never)).toThrow(ShapeError);
    expect(() => t.to('tpu' as never)).toThrow(/^to:/);
    await expect(t.toAsync(null as never)).rejects.toThrow(/^toAsync:/);
    expect(() => Tensor.fromStorage('float16' as never, [1], new Float32Array(1) as never)).toThrow(DTypeError);
  });

  it('the reported cases: pinv hermitian "no" is refused, not read as true; maxPooledBytes NaN is refused', () => {
    // A non-symmetric A: with hermitian taken as true the lower triangle would be mirrored.
    expect(() => L.pinv([[1, 5], [0, 1]], { hermitian: 'no' as never })).toThrow(/^pinv: option hermitian must be a boolean, got 'no'/);
    expect(() => lapis.gpu.memory({ maxPooledBytes: NaN })).toThrow(/^gpu\.memory: option maxPooledBytes/);
    expect(() => L.solve(A3(), B3(), null as never)).toThrow(/^solve: options must be an object, got null/);
  });
});
