// Elementwise ops of the tensor API on the CPU (src/ops/elementwise.ts, native/src/elementwise):
// every op × dtype × broadcast pattern against plain-JS reference loops (Math.fround for
// float32, Math.imul / |0 for int32, >>> 0 for uint32; numpy's formulas for complex division
// and NaN rules), a few ops against mathjs, the promotion tables, numpy's NaN/Inf/−0 results
// (values checked in numpy 2.4), integer wrap-around, and the typed errors.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import {
  add, sub, mul, div, pow, minimum, maximum, eq, ne, lt, le, gt, ge, logicalAnd, logicalOr, logicalNot, neg, abs, sign,
  sqrt, exp, log, log1p, expm1, sin, cos, tanh, sigmoid, conj, real, imag, angle, clamp, where, cast,
  Tensor, Complex, ShapeError, DTypeError, DeviceError, ArgumentError,
} from '../../src/index.js';
import { NATIVE_DTYPES as DTYPES, isComplex, type NativeDType as DType } from '../../src/core/dtype.js';
import { BINARY_OPS, UNARY_OPS, type BinaryOp, type UnaryOp } from '../../src/backend/ops.js';
import { BINARY_OP_CODES, UNARY_OP_CODES } from '../../src/backend/cpu/elementwise.js';
import { native } from '../../src/backend/cpu/binding.js';
import type { Operand } from '../../src/ops/operands.js';

const math = create(all);
const F32_EPS = 2 ** -23, F64_EPS = 2 ** -52;

// ---------------------------------------------------------------- tensors and values

type Scalar = number | [number, number];

function storageFor(d: DType, n: number): Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array {
  switch (d) {
    case 'float32': return new Float32Array(n);
    case 'complex64': return new Float32Array(2 * n);
    case 'float64': return new Float64Array(n);
    case 'complex128': return new Float64Array(2 * n);
    case 'int32': return new Int32Array(n);
    case 'uint32': return new Uint32Array(n);
    case 'bool': return new Uint8Array(n);
  }
}

function make(d: DType, shape: readonly number[], vals: readonly Scalar[]): Tensor {
  const s = storageFor(d, vals.length);
  vals.forEach((v, i) => {
    if (isComplex(d)) { const [re, im] = v as [number, number]; s[2 * i] = re; s[2 * i + 1] = im; } else s[i] = v as number;
  });
  return Tensor.fromStorage(d, shape, s as never);
}

function values(t: Tensor): Scalar[] {
  const s = t.dataSync();
  const out: Scalar[] = [];
  for (let i = 0; i < t.size; i++) out.push(isComplex(t.dtype) ? [s[2 * i], s[2 * i + 1]] : s[i]);
  return out;
}

const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Element values of a dtype, rich in the edge cases (NaN, ±Inf, ±0, range ends). */
function realValue(d: DType): fc.Arbitrary<number> {
  switch (d) {
    case 'float32': case 'complex64':
      return fc.oneof(fc.float(), fc.integer({ min: -4, max: 4 }), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, -2.5));
    case 'float64': case 'complex128':
      return fc.oneof(fc.double(), fc.integer({ min: -4, max: 4 }), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, -2.5));
    case 'int32':
      return fc.oneof(fc.integer({ min: -4, max: 4 }), fc.integer(), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1));
    case 'uint32':
      return fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(2 ** 32 - 1, 2 ** 31));
    case 'bool':
      return fc.integer({ min: 0, max: 1 });
  }
}
function value(d: DType): fc.Arbitrary<Scalar> {
  return isComplex(d) ? fc.tuple(realValue(d), realValue(d)) : realValue(d);
}

/** An output shape (rank 0–5, dims 1–3, now and then 0) and operands broadcasting to it. */
function shapes(count: number): fc.Arbitrary<{ out: number[]; ops: number[][] }> {
  const dim = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 3 }), weight: 12 }, { arbitrary: fc.constant(0), weight: 1 });
  const operand = fc.tuple(fc.integer({ min: 0, max: 5 }), fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }));
  return fc.tuple(fc.array(dim, { maxLength: 5 }), fc.array(operand, { minLength: count, maxLength: count })).map(([out, specs]) => ({
    out,
    ops: specs.map(([drop, ones]) => out.slice(Math.min(drop, out.length)).map((d, i) => (ones[i] ? 1 : d))),
  }));
}

/** Tensors of dtype d over the given shapes. */
function tensorsOf(d: DType, shp: readonly (readonly number[])[]): fc.Arbitrary<Tensor[]> {
  return fc.tuple(...shp.map((s) => fc.array(value(d), { minLength: size(s), maxLength: size(s) }).map((v) => make(d, s, v))));
}

/** Flat index of operand `shape` for output index i of `out` (numpy broadcasting). */
function bIndex(i: number, out: readonly number[], shape: readonly number[]): number {
  let idx = 0, stride = 1;
  for (let k = out.length - 1, j = shape.length - 1; j >= 0; k--, j--) {
    const c = Math.floor(i / size(out.slice(k + 1))) % out[k];
    if (shape[j] !== 1) idx += c * stride;
    stride *= shape[j];
  }
  return idx;
}

function broadcastShape(...shp: (readonly number[])[]): number[] {
  const r = Math.max(...shp.map((s) => s.length));
  const out: number[] = [];
  for (let k = 0; k < r; k++) {
    let d = 1;
    for (const s of shp) { const v = s[s.length - r + k] ?? 1; if (v !== 1) d = v; }
    out.push(d);
  }
  return out;
}

// ---------------------------------------------------------------- comparisons

const sameValue = (a: number, b: number): boolean => (Number.isNaN(a) && Number.isNaN(b)) || Object.is(a, b);

function expectExact(got: Tensor, want: Scalar[], what: string): void {
  const g = values(got);
  expect(g.length, what).toBe(want.length);
  for (let i = 0; i < g.length; i++) {
    const x = g[i], y = want[i];
    const ok = Array.isArray(y) ? sameValue((x as number[])[0], y[0]) && sameValue((x as number[])[1], y[1]) : sameValue(x as number, y);
    if (!ok) expect.fail(`${what}: element ${i} is ${String(x)}, expected ${String(y)}`);
  }
}

/** |got − want| ≤ ulps·eps·max(|want|, tiny); NaN matches NaN, infinities match exactly. */
function closeUlps(got: number, want: number, ulps: number, eps: number, tiny: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= ulps * eps * Math.max(Math.abs(want), tiny);
}

function expectClose(got: Tensor, want: Scalar[], what: string, ulps: number): void {
  const eps = got.dtype === 'float32' || got.dtype === 'complex64' ? F32_EPS : F64_EPS;
  const tiny = eps === F32_EPS ? 2 ** -126 : 2 ** -1022;
  const g = values(got);
  expect(g.length, what).toBe(want.length);
  for (let i = 0; i < g.length; i++) {
    const x = g[i], y = want[i];
    let ok: boolean;
    if (Array.isArray(y)) {
      // complex: each part within ulps of |w| (the parts' own scale can be much smaller)
      const [xr, xi] = x as number[];
      if (![y[0], y[1]].every(Number.isFinite)) ok = sameValue(xr, y[0]) && sameValue(xi, y[1]);
      else {
        const m = Math.max(Math.hypot(y[0], y[1]), tiny);
        ok = Math.abs(xr - y[0]) <= ulps * eps * m && Math.abs(xi - y[1]) <= ulps * eps * m;
      }
    } else ok = closeUlps(x as number, y, ulps, eps, tiny);
    if (!ok) expect.fail(`${what}: element ${i} is ${String(x)}, expected ${String(y)} (±${ulps} ulps)`);
  }
}

// ---------------------------------------------------------------- references

/** Rounds a real result into dtype d (int32/uint32 wrap like the kernels). */
function roundTo(d: DType, x: number): number {
  switch (d) {
    case 'float32': case 'complex64': return Math.fround(x);
    case 'int32': return x | 0;
    case 'uint32': return x >>> 0;
    case 'bool': return x ? 1 : 0;
    default: return x;
  }
}

const isNum = (d: DType) => d !== 'bool';
const isFloatD = (d: DType) => d === 'float32' || d === 'float64';
const isIntD = (d: DType) => d === 'int32' || d === 'uint32';
const nz = (v: Scalar): boolean => (Array.isArray(v) ? v[0] !== 0 || v[1] !== 0 : v !== 0);

function ipow(a: number, b: number, d: DType): number {
  if (d === 'int32' && b < 0) return a === 1 ? 1 : a === -1 ? (b & 1 ? -1 : 1) : 0;
  let r = 1, x = a, e = d === 'uint32' ? b >>> 0 : b;
  while (e > 0) {
    if (e & 1) r = Math.imul(r, x);
    x = Math.imul(x, x);
    e = Math.floor(e / 2);
  }
  return roundTo(d, r);
}

/** numpy's complex multiply and Smith division, rounding each step in the dtype. */
function cmul(a: number[], b: number[], r: (x: number) => number): [number, number] {
  return [r(r(a[0] * b[0]) - r(a[1] * b[1])), r(r(a[0] * b[1]) + r(a[1] * b[0]))];
}
function cdiv(a: number[], b: number[], r: (x: number) => number): [number, number] {
  const [ar, ai] = a, [br, bi] = b;
  const abr = Math.abs(br), abi = Math.abs(bi);
  if (abr >= abi) {
    if (abr === 0 && abi === 0) return [r(ar / abr), r(ai / abi)];
    const rat = r(bi / br), scl = r(1 / r(br + r(bi * rat)));
    return [r(r(ar + r(ai * rat)) * scl), r(r(ai - r(ar * rat)) * scl)];
  }
  const rat = r(br / bi), scl = r(1 / r(bi + r(br * rat)));
  return [r(r(r(ar * rat) + ai) * scl), r(r(r(ai * rat) - ar) * scl)];
}

/** C's pow where JS's differs: pow(1, y) = 1 and pow(−1, ±Inf) = 1 (NaN in JS). */
function cPow(x: number, y: number): number {
  if (x === 1 || (x === -1 && (y === Infinity || y === -Infinity))) return 1;
  return Math.pow(x, y);
}

/** Exact reference of the binary ops (pow of floats: see POW_ULPS). */
function refBinary(op: BinaryOp, d: DType, a: Scalar, b: Scalar): Scalar {
  const r = (x: number) => roundTo(d, x);
  if (op === 'eq') return Array.isArray(a) ? +(a[0] === (b as number[])[0] && a[1] === (b as number[])[1]) : +(a === b);
  if (op === 'ne') return Array.isArray(a) ? +!(a[0] === (b as number[])[0] && a[1] === (b as number[])[1]) : +(a !== b);
  if (op === 'logicalAnd') return +(nz(a) && nz(b));
  if (op === 'logicalOr') return +(nz(a) || nz(b));
  if (Array.isArray(a)) {
    const bb = b as number[], f = (x: number) => roundTo(d, x);
    switch (op) {
      case 'add': return [f(a[0] + bb[0]), f(a[1] + bb[1])];
      case 'sub': return [f(a[0] - bb[0]), f(a[1] - bb[1])];
      case 'mul': return cmul(a, bb, f);
      case 'div': return cdiv(a, bb, f);
      default: throw new Error(op);
    }
  }
  const x = a, y = b as number;
  switch (op) {
    case 'lt': return +(x < y);
    case 'le': return +(x <= y);
    case 'gt': return +(x > y);
    case 'ge': return +(x >= y);
    case 'minimum': return x < y || Number.isNaN(x) ? x : y;
    case 'maximum': return x > y || Number.isNaN(x) ? x : y;
    case 'add': return r(x + y);
    case 'sub': return r(x - y);
    case 'mul': return isIntD(d) ? roundTo(d, Math.imul(x, y)) : r(x * y);
    case 'div': return r(x / y);
    case 'pow': return isIntD(d) ? ipow(x, y, d) : r(cPow(x, y));
  }
  throw new Error(op);
}

/** The (op, dtype) pairs the registry takes after promotion (the public layer refuses or promotes the rest). */
function binaryTakes(op: BinaryOp, d: DType): boolean {
  if (isComplex(d)) return !['minimum', 'maximum', 'lt', 'le', 'gt', 'ge', 'pow'].includes(op);
  if (d === 'bool') return !['add', 'sub', 'mul', 'div', 'pow'].includes(op);
  if (isIntD(d)) return op !== 'div';
  return true;
}

const BINARY_FN: Record<BinaryOp, (a: Operand, b: Operand) => Tensor> = {
  add, sub, mul, div, pow, minimum, maximum, eq, ne, lt, le, gt, ge, logicalAnd, logicalOr,
};
const UNARY_FN: Record<UnaryOp, (x: Operand) => Tensor> = {
  neg, abs, sign, sqrt, exp, log, log1p, expm1, sin, cos, tanh, sigmoid, conj, real, imag, angle, logicalNot,
};

// Real transcendental references in float64 (rounded to float32 for float32).
const REAL_FN: Partial<Record<UnaryOp, (x: number) => number>> = {
  sqrt: Math.sqrt, exp: Math.exp, log: Math.log, log1p: Math.log1p, expm1: Math.expm1, sin: Math.sin, cos: Math.cos,
  tanh: Math.tanh, sigmoid: (x) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x))),
};

type C = [number, number];
const cexp = ([x, y]: number[]): C => (y === 0 ? [Math.exp(x), y] : [Math.exp(x) * Math.cos(y), Math.exp(x) * Math.sin(y)]);
const COMPLEX_FN: Partial<Record<UnaryOp, (z: number[]) => C>> = {
  sqrt: ([x, y]) => {
    if (x === 0 && y === 0) return [0, y];
    const t = Math.sqrt((Math.abs(x) + Math.hypot(x, y)) / 2);
    return x >= 0 ? [t, y / (2 * t)] : [Math.abs(y) / (2 * t), y < 0 || Object.is(y, -0) ? -t : t];
  },
  exp: cexp,
  log: ([x, y]) => [Math.log(Math.hypot(x, y)), Math.atan2(y, x)],
  log1p: ([x, y]) => [
    Math.abs(x) > 0.5 || Math.abs(y) > 0.5 ? Math.log(Math.hypot(1 + x, y)) : 0.5 * Math.log1p(x * (2 + x) + y * y), Math.atan2(y, 1 + x),
  ],
  expm1: ([x, y]) => [Math.expm1(x) * Math.cos(y) - 2 * Math.sin(y / 2) ** 2, Math.exp(x) * Math.sin(y)],
  sin: ([x, y]) => [Math.sin(x) * Math.cosh(y), Math.cos(x) * Math.sinh(y)],
  cos: ([x, y]) => [Math.cos(x) * Math.cosh(y), -Math.sin(x) * Math.sinh(y)],
  tanh: ([x, y]) => {
    const den = Math.cosh(2 * x) + Math.cos(2 * y);
    return [Math.sinh(2 * x) / den, Math.sin(2 * y) / den];
  },
  sigmoid: (z) => cdiv([1, 0], ((e) => [1 + e[0], e[1]])(cexp([-z[0], -z[1]])), (v) => v),
  sign: ([x, y]) => { const m = Math.hypot(x, y); return m === 0 ? [0, 0] : [x / m, y / m]; },
};

/** The exact unary reference (neg, abs, sign of reals/integers, parts, logicalNot). */
function refUnaryExact(op: UnaryOp, d: DType, v: Scalar): Scalar {
  if (op === 'logicalNot') return +!nz(v);
  if (Array.isArray(v)) {
    switch (op) {
      case 'neg': return [-v[0], -v[1]];
      case 'conj': return [v[0], -v[1]];
      case 'real': return v[0];
      case 'imag': return v[1];
      default: throw new Error(op);
    }
  }
  switch (op) {
    case 'neg': return roundTo(d, -v);
    case 'abs': return roundTo(d, Math.abs(v));
    case 'sign': return Number.isNaN(v) ? v : v > 0 ? 1 : v < 0 ? roundTo(d, -1) : 0;
    case 'conj': case 'real': return v;
    case 'imag': return 0;
    case 'angle': return roundTo(d, Math.atan2(0, v));
    default: throw new Error(op);
  }
}

// ---------------------------------------------------------------- tests

describe('op codes', () => {
  it('the TS code tables and the addon agree, and cover ops.ts', () => {
    const byCode = (t: Readonly<Record<string, number>>) => Object.entries(t).sort((a, b) => a[1] - b[1]).map(([k]) => k);
    expect(native().elementwiseOpNames({ table: 0 })).toEqual(byCode(UNARY_OP_CODES));
    expect(native().elementwiseOpNames({ table: 1 })).toEqual(byCode(BINARY_OP_CODES));
    expect(byCode(UNARY_OP_CODES).sort()).toEqual([...UNARY_OPS].sort());
    expect(byCode(BINARY_OP_CODES).sort()).toEqual([...BINARY_OPS].sort());
    expect(Object.values(UNARY_OP_CODES).sort((a, b) => a - b)).toEqual(UNARY_OPS.map((_, i) => i));
  });
});

describe('binary ops: every op × dtype × broadcast pattern against reference loops', () => {
  for (const op of BINARY_OPS) {
    it(op, () => {
      const dts = DTYPES.filter((d) => binaryTakes(op, d));
      expect(dts.length).toBeGreaterThan(0);
      fc.assert(fc.property(
        fc.constantFrom(...dts).chain((d) => shapes(2).chain((s) => tensorsOf(d, s.ops).map((t) => ({ d, s, t })))),
        ({ d, t: [a, b] }) => {
          const got = BINARY_FN[op](a, b);
          const outShape = broadcastShape(a.shape, b.shape);
          expect(got.shape).toEqual(outShape);
          const va = values(a), vb = values(b);
          const want: Scalar[] = [];
          for (let i = 0; i < size(outShape); i++) want.push(refBinary(op, d, va[bIndex(i, outShape, a.shape)], vb[bIndex(i, outShape, b.shape)]));
          const what = `${op} ${d} ${JSON.stringify(a.shape)}∘${JSON.stringify(b.shape)}`;
          if (op === 'pow' && isFloatD(d)) expectClose(got, want, what, 2);
          else expectExact(got, want, what);
        },
      ), { numRuns: 60 });
    });
  }

  it('each named broadcast pattern, every op × dtype (deterministic values)', () => {
    // [a's shape, b's shape]; a JS scalar b is tested with 'scalar'
    const PATTERNS: Record<string, [number[], number[] | 'scalar']> = {
      'same shape': [[2, 3], [2, 3]], 'JS scalar': [[2, 3], 'scalar'], '0-d tensor': [[2, 3], []], row: [[3, 4], [4]],
      column: [[3, 4], [3, 1]], 'outer (column × row)': [[3, 1], [1, 4]], 'empty dim': [[0, 3], [3]], 'rank 5': [[2, 1, 3, 1, 2], [3, 2, 1]],
      'scalar first': [[], [2, 2]],
    };
    const pool: Record<DType, Scalar[]> = {
      float32: [1.5, -0, NaN, 2, -3.25, Infinity, 0, 1e-3], float64: [1.5, -0, NaN, 2, -3.25, -Infinity, 0, 1e300],
      complex64: [[1, 2], [0, 0], [-1.5, 0.5], [NaN, 1], [3, -4]], complex128: [[1, 2], [0, -0], [-1.5, 0.5], [2, Infinity], [3, -4]],
      int32: [3, -1, 0, 2 ** 31 - 1, -7, 2, -(2 ** 31)], uint32: [3, 0, 2 ** 32 - 1, 7, 1, 2 ** 31], bool: [1, 0, 0, 1, 1],
    };
    let checked = 0;
    for (const op of BINARY_OPS) {
      for (const d of DTYPES.filter((dt) => binaryTakes(op, dt))) {
        for (const [name, [sa, sb]] of Object.entries(PATTERNS)) {
          const vals = (n: number, k: number) => Array.from({ length: n }, (_, i) => pool[d][(i * 3 + k) % pool[d].length]);
          const a = make(d, sa, vals(size(sa), 0));
          const scalarB = sb === 'scalar';
          const shapeB = scalarB ? [] : sb;
          const b = make(d, shapeB, vals(size(shapeB), 1));
          // A JS scalar of b's value: its kind keeps d (int/float/bool/complex scalars only raise the category).
          const bv = values(b)[0];
          const jsB: Operand = !scalarB ? b : d === 'bool' ? bv === 1 : Array.isArray(bv) ? new Complex(bv[0], bv[1]) : (bv as number);
          const got = BINARY_FN[op](a, jsB);
          const out = broadcastShape(a.shape, b.shape);
          expect(got.shape, `${op} ${d} ${name}`).toEqual(out);
          const va = values(a), vb = values(b);
          const want: Scalar[] = [];
          for (let i = 0; i < size(out); i++) want.push(refBinary(op, d, va[bIndex(i, out, a.shape)], vb[bIndex(i, out, b.shape)]));
          if (op === 'pow' && isFloatD(d)) expectClose(got, want, `${op} ${d} ${name}`, 2);
          else expectExact(got, want, `${op} ${d} ${name}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('complex pow against exp(w·log z) (and numpy\'s z^0 = 1, 0^w rules)', () => {
    // |parts| ≥ 1e-3 (or 0): no result past float32's range.
    const part = fc.oneof(fc.double({ min: -3, max: 3, noNaN: true }).map((x) => (Math.abs(x) < 1e-3 ? 0 : x)), fc.integer({ min: -3, max: 3 }));
    fc.assert(fc.property(
      fc.constantFrom<DType>('complex64', 'complex128'), fc.array(fc.tuple(part, part, part, part), { minLength: 1, maxLength: 8 }),
      (d, rows) => {
        const r = (x: number) => roundTo(d, x);
        const a = make(d, [rows.length], rows.map(([x, y]) => [r(x), r(y)]));
        const b = make(d, [rows.length], rows.map(([, , x, y]) => [r(x), r(y)]));
        const want: Scalar[] = values(a).map((z, i) => {
          const [zr, zi] = z as number[], [wr, wi] = values(b)[i] as number[];
          if (wr === 0 && wi === 0) return [1, 0];
          if (zr === 0 && zi === 0) return wr > 0 && wi === 0 ? [0, 0] : [NaN, NaN];
          const lr = Math.log(Math.hypot(zr, zi)), li = Math.atan2(zi, zr);
          return cexp([wr * lr - wi * li, wr * li + wi * lr]);
        });
        expectClose(pow(a, b), want, `pow ${d}`, d === 'complex64' ? 64 : 2 ** 12);
      },
    ), { numRuns: 40 });
  });

  it('large operands cross the thread pool\'s chunks (row, column and same-shape broadcast, 265k elements)', () => {
    const m = 257, n = 1031;
    const A = make('float64', [m, n], Array.from({ length: m * n }, (_, i) => (i % 977) - 400.5));
    const row = make('float64', [n], Array.from({ length: n }, (_, j) => j * 0.25));
    const col = make('float64', [m, 1], Array.from({ length: m }, (_, i) => -i));
    for (const [B, name] of [[row, 'row'], [col, 'column'], [A, 'same']] as const) {
      const got = values(add(A, B)) as number[];
      const va = values(A) as number[], vb = values(B) as number[];
      for (let i = 0; i < m * n; i++) {
        const w = va[i] + vb[bIndex(i, [m, n], B.shape)];
        if (got[i] !== w) expect.fail(`add ${name}: element ${i} is ${got[i]}, expected ${w}`);
      }
    }
    const cond = make('bool', [m, 1], Array.from({ length: m }, (_, i) => i % 3 === 0 ? 1 : 0));
    const w = values(where(cond, A, row)) as number[];
    const va = values(A) as number[];
    for (let i = 0; i < m * n; i++) {
      const want = Math.floor(i / n) % 3 === 0 ? va[i] : (i % n) * 0.25;
      if (w[i] !== want) expect.fail(`where: element ${i} is ${w[i]}, expected ${want}`);
    }
  });
});

describe('unary ops: every op × dtype against reference loops', () => {
  const EXACT: UnaryOp[] = ['neg', 'abs', 'sign', 'conj', 'real', 'imag', 'logicalNot', 'angle'];
  for (const op of UNARY_OPS) {
    it(op, () => {
      fc.assert(fc.property(
        fc.constantFrom(...DTYPES).chain((d) => shapes(1).chain((s) => tensorsOf(d, s.ops).map((t) => ({ d, t: t[0] })))),
        ({ d, t: x }) => {
          const got = UNARY_FN[op](x);
          expect(got.shape).toEqual(x.shape);
          const what = `${op} ${d} ${JSON.stringify(x.shape)}`;
          // The dtype the op computes in: bool arithmetic in int32, float functions of integers in float32.
          const floatFn = !EXACT.includes(op) || op === 'angle';
          let cd: DType = d;
          if (d === 'bool' && ['neg', 'abs', 'sign'].includes(op)) cd = 'int32';
          if ((isIntD(d) || d === 'bool') && floatFn) cd = 'float32';
          const vx = values(x).map((v) => (Array.isArray(v) ? v : cd === 'float32' && !isFloatD(d) ? Math.fround(v) : v));
          if (isComplex(d) && op !== 'neg' && op !== 'conj' && op !== 'real' && op !== 'imag' && op !== 'logicalNot') {
            const rd: DType = d === 'complex64' ? 'float32' : 'float64';
            if (op === 'abs' || op === 'angle') {
              const f = op === 'abs' ? (z: number[]) => Math.hypot(z[0], z[1]) : (z: number[]) => Math.atan2(z[1], z[0]);
              expect(got.dtype).toBe(rd);
              expectClose(got, vx.map((z) => roundTo(rd, f(z as number[]))), what, 2);
            } else {
              // complex transcendental functions: finite, not subnormal inputs only (C99 Annex G's special
              // cases are libm's; the plain-JS formulas lose accuracy on subnormals)
              const small = d === 'complex64' ? 1e-30 : 1e-300;
              const fin = vx.map((z) => (z as number[]).map((p) => (!Number.isFinite(p) || Math.abs(p) > 20 ? 0.5 : Math.abs(p) < small ? 0 : p)));
              const xin = make(d, x.shape, fin as Scalar[]);
              const g2 = UNARY_FN[op](xin);
              expectClose(g2, fin.map((z) => COMPLEX_FN[op]!(z).map((p) => roundTo(d, p)) as C), what, d === 'complex64' ? 64 : 4096);
            }
            return;
          }
          expect(got.dtype, what).toBe(op === 'logicalNot' ? 'bool' : isComplex(d) && (op === 'real' || op === 'imag') ? (d === 'complex64' ? 'float32' : 'float64') : cd);
          if (EXACT.includes(op)) expectExact(got, vx.map((v) => refUnaryExact(op, cd, v)), what);
          else expectClose(got, vx.map((v) => roundTo(cd, REAL_FN[op]!(v as number))), what, cd === 'float32' ? 4 : 4);
        },
      ), { numRuns: 50 });
    });
  }
});

describe('exp, expm1, sin, cos, sigmoid, tanh, log, log1p of float32/float64 over their whole range (the SIMD spans on x86)', () => {
  // Dense grids (lengths off the vector widths, so the masked tails run too), the
  // overflow/underflow edges, subnormal results, ±0, ±Inf and NaN, against V8's fdlibm
  // (under 1 ulp) rounded to the dtype: bounds in ulps of the result, one of them for the
  // reference's own error.
  /**
   * got[i] against ref(x[i]) rounded to the dtype: NaN for NaN, infinities and zeros exactly
   * (a zero of either sign where anyZero), else within `ulps` ulps of the result.
   */
  const expectUlps = (op: string, dtype: 'float32' | 'float64', x: ArrayLike<number>, got: ArrayLike<number>,
    ref: (v: number) => number, ulps: number, anyZero: boolean) => {
    const eps = dtype === 'float32' ? F32_EPS : F64_EPS, tiny = dtype === 'float32' ? 2 ** -126 : 2 ** -1022;
    for (let i = 0; i < x.length; i++) {
      const want = dtype === 'float32' ? Math.fround(ref(x[i])) : ref(x[i]);
      const g = got[i];
      const ok = Number.isNaN(want) ? Number.isNaN(g)
        : !Number.isFinite(want) || want === 0 ? Object.is(g, want) || (anyZero && want === 0 && g === 0)
          : Math.abs(g - want) <= ulps * eps * Math.max(Math.abs(want), tiny);
      if (!ok) expect.fail(`${op} ${dtype}(${x[i]}) = ${g}, expected ${want} (±${ulps} ulps)`);
    }
  };
  const sigmoidRef = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));
  const cases = [
    { op: 'exp', fn: exp, ref: Math.exp, ulps: 2, f32: [-104, 89], f64: [-746, 710] },
    { op: 'sigmoid', fn: sigmoid, ref: sigmoidRef, ulps: 3, f32: [-104, 30], f64: [-746, 40] },
    { op: 'tanh', fn: tanh, ref: Math.tanh, ulps: 4, f32: [-12, 12], f64: [-25, 25] },
    { op: 'expm1', fn: expm1, ref: Math.expm1, ulps: 2, f32: [-104, 89], f64: [-746, 710] },
    // Past 71476 (float) and 1e5 (double) the lanes go to libm: the ranges cross it.
    { op: 'sin', fn: sin, ref: Math.sin, ulps: 2, f32: [-8e4, 8e4], f64: [-2e5, 2e5] },
    { op: 'cos', fn: cos, ref: Math.cos, ulps: 2, f32: [-8e4, 8e4], f64: [-2e5, 2e5] },
  ] as const;
  // Multiples of π/2 (rounded to the dtype), where the reduced argument is smallest.
  const quadrants = Array.from({ length: 4000 }, (_, k) => ((k % 2 ? -1 : 1) * k * Math.PI) / 2);
  const edges32 = [88.72283, 88.7228394, 88.72284, -87.33654, -87.3366, -103.27893, -103.9720, -103.9721, -0.625, 0.625, 0.62500006];
  const edges64 = [709.782712893384, 709.7827128933841, -708.3964185322641, -708.4, -744.44007, -745.1332191019411, -745.1332191019412, -0.625, 0.625, 0.6250000000000001];
  const specials = [0, -0, Infinity, -Infinity, NaN, 1e-30, -1e-30, 2 ** -126, -(2 ** -130), 1e-300, -1e-310, 5e-324];
  for (const { op, fn, ref, ulps, f32, f64 } of cases)
    for (const dtype of ['float32', 'float64'] as const) {
      it(`${op} ${dtype}`, () => {
        const [lo, hi] = dtype === 'float32' ? f32 : f64;
        const grid = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
        const trig = op === 'sin' || op === 'cos' ? [...quadrants, ...grid(-20, 20, 40009), 71475.9, 71477, 1e5, 1e20, -1e20] : [];
        const xs = [...grid(lo, hi, 20011), ...grid(-1e-3, 1e-3, 2003), ...grid(-2, 2, 4001), ...(dtype === 'float32' ? edges32 : edges64), ...specials, ...trig];
        const C = dtype === 'float32' ? Float32Array : Float64Array;
        const x = C.from(xs);
        expectUlps(op, dtype, x, fn(Tensor.fromStorage(dtype, [x.length], x)).dataSync(), ref, ulps, op !== 'tanh');
      });
    }
  for (const [op, fn, ref] of [['log', log, Math.log], ['log1p', log1p, Math.log1p]] as const)
    for (const dtype of ['float32', 'float64'] as const) {
      it(`${op} ${dtype}: subnormal to the largest finite, around ${op === 'log' ? 1 : 0}, and the special values`, () => {
        const [lo, hi] = dtype === 'float32' ? [1e-45, 3.4e38] : [5e-324, 1.7e308];
        const geo = Array.from({ length: 40009 }, (_, i) => lo * (hi / lo) ** (i / 40008));
        const c = op === 'log' ? 1 : 0;
        const near = Array.from({ length: 4001 }, (_, i) => c - 1e-3 + (2e-3 * i) / 4000);
        const extra = op === 'log' ? [Math.SQRT2, Math.SQRT1_2, 0.5, 2, Math.E]
          : [...geo.map((v) => -v).filter((v) => v > -1), ...Array.from({ length: 4001 }, (_, i) => -1 + (3 * i) / 4000), -0.999999, -1];
        const xs = [...geo, ...near, ...extra, ...specials, -1.5, -(2 ** -140)];
        const C = dtype === 'float32' ? Float32Array : Float64Array;
        const x = C.from(xs);
        expectUlps(op, dtype, x, fn(Tensor.fromStorage(dtype, [x.length], x)).dataSync(), ref, 2, false);
      });
    }
});

describe('mathjs agrees (complex128 and float64)', () => {
  it('complex arithmetic and functions', () => {
    // parts 0 or ≥ 1e-3: mathjs's own formulas underflow on subnormals, and pow stays in range
    const part = fc.double({ min: -5, max: 5, noNaN: true }).map((x) => (Math.abs(x) < 1e-3 ? 0 : x));
    fc.assert(fc.property(fc.array(fc.tuple(part, part, part, part), { minLength: 1, maxLength: 6 }), (rows) => {
      const a = make('complex128', [rows.length], rows.map(([x, y]) => [x, y === 0 ? 0.25 : y]));
      const b = make('complex128', [rows.length], rows.map(([, , x, y]) => [x, y === 0 ? 0.5 : y]));
      const za = values(a).map((z) => math.complex((z as number[])[0], (z as number[])[1]));
      const zb = values(b).map((z) => math.complex((z as number[])[0], (z as number[])[1]));
      const check = (got: Tensor, want: ReturnType<typeof math.complex>[], what: string, tol: number) => {
        values(got).forEach((g, i) => {
          const w = want[i] as unknown as { re: number; im: number };
          const m = Math.max(Math.hypot(w.re, w.im), 1e-300);
          expect(Math.abs((g as number[])[0] - w.re) / m, what).toBeLessThan(tol);
          expect(Math.abs((g as number[])[1] - w.im) / m, what).toBeLessThan(tol);
        });
      };
      check(add(a, b), za.map((z, i) => math.add(z, zb[i]) as never), 'add', 1e-15);
      check(mul(a, b), za.map((z, i) => math.multiply(z, zb[i]) as never), 'mul', 1e-15);
      check(div(a, b), za.map((z, i) => math.divide(z, zb[i]) as never), 'div', 1e-15);
      check(sqrt(a), za.map((z) => math.sqrt(z) as never), 'sqrt', 1e-15);
      check(exp(a), za.map((z) => math.exp(z) as never), 'exp', 1e-14);
      check(log(a), za.map((z) => math.log(z) as never), 'log', 1e-14);
      check(sin(a), za.map((z) => math.sin(z) as never), 'sin', 1e-14);
      check(cos(a), za.map((z) => math.cos(z) as never), 'cos', 1e-14);
      check(pow(a, b), za.map((z, i) => math.pow(z, zb[i]) as never), 'pow', 1e-12);
    }), { numRuns: 30 });
  });

  it('float64 arithmetic, pow and functions', () => {
    const v = fc.double({ min: -50, max: 50, noNaN: true });
    fc.assert(fc.property(fc.array(fc.tuple(v, v), { minLength: 1, maxLength: 8 }), (rows) => {
      const a = make('float64', [rows.length], rows.map((r) => r[0]));
      const b = make('float64', [rows.length], rows.map((r) => Math.abs(r[1]) / 10));
      const pa = make('float64', [rows.length], rows.map((r) => Math.abs(r[0])));
      const va = values(a) as number[], vb = values(b) as number[], vpa = values(pa) as number[];
      const rel = (g: number, w: number) => Math.abs(g - w) / Math.max(Math.abs(w), 1e-300);
      values(sub(a, b)).forEach((g, i) => expect(g).toBe(math.subtract(va[i], vb[i])));
      values(pow(pa, b)).forEach((g, i) => expect(rel(g as number, math.pow(vpa[i], vb[i]) as number)).toBeLessThan(1e-14));
      values(tanh(a)).forEach((g, i) => expect(rel(g as number, math.tanh(va[i]))).toBeLessThan(1e-15));
      values(expm1(b)).forEach((g, i) => expect(rel(g as number, math.expm1(vb[i]))).toBeLessThan(1e-15));
    }), { numRuns: 30 });
  });
});

describe('cast: all 7 × 7 dtype pairs', () => {
  function refCast(v: Scalar, from: DType, to: DType): Scalar {
    if (to === 'bool') return +nz(v);
    if (isComplex(to)) return Array.isArray(v) ? [roundTo(to, v[0]), roundTo(to, v[1])] : [roundTo(to, v), 0];
    const x = v as number;
    if (isIntD(to) && isFloatD(from)) {
      if (Number.isNaN(x)) return 0;
      const lo = to === 'int32' ? -(2 ** 31) : 0, hi = to === 'int32' ? 2 ** 31 - 1 : 2 ** 32 - 1;
      return x <= lo ? lo : x >= hi + 1 ? hi : Math.trunc(x) + 0;
    }
    return roundTo(to, x);
  }
  it('every pair against the reference (complex → real refused)', () => {
    fc.assert(fc.property(
      fc.constantFrom(...DTYPES), fc.constantFrom(...DTYPES).chain((d) => fc.array(value(d), { maxLength: 12 }).map((v) => ({ d, v }))),
      (to, { d, v }) => {
        const x = make(d, [v.length], v);
        if (isComplex(d) && !isComplex(to) && to !== 'bool') {
          expect(() => cast(x, to)).toThrow(DTypeError);
          return;
        }
        const got = cast(x, to);
        expect(got.dtype).toBe(to);
        if (to === d) expect(got).toBe(x);
        expectExact(got, values(x).map((s) => refCast(s, d, to)), `cast ${d} → ${to}`);
      },
    ), { numRuns: 150 });
  });

  it('float → integer truncates, NaN → 0, saturates; int32 ↔ uint32 wraps; complex cond → bool', () => {
    expectExact(cast(make('float64', [6], [1.7, -1.7, NaN, 1e10, -1e10, -0.5]), 'int32'), [1, -1, 0, 2 ** 31 - 1, -(2 ** 31), 0], 'f64→i32');
    expectExact(cast(make('float32', [4], [-3, 5e9, NaN, 4.9]), 'uint32'), [0, 2 ** 32 - 1, 0, 4], 'f32→u32');
    expectExact(cast(make('int32', [2], [-1, -(2 ** 31)]), 'uint32'), [2 ** 32 - 1, 2 ** 31], 'i32→u32');
    expectExact(cast(make('uint32', [1], [2 ** 32 - 1]), 'int32'), [-1], 'u32→i32');
    expectExact(cast(make('float64', [3], [0, -0, NaN]), 'bool'), [0, 0, 1], 'f64→bool');
    expectExact(where(make('complex64', [3], [[0, 0], [0, 1], [NaN, 0]]), 1, 0), [0, 1, 1], 'complex cond');
    expectExact(cast(make('complex128', [2], [[0, -0], [0, 1e-300]]), 'bool'), [0, 1], 'complex → bool');
  });
});

describe('numpy 2 semantics (values checked in numpy 2.4)', () => {
  it('NaN, ±Inf and −0', () => {
    expectExact(sign(make('float32', [4], [-0, 0, NaN, -Infinity])), [0, 0, NaN, -1], 'sign');
    expectExact(maximum(make('float64', [2], [-0, 0]), make('float64', [2], [0, -0])), [0, -0], 'maximum(±0)');
    expectExact(minimum(make('float64', [2], [-0, 0]), make('float64', [2], [0, -0])), [0, -0], 'minimum(±0)');
    expectExact(maximum(make('float32', [2], [NaN, 1]), make('float32', [2], [1, NaN])), [NaN, NaN], 'maximum NaN');
    expectExact(angle(make('float64', [4], [-0, 0, -1, NaN])), [Math.PI, 0, Math.PI, NaN], 'angle');
    expectExact(sqrt(make('float32', [2], [-0, -1])), [-0, NaN], 'sqrt');
    expectExact(div(make('float32', [3], [1, -1, 0]), 0), [Infinity, -Infinity, NaN], 'div by 0');
    expectExact(add(make('float32', [2], [-0, -0]), make('float32', [2], [-0, 0])), [-0, 0], '−0 + ±0');
    expectExact(pow(make('float64', [4], [0, 1, NaN, -1]), make('float64', [4], [-1, NaN, 0, Infinity])), [Infinity, 1, 1, 1], 'pow');
    expectExact(eq(make('float64', [1], [NaN]), NaN), [0], 'NaN == NaN');
    expectExact(ne(make('float64', [1], [NaN]), NaN), [1], 'NaN != NaN');
    expectExact(sign(make('complex64', [2], [[3, 4], [0, 0]])), [[0.6000000238418579, 0.800000011920929], [0, 0]], 'sign complex');
    expectExact(sqrt(make('complex128', [2], [[-4, 0], [-4, -0]])), [[0, 2], [0, -2]], 'sqrt complex branch cut');
    expectExact(pow(make('complex128', [2], [[0, 0], [0, 0]]), make('complex128', [2], [[0, 0], [1, 0]])), [[1, 0], [0, 0]], '0^0');
    expectExact(abs(make('complex128', [1], [[1e300, 1e300]])), [Math.hypot(1e300, 1e300)], 'abs without overflow');
    expectExact(tanh(make('complex128', [1], [[1000, 1]])), [[1, 0]], 'tanh(1000+i)');
    expect((values(sigmoid(make('float32', [1], [-100])))[0] as number) / 3.720075976020836e-44).toBeCloseTo(1, 1);
  });

  it('integer wrap-around, division, powers and unsigned comparisons', () => {
    const I = (...v: number[]) => make('int32', [v.length], v);
    const U = (...v: number[]) => make('uint32', [v.length], v);
    expectExact(add(I(2 ** 31 - 1), 1), [-(2 ** 31)], 'int32 overflow');
    expectExact(mul(I(65536), I(65536)), [0], 'int32 mul wraps');
    expectExact(sub(U(0), 1), [2 ** 32 - 1], 'uint32 underflow');
    expectExact(neg(U(1)), [2 ** 32 - 1], 'neg uint32');
    expectExact(abs(I(-(2 ** 31), -3)), [-(2 ** 31), 3], 'abs(INT_MIN)');
    expectExact(pow(I(2, -1, -1, 3, 0, 0, 2), I(-1, -3, -2, 0, 0, -1, 31)), [0, -1, 1, 1, 1, 0, -(2 ** 31)], 'int pow');
    const q = div(I(1, -7, 0), I(2, 2, 0));
    expect(q.dtype).toBe('float32');
    expectExact(q, [0.5, -3.5, NaN], 'int / int');
    expectExact(gt(U(3e9, 1), U(1, 3e9)), [1, 0], 'unsigned >');
    expectExact(lt(U(2 ** 32 - 1), 0), [0], 'uint32 < 0');
    const bb = add(make('bool', [2], [1, 1]), make('bool', [2], [1, 0]));
    expect(bb.dtype).toBe('int32');
    expectExact(bb, [2, 1], 'bool + bool');
    expect(neg(make('bool', [1], [1])).dtype).toBe('int32');
    expectExact(maximum(make('bool', [2], [0, 1]), make('bool', [2], [0, 0])), [0, 1], 'bool maximum');
  });
});

describe('promotion', () => {
  const T = (d: DType) => make(d, [1], [isComplex(d) ? [1, 0] : 1]);
  // torch's table without int64 (rows and columns in DTYPES order); null: no common dtype.
  const TABLE: Record<DType, (DType | null)[]> = {
    float32: ['float32', 'float64', 'complex64', 'complex128', 'float32', 'float32', 'float32'],
    float64: ['float64', 'float64', 'complex128', 'complex128', 'float64', 'float64', 'float64'],
    complex64: ['complex64', 'complex128', 'complex64', 'complex128', 'complex64', 'complex64', 'complex64'],
    complex128: ['complex128', 'complex128', 'complex128', 'complex128', 'complex128', 'complex128', 'complex128'],
    int32: ['float32', 'float64', 'complex64', 'complex128', 'int32', null, 'int32'],
    uint32: ['float32', 'float64', 'complex64', 'complex128', null, 'uint32', 'uint32'],
    bool: ['float32', 'float64', 'complex64', 'complex128', 'int32', 'uint32', 'bool'],
  };
  it('tensor with tensor: the table, int32 with uint32 a DTypeError naming both', () => {
    for (const a of DTYPES) {
      DTYPES.forEach((b, j) => {
        const want = TABLE[a][j];
        if (want === null) {
          expect(() => add(T(a), T(b))).toThrow(DTypeError);
          expect(() => where(true, T(a), T(b))).toThrow(new RegExp(`^where: a is ${a} and b is ${b}`));
          return;
        }
        expect(where(true, T(a), T(b)).dtype, `${a}, ${b}`).toBe(want);
        // arithmetic lifts bool to int32; division computes in a float type
        const arith = want === 'bool' ? 'int32' : want;
        expect(add(T(a), T(b)).dtype, `add ${a}, ${b}`).toBe(arith);
        expect(div(T(a), T(b)).dtype, `div ${a}, ${b}`).toBe(isComplex(want) || isFloatD(want) ? want : 'float32');
      });
    }
  });

  it('tensor with a JS scalar of each kind (a scalar only raises the category)', () => {
    const kinds: [Operand, number][] = [[true, 0], [3, 1], [0.5, 2], [new Complex(1, 1), 3]];
    const SCALAR: Record<DType, DType[]> = {
      float32: ['float32', 'float32', 'float32', 'complex64'],
      float64: ['float64', 'float64', 'float64', 'complex128'],
      complex64: ['complex64', 'complex64', 'complex64', 'complex64'],
      complex128: ['complex128', 'complex128', 'complex128', 'complex128'],
      int32: ['int32', 'int32', 'float32', 'complex64'],
      uint32: ['uint32', 'uint32', 'float32', 'complex64'],
      bool: ['bool', 'int32', 'float32', 'complex64'],
    };
    for (const d of DTYPES) {
      for (const [s, k] of kinds) {
        expect(where(true, T(d), s).dtype, `${d} with ${String(s)}`).toBe(SCALAR[d][k]);
        expect(where(false, s, T(d)).dtype, `${String(s)} with ${d}`).toBe(SCALAR[d][k]);
      }
    }
    // scalars alone: tensor()'s dtypes
    expect(add(1, 2).dtype).toBe('float64');
    expectExact(add(1, 2), [3], '1 + 2');
    expect(logicalAnd(true, 0).dtype).toBe('bool');
    expect(mul(new Complex(0, 1), new Complex(0, 1)).dtype).toBe('complex128');
    expectExact(mul(new Complex(0, 1), 2), [[0, 2]], 'i·2');
    // a 0-d tensor is a tensor: it takes part in promotion
    expect(add(make('int32', [2], [1, 2]), make('float64', [], [0.5])).dtype).toBe('float64');
  });
});

describe('clamp and where', () => {
  it('clamp = minimum(maximum(x, min), max), torch\'s rules, bounds broadcast', () => {
    fc.assert(fc.property(
      fc.constantFrom<DType>('float32', 'float64', 'int32', 'uint32').chain((d) => shapes(3).chain((s) => tensorsOf(d, s.ops).map((t) => ({ d, t })))),
      fc.integer({ min: 0, max: 2 }),
      ({ d, t: [x, lo, hi] }, which) => {
        const got = clamp(x, which === 1 ? null : lo, which === 2 ? undefined : hi);
        const ref1 = which === 1 ? x : maximum(x, lo);
        const ref = which === 2 ? ref1 : minimum(ref1, hi);
        expect(got.dtype).toBe(d);
        expectExact(got, values(ref), `clamp ${d}`);
      },
    ), { numRuns: 60 });
    expectExact(clamp([-2, 0.5, 3, NaN], 0, 1), [0, 0.5, 1, NaN], 'clamp');
    expectExact(clamp([1, 2], 3, 0), [0, 0], 'min > max gives max');
    expectExact(clamp([1, 2], NaN), [NaN, NaN], 'NaN bound');
    expect(clamp(make('int32', [1], [5]), 0.5).dtype).toBe('float32');
  });

  it('where over three broadcast operands, every dtype, cond of any dtype', () => {
    fc.assert(fc.property(
      fc.tuple(fc.constantFrom(...DTYPES), fc.constantFrom(...DTYPES)).chain(([d, cd]) => shapes(3).chain((s) =>
        fc.tuple(tensorsOf(cd, [s.ops[0]]), tensorsOf(d, [s.ops[1], s.ops[2]])).map(([[c], [a, b]]) => ({ d, cd, c, a, b })))),
      ({ d, cd, c, a, b }) => {
        const got = where(c, a, b);
        const out = broadcastShape(c.shape, a.shape, b.shape);
        expect(got.shape).toEqual(out);
        expect(got.dtype).toBe(d);
        const vc = values(c), va = values(a), vb = values(b);
        const want: Scalar[] = [];
        for (let i = 0; i < size(out); i++) want.push(nz(vc[bIndex(i, out, c.shape)]) ? va[bIndex(i, out, a.shape)] : vb[bIndex(i, out, b.shape)]);
        expectExact(got, want, `where ${cd} ? ${d} : ${d}`);
      },
    ), { numRuns: 80 });
  });
});

describe('typed errors', () => {
  const x = make('float64', [2], [1, 2]);
  it('bad operands, shapes, dtypes and devices', () => {
    expect(() => add(x, 'a' as never)).toThrow(ArgumentError);
    expect(() => add(null as never, x)).toThrow(/^add: a is null/);
    expect(() => add(x, [1, 2, 3])).toThrow(ShapeError);
    expect(() => add(x, [1, 2, 3])).toThrow(/^add: /);
    expect(() => lt(make('complex64', [1], [[1, 0]]), 1)).toThrow(/^lt: complex operands/);
    expect(() => maximum(x, new Complex(1, 1))).toThrow(DTypeError);
    expect(() => clamp(x)).toThrow(ArgumentError);
    expect(() => clamp(make('complex128', [1], [[1, 1]]), 0)).toThrow(DTypeError);
    expect(() => cast(x, 'bfloat16' as never)).toThrow(DTypeError);
    expect(() => cast(make('complex64', [1], [[1, 1]]), 'float32')).toThrow(/^cast: x is complex64; casting it to float32/);
    expect(() => add(make('int32', [1], [1]), 2 ** 40)).toThrow(ArgumentError);
    expect(() => add(make('uint32', [1], [1]), -1)).toThrow(/^add: b is -1, outside uint32's range/);
    const gone = make('float64', [1], [1]);
    gone.dispose();
    expect(() => exp(gone)).toThrow(DeviceError);
    // A GPU tensor (a stand-in storage: the check comes before any GPU work).
    const g = Tensor.fromGpu('float32', [2], { buffer: null, byteLength: 8, release() {} });
    expect(() => add(x, g)).toThrow(DeviceError);
    expect(() => add(x, g)).toThrow(/^add: a is on cpu but b is on gpu/);
    expect(() => where(make('bool', [2], [1, 0]), g, 1)).toThrow(/^where: cond is on cpu but a is on gpu/);
  });

  it('the addon refuses what the public layer never sends', () => {
    const o = new Float64Array(2);
    expect(() => native().unary({ dtype: 4, op: UNARY_OP_CODES.exp, x: new Int32Array(2), out: new Int32Array(2) })).toThrow(TypeError);
    expect(() => native().unary({ dtype: 1, op: 99, x: o, out: o })).toThrow(RangeError);
    expect(() => native().binary({
      dtype: 1, op: 0, a: o, b: o, out: o, shape: Float64Array.of(3), aStrides: Float64Array.of(1), bStrides: Float64Array.of(1),
    })).toThrow(/reaches past an operand/);
    expect(() => native().cast({ from: 2, to: 0, x: new Float32Array(2), out: new Float32Array(1) })).toThrow(TypeError);
  });
});
