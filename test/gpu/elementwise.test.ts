// GPU elementwise entries (src/backend/gpu/elementwise.ts: cast, unary, binary, where)
// against plain-JS reference loops on float32 values (Math.fround), for every op and GPU
// dtype, every broadcast path (vec: same shape and scalar operands; strided: any
// broadcast, any rank), NaN/Inf/−0, sizes around the quad and tile boundaries, and one
// of 10 M elements; against the CPU entries where those are registered. Tolerances:
// bit-exact for the IEEE-exact ops (add/sub/mul/div of reals, comparisons, integer ops,
// casts); transcendental float32 within a few ulp (cephes polynomials, math.wgsl);
// complex functions relative to |result|. lavapipe flushes subnormal results, so
// arithmetic inputs stay clear of them (bit ops and casts take subnormals).
import { describe, expect } from 'vitest';
import * as lapis from '../../src/index.js';
import { Tensor, DTypeError } from '../../src/index.js';
import type { DType } from '../../src/core/dtype.js';
import { lookup, has as registered } from '../../src/backend/registry.js';
import { native } from '../../src/backend/cpu/binding.js';
import { elementwiseLayout, elementwiseLayoutN } from '../../src/core/broadcast.js';
import {
  UNARY_OPS, BINARY_OPS, unaryOutDtype, binaryOutDtype, type UnaryOp, type BinaryOp,
} from '../../src/backend/ops.js';
import { setElementwiseOpsByUniform } from '../../src/backend/gpu/elementwise.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

// The op-coverage tests (and the public-API one) run the shared kernels (op by uniform: a
// few dozen compiles on lavapipe instead of ~150); the broadcast, where, size and cast
// tests and 'the per-op kernels' run the specialised kernels the library uses by default.
function sharedIt(name: string, fn: () => Promise<void>, timeout?: number): void {
  gpuIt(name, async () => {
    setElementwiseOpsByUniform(true);
    try { await fn(); } finally { setElementwiseOpsByUniform(false); }
  }, timeout);
}

type G = 'float32' | 'complex64' | 'int32' | 'uint32' | 'bool';
const GPU_DTYPES: readonly G[] = ['float32', 'complex64', 'int32', 'uint32', 'bool'];
const EPS = 2 ** -24; // half an ulp of 1
const f = Math.fround;
const PI32 = f(Math.PI);

function mk(dtype: G, shape: readonly number[], v: ArrayLike<number>): Tensor {
  const data = dtype === 'int32' ? Int32Array.from(v) : dtype === 'uint32' ? Uint32Array.from(v)
    : dtype === 'bool' ? Uint8Array.from(v) : Float32Array.from(v);
  return Tensor.fromStorage(dtype as DType, shape, data as never);
}
const width = (d: DType) => (d === 'complex64' ? 2 : 1);

/** Seeded LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}
/** ±10^[lo, hi] log-uniform float32 values. */
function logUniform(n: number, lo: number, hi: number, seed: number): number[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => f((r() < 0.5 ? -1 : 1) * 10 ** (lo + (hi - lo) * r())));
}

const SPECIAL_F = [0, -0, 1, -1, 2, -2.5, 0.5, 3, 100, -7, Infinity, -Infinity, NaN, 1e-3, 65504, -1e5].map(f);
const SPECIAL_I = [0, 1, -1, 2, -3, 7, 100, -100, 46341, -65536, 2147483647, -2147483648, 123456789, -987654321, 31, 3];
const SPECIAL_U = [0, 1, 2, 3, 7, 31, 100, 65536, 46341, 2147483648, 4294967295, 4000000000, 123456789, 5, 255, 16777217];

// ------------------------------------------------------------------ comparing

function ulp(x: number): number {
  const a = Math.abs(x);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}
/** g and r equal as float32 results: both NaN, or the same value and sign of zero; a subnormal r may come back flushed. */
function sameF(g: number, r: number): boolean {
  if (Number.isNaN(r)) return Number.isNaN(g);
  if (Object.is(g, r)) return true;
  return Math.abs(r) < 2 ** -126 && Math.abs(g) < 2 ** -126 && (Math.abs(r) > 0 || g === 0);
}
function closeF(g: number, r: number, ulps: number, abs = 0): boolean {
  if (Number.isNaN(r) || !Number.isFinite(r)) return sameF(g, r);
  if (Math.abs(r) < 2 ** -126 && Math.abs(g) < 2 ** -125) return true;
  return Math.abs(g - r) <= ulps * ulp(r) + abs;
}
/** Complex: each part within rel·|r| (+ abs), NaN where the reference has NaN. */
function closeC(gr: number, gi: number, rr: number, ri: number, rel: number, abs = 0): boolean {
  const m = Math.hypot(rr, ri);
  if (!Number.isFinite(m)) return (Number.isNaN(rr) ? Number.isNaN(gr) : gr === rr || closeF(gr, rr, 4)) && (Number.isNaN(ri) ? Number.isNaN(gi) : gi === ri || closeF(gi, ri, 4));
  const tol = rel * m + abs;
  return Math.abs(gr - rr) <= tol && Math.abs(gi - ri) <= tol;
}

/** Indices where got ≠ expected (at most 5 shown), for a readable failure. */
function mismatches(n: number, ok: (i: number) => boolean, show: (i: number) => string): string[] {
  const bad: string[] = [];
  for (let i = 0; i < n && bad.length < 5; i++) if (!ok(i)) bad.push(show(i));
  return bad;
}

// ------------------------------------------------------------------ references

type Real = (x: number) => number;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const REAL_UNARY: Record<UnaryOp, Real> = {
  neg: (x) => -x, abs: Math.abs, sign: (x) => (Number.isNaN(x) ? NaN : x === 0 ? 0 : Math.sign(x)),
  sqrt: Math.sqrt, exp: Math.exp, log: Math.log, log1p: Math.log1p, expm1: Math.expm1, sin: Math.sin, cos: Math.cos,
  tanh: Math.tanh, sigmoid, conj: (x) => x, real: (x) => x, imag: () => 0,
  angle: (x) => (Number.isNaN(x) ? NaN : x < 0 || Object.is(x, -0) ? PI32 : 0), logicalNot: (x) => (x === 0 ? 1 : 0),
};
/** ulp tolerance of the float32 unary functions (0: bit-exact). */
const UNARY_ULPS: Partial<Record<UnaryOp, number>> = {
  sqrt: 1, exp: 3, log: 3, log1p: 4, expm1: 4, sin: 3, cos: 3, tanh: 4, sigmoid: 4,
};

type C = [number, number];
const cmul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const cdiv = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};
const cexp = (z: C): C => [Math.exp(z[0]) * Math.cos(z[1]), Math.exp(z[0]) * Math.sin(z[1])];
const clog = (z: C): C => [Math.log(Math.hypot(z[0], z[1])), Math.atan2(z[1], z[0])];
const csqrt = (z: C): C => {
  const r = Math.hypot(z[0], z[1]);
  const t = Math.sqrt((Math.abs(z[0]) + r) / 2);
  if (t === 0) return [0, z[1]];
  return z[0] >= 0 ? [t, z[1] / (2 * t)] : [Math.abs(z[1]) / (2 * t), Math.sign(z[1]) * t || t];
};
const COMPLEX_UNARY: Record<UnaryOp, (z: C) => C | number> = {
  neg: (z) => [-z[0], -z[1]], abs: (z) => Math.hypot(z[0], z[1]),
  sign: (z) => { const r = Math.hypot(z[0], z[1]); return r === 0 ? [0, 0] : [z[0] / r, z[1] / r]; },
  sqrt: csqrt, exp: cexp, log: clog,
  log1p: (z) => [Math.log1p(z[0] * (2 + z[0]) + z[1] * z[1]) / 2, Math.atan2(z[1], 1 + z[0])],
  expm1: (z) => [Math.expm1(z[0]) * Math.cos(z[1]) - 2 * Math.sin(z[1] / 2) ** 2, Math.exp(z[0]) * Math.sin(z[1])],
  sin: (z) => [Math.sin(z[0]) * Math.cosh(z[1]), Math.cos(z[0]) * Math.sinh(z[1])],
  cos: (z) => [Math.cos(z[0]) * Math.cosh(z[1]), -Math.sin(z[0]) * Math.sinh(z[1])],
  tanh: (z) => { const d = Math.cosh(2 * z[0]) + Math.cos(2 * z[1]); return [Math.sinh(2 * z[0]) / d, Math.sin(2 * z[1]) / d]; },
  sigmoid: (z) => cdiv([1, 0], [1 + Math.exp(-z[0]) * Math.cos(-z[1]), Math.exp(-z[0]) * Math.sin(-z[1])]),
  conj: (z) => [z[0], -z[1]], real: (z) => z[0], imag: (z) => z[1], angle: (z) => Math.atan2(z[1], z[0]),
  logicalNot: (z) => (z[0] === 0 && z[1] === 0 ? 1 : 0),
};

const powRef = (a: number, b: number) => (b === 0 || a === 1 || (Math.abs(a) === 1 && !Number.isFinite(b) && !Number.isNaN(b)) ? 1 : Math.pow(a, b));
const b01 = (c: boolean) => (c ? 1 : 0);
const truth = (x: number) => x !== 0; // NaN is true (numpy)
const REAL_BINARY: Record<BinaryOp, (a: number, b: number) => number> = {
  add: (a, b) => a + b, sub: (a, b) => a - b, mul: (a, b) => a * b, div: (a, b) => a / b, pow: powRef,
  minimum: (a, b) => (Number.isNaN(a) || a < b ? a : b), maximum: (a, b) => (Number.isNaN(a) || a > b ? a : b),
  eq: (a, b) => b01(a === b), ne: (a, b) => b01(a !== b), lt: (a, b) => b01(a < b), le: (a, b) => b01(a <= b),
  gt: (a, b) => b01(a > b), ge: (a, b) => b01(a >= b), logicalAnd: (a, b) => b01(truth(a) && truth(b)), logicalOr: (a, b) => b01(truth(a) || truth(b)),
};
function intPow(a: number, b: number, unsigned: boolean): number {
  if (!unsigned && b < 0) return a === 1 ? 1 : a === -1 ? (b & 1 ? -1 : 1) : 0;
  let acc = 1, base = a, e = unsigned ? b >>> 0 : b;
  while (e !== 0) {
    if (e & 1) acc = Math.imul(acc, base);
    base = Math.imul(base, base);
    e = unsigned ? e >>> 1 : e >> 1;
  }
  return unsigned ? acc >>> 0 : acc | 0;
}
function intBinary(op: BinaryOp, unsigned: boolean): (a: number, b: number) => number {
  const w = (x: number) => (unsigned ? x >>> 0 : x | 0);
  switch (op) {
    case 'add': return (a, b) => w(a + b);
    case 'sub': return (a, b) => w(a - b);
    case 'mul': return (a, b) => w(Math.imul(a, b));
    case 'div': return (a, b) => (b === 0 ? 0 : w(Math.trunc(a / b)));
    case 'pow': return (a, b) => intPow(a, b, unsigned);
    case 'minimum': return Math.min;
    case 'maximum': return Math.max;
    default: return REAL_BINARY[op];
  }
}
const BOOL_BINARY: Partial<Record<BinaryOp, (a: number, b: number) => number>> = {
  add: (a, b) => a | b, mul: (a, b) => a & b, minimum: (a, b) => a & b, maximum: (a, b) => a | b,
};

// ------------------------------------------------------------------ helpers

/** The CPU entry exists and its native function is in the loaded addon (a stale build lacks it). */
function has(op: 'cast' | 'unary' | 'binary' | 'where', d: DType, device: 'cpu'): boolean {
  if (!registered(op, d, device)) return false;
  try {
    return typeof (native() as unknown as Record<string, unknown>)[op] === 'function';
  } catch {
    return false;
  }
}

const gpuUnary = (x: Tensor, op: UnaryOp) => lookup('unary', x.dtype, 'gpu', 'test')(x.to('gpu'), op);
function gpuBinary(a: Tensor, b: Tensor, op: BinaryOp): Tensor {
  return lookup('binary', a.dtype, 'gpu', 'test')(a.to('gpu'), b.to('gpu'), op, elementwiseLayout(a.shape, b.shape, op));
}
const host = async (t: Tensor) => Array.from(await t.data() as ArrayLike<number>);

/** Every ordered pair of `s` plus `extra` pairs: inputs of the binary tests. */
function pairs(s: number[], extra: [number[], number[]] = [[], []]): [number[], number[]] {
  const a: number[] = [], b: number[] = [];
  for (const x of s) for (const y of s) { a.push(x); b.push(y); }
  return [[...a, ...extra[0]], [...b, ...extra[1]]];
}

/** Checks GPU against the CPU entry too, when the CPU side registers it. */
async function againstCpu(g: number[], cpu: (() => Tensor) | null, ok: (g: number, c: number, i: number) => boolean, what: string): Promise<void> {
  if (!cpu) return;
  const c = Array.from(cpu().dataSync() as ArrayLike<number>);
  expect(c.length, what).toBe(g.length);
  expect(mismatches(g.length, (i) => ok(g[i], c[i], i), (i) => `${i}: gpu ${g[i]} cpu ${c[i]}`), `${what} (GPU vs CPU)`).toEqual([]);
}

// ------------------------------------------------------------------ tests

describe('GPU unary', () => {
  sharedIt('float32: every op against Math.* (ulps per op), NaN/Inf/−0 and subnormals', async () => {
    const xs = [
      ...SPECIAL_F, 1.4e-45, -1e-40, 2 ** -126, ...logUniform(400, -6, 3, 1), ...logUniform(60, -1, 1.9, 2).map((x) => f(x * 1.5)),
      88.5, -87, 89, -104, 1e-8, -1e-8, 0.625, 9.1, -20, 1e4 + 0.5, -3.1415927,
    ].map(f);
    const x = mk('float32', [xs.length], xs);
    for (const op of UNARY_OPS) {
      const g = await host(gpuUnary(x, op));
      const ul = UNARY_ULPS[op] ?? 0;
      const ref = (i: number) => f(REAL_UNARY[op](xs[i]));
      // sin/cos near multiples of π: the reduced argument's absolute error, which grows
      // past |x| ≈ 5e4 (cephes' three-part reduction, docs/tensor-api.md)
      const abs = (i: number) => (op === 'sin' || op === 'cos' ? 2 ** -26 + Math.abs(xs[i]) * 2 ** -35 : 0);
      const ok = (gi: number, r: number, i: number) => (ul ? closeF(gi, r, ul, abs(i)) : sameF(gi, r));
      expect(mismatches(xs.length, (i) => ok(g[i], ref(i), i), (i) => `${op}(${xs[i]}): gpu ${g[i]}, want ${ref(i)}`), op).toEqual([]);
      await againstCpu(g, has('unary', 'float32', 'cpu') ? () => lookup('unary', 'float32', 'cpu')(x, op) : null,
        (gi, c, i) => (ul ? closeF(gi, c, 2 * ul + 1, abs(i)) : sameF(gi, c)), `float32 ${op}`);
    }
  });

  sharedIt('complex64: every op against double-precision formulas (relative to |result|), and the special values', async () => {
    const r = rng(5);
    const zs: C[] = [[0, 0], [1, 0], [0, 1], [-2.5, 0], [0, -3], [3, 4], [-1, -1], [0.5, 1e-3], [1e-3, -0.5], [20, 1], [-20, 2]];
    for (let i = 0; i < 300; i++) zs.push([f((r() - 0.5) * 8), f((r() - 0.5) * 8)]);
    for (let i = 0; i < 50; i++) zs.push([f((r() - 0.5) * 1e-3), f((r() - 0.5) * 1e-3)]);
    const flat = zs.flat().map(f);
    const x = mk('complex64', [zs.length], flat);
    const z = (i: number): C => [flat[2 * i], flat[2 * i + 1]];
    const REL: Partial<Record<UnaryOp, number>> = {
      abs: 2, sign: 3, sqrt: 3, exp: 6, log: 4, log1p: 8, expm1: 8, sin: 8, cos: 8, tanh: 16, sigmoid: 16, angle: 3,
    };
    for (const op of UNARY_OPS) {
      const out = gpuUnary(x, op);
      expect(out.dtype, op).toBe(unaryOutDtype(op, 'complex64'));
      const g = await host(out);
      const rel = (REL[op] ?? 0) * 2 * EPS;
      const ok = (i: number) => {
        const want = COMPLEX_UNARY[op](z(i));
        if (typeof want === 'number') return rel ? closeF(g[i], f(want), REL[op]! * 2, op === 'angle' ? 1e-7 : 0) : sameF(g[i], f(want));
        // log/log1p near the zero of the real part: absolute error ~ eps
        return rel ? closeC(g[2 * i], g[2 * i + 1], want[0], want[1], rel, 4 * EPS * (op === 'log1p' || op === 'expm1' ? Math.hypot(...z(i)) : op === 'log' || op === 'sigmoid' || op === 'tanh' ? 1 : 0))
          : sameF(g[2 * i], f(want[0])) && sameF(g[2 * i + 1], f(want[1]));
      };
      const show = (i: number) => `${op}(${z(i)}): gpu ${width(out.dtype) === 2 ? [g[2 * i], g[2 * i + 1]] : g[i]}, want ${COMPLEX_UNARY[op](z(i))}`;
      expect(mismatches(zs.length, ok, show), op).toEqual([]);
    }
    // C99 / numpy special values
    const sp = mk('complex64', [6], [0, 0, -4, 0, Infinity, NaN, NaN, 1, 0, -0, -Infinity, 0]);
    expect(await host(gpuUnary(sp, 'abs'))).toEqual([0, 4, Infinity, NaN, 0, Infinity]);
    const lg = await host(gpuUnary(sp, 'log'));
    expect([lg[0], lg[1]]).toEqual([-Infinity, 0]);
    expect(lg[3]).toBe(PI32); // log(-4 + 0i) = ln 4 + πi
    const sq = await host(gpuUnary(sp, 'sqrt'));
    expect([sq[2], sq[3]]).toEqual([0, 2]); // sqrt(-4 + 0i) = 2i
    expect(Object.is(sq[9], -0)).toBe(true); // sqrt(0 − 0i) = 0 − 0i
    const ex = await host(gpuUnary(sp, 'exp'));
    expect([ex[0], ex[1], ex[10], ex[11]]).toEqual([1, 0, 0, 0]); // exp(−∞ + 0i) = 0
  });

  sharedIt('int32, uint32, bool: the integral ops wrap (neg/abs of INT_MIN), and float functions are refused', async () => {
    const cases: Array<[G, number[]]> = [['int32', SPECIAL_I], ['uint32', SPECIAL_U], ['bool', [0, 1, 1, 0, 1]]];
    for (const [d, xs] of cases) {
      const x = mk(d, [xs.length], xs);
      for (const op of UNARY_OPS) {
        const allowed = ['neg', 'abs', 'sign', 'conj', 'real', 'imag', 'logicalNot'].includes(op) && !(d === 'bool' && op === 'neg');
        if (!allowed) {
          expect(() => gpuUnary(x, op), `${d} ${op}`).toThrow(DTypeError);
          continue;
        }
        const out = gpuUnary(x, op);
        expect(out.dtype).toBe(unaryOutDtype(op, d));
        const g = await host(out);
        const w = (v: number) => (d === 'int32' ? v | 0 : v >>> 0);
        const ref = (v: number) => (op === 'neg' ? w(-v) : op === 'abs' ? w(Math.abs(v)) : op === 'sign' ? Math.sign(v)
          : op === 'imag' ? 0 : op === 'logicalNot' ? b01(v === 0) : v);
        expect(g, `${d} ${op}`).toEqual(xs.map(ref));
      }
    }
  });
});

describe('GPU binary', () => {
  sharedIt('float32: every op on every pair of special values and random pairs (exact except pow)', async () => {
    const [av, bv] = pairs(SPECIAL_F, [logUniform(300, -3, 3, 3), logUniform(300, -3, 3, 4)]);
    // pow's random pairs: modest exponents, so x^y stays normal
    const pb = bv.map((y, i) => (i >= SPECIAL_F.length ** 2 ? f(Math.sign(y) * Math.min(Math.abs(y), 9)) : y));
    const pa = av.map((x, i) => (i >= SPECIAL_F.length ** 2 ? f(Math.min(Math.abs(x), 50)) : x));
    for (const op of BINARY_OPS) {
      const A = op === 'pow' ? pa : av, B = op === 'pow' ? pb : bv;
      const a = mk('float32', [A.length], A), b = mk('float32', [B.length], B);
      const out = gpuBinary(a, b, op);
      expect(out.dtype, op).toBe(binaryOutDtype(op, 'float32'));
      const g = await host(out);
      const ref = (i: number) => f(REAL_BINARY[op](A[i], B[i]));
      const ok = (gi: number, r: number, i: number) => (op === 'pow'
        ? sameF(gi, r) || closeF(gi, r, 4 + 2 * Math.abs(B[i] * Math.log2(Math.abs(A[i]) || 1)))
        : op === 'div' ? closeF(gi, r, 1) : sameF(gi, r));
      expect(mismatches(A.length, (i) => ok(g[i], ref(i), i), (i) => `${A[i]} ${op} ${B[i]}: gpu ${g[i]}, want ${ref(i)}`), op).toEqual([]);
      await againstCpu(g, has('binary', 'float32', 'cpu') ? () => lookup('binary', 'float32', 'cpu')(a, b, op, elementwiseLayout(a.shape, b.shape, op)) : null,
        (gi, c, i) => ok(gi, c, i), `float32 ${op}`);
    }
  });

  sharedIt('minimum/maximum follow numpy on ±0 (the second operand on a tie) and propagate NaN from either side', async () => {
    const a = mk('float32', [4], [0, -0, NaN, 1]), b = mk('float32', [4], [-0, 0, 1, NaN]);
    const mn = await host(gpuBinary(a, b, 'minimum')), mx = await host(gpuBinary(a, b, 'maximum'));
    expect(Object.is(mn[0], -0) && Object.is(mn[1], 0) && Object.is(mx[0], -0) && Object.is(mx[1], 0)).toBe(true);
    expect([mn[2], mn[3], mx[2], mx[3]].every(Number.isNaN)).toBe(true);
  });

  sharedIt('int32 and uint32: every op, wrapping; division truncates with x / 0 = 0; comparisons unsigned for uint32', async () => {
    for (const [d, s] of [['int32', SPECIAL_I], ['uint32', SPECIAL_U]] as const) {
      const [av, bv] = pairs([...s]);
      const a = mk(d, [av.length], av), b = mk(d, [bv.length], bv);
      const pbv = bv.map((y) => (d === 'int32' ? (y % 40) : y % 40));
      for (const op of BINARY_OPS) {
        const B = op === 'pow' ? pbv : bv;
        const bt = op === 'pow' ? mk(d, [B.length], B) : b;
        const g = await host(gpuBinary(a, bt, op));
        const fn = intBinary(op, d === 'uint32');
        expect(mismatches(av.length, (i) => g[i] === fn(av[i], B[i]), (i) => `${av[i]} ${op} ${B[i]}: gpu ${g[i]}, want ${fn(av[i], B[i])}`), `${d} ${op}`).toEqual([]);
        await againstCpu(g, has('binary', d, 'cpu') && op !== 'div' ? () => lookup('binary', d, 'cpu')(a, bt, op, elementwiseLayout(a.shape, bt.shape, op)) : null,
          (gi, c) => gi === c, `${d} ${op}`);
      }
    }
  });

  sharedIt('bool: comparisons and logical ops; add/mul/minimum/maximum as or/and; sub/div/pow refused', async () => {
    const a = mk('bool', [4], [0, 0, 1, 1]), b = mk('bool', [4], [0, 1, 0, 1]);
    for (const op of BINARY_OPS) {
      if (op === 'sub' || op === 'div' || op === 'pow') {
        expect(() => gpuBinary(a, b, op)).toThrow(DTypeError);
        continue;
      }
      const out = gpuBinary(a, b, op);
      expect(out.dtype).toBe('bool');
      const fn = BOOL_BINARY[op] ?? REAL_BINARY[op];
      expect(Array.from(await out.data() as Uint8Array), op).toEqual([0, 1, 2, 3].map((i) => fn([0, 0, 1, 1][i], [0, 1, 0, 1][i])));
    }
  });

  sharedIt('complex64: arithmetic within a few ulp of |result|, eq/ne/logical exact, ordering ops refused', async () => {
    const r = rng(9);
    const av: number[] = [], bv: number[] = [];
    const sp = [0, -0, 1, -1, 2.5, NaN, Infinity];
    for (const x of sp) for (const y of sp) { av.push(x, y); bv.push(y === 1 ? 1 : 0, x); }
    for (let i = 0; i < 400; i++) { av.push(f((r() - 0.5) * 10), f((r() - 0.5) * 10)); bv.push(f((r() - 0.5) * 10), f((r() - 0.5) * 10)); }
    const nsp = sp.length * sp.length;
    const n = av.length / 2;
    const a = mk('complex64', [n], av), b = mk('complex64', [n], bv);
    for (const op of BINARY_OPS) {
      if (['minimum', 'maximum', 'lt', 'le', 'gt', 'ge'].includes(op)) {
        expect(() => gpuBinary(a, b, op)).toThrow(DTypeError);
        continue;
      }
      const g = await host(gpuBinary(a, b, op));
      const za = (i: number): C => [av[2 * i], av[2 * i + 1]], zb = (i: number): C => [bv[2 * i], bv[2 * i + 1]];
      const ok = (i: number): boolean => {
        const x = za(i), y = zb(i);
        const fin = [...x, ...y].every(Number.isFinite);
        switch (op) {
          case 'add': return sameF(g[2 * i], f(x[0] + y[0])) && sameF(g[2 * i + 1], f(x[1] + y[1]));
          case 'sub': return sameF(g[2 * i], f(x[0] - y[0])) && sameF(g[2 * i + 1], f(x[1] - y[1]));
          case 'mul': { const w = cmul(x, y); return !fin || closeC(g[2 * i], g[2 * i + 1], w[0], w[1], 4 * EPS, 4 * EPS * Math.hypot(...x) * Math.hypot(...y)); }
          case 'div': { if (!fin || (y[0] === 0 && y[1] === 0)) return true; const w = cdiv(x, y); return closeC(g[2 * i], g[2 * i + 1], w[0], w[1], 8 * EPS); }
          case 'pow': {
            if (i < nsp || (x[0] === 0 && x[1] === 0)) return true;
            const w = cexp(cmul(y, clog(x)));
            return closeC(g[2 * i], g[2 * i + 1], w[0], w[1], (8 + 4 * Math.hypot(...cmul(y, clog(x)))) * EPS);
          }
          case 'eq': return g[i] === b01(x[0] === y[0] && x[1] === y[1]);
          case 'ne': return g[i] === b01(!(x[0] === y[0] && x[1] === y[1]));
          case 'logicalAnd': return g[i] === b01((truth(x[0]) || truth(x[1])) && (truth(y[0]) || truth(y[1])));
          default: return g[i] === b01(truth(x[0]) || truth(x[1]) || truth(y[0]) || truth(y[1]));
        }
      };
      expect(mismatches(n, ok, (i) => `${za(i)} ${op} ${zb(i)}: gpu ${g.slice(2 * i, 2 * i + 2)}`), op).toEqual([]);
    }
    // numpy's division by zero and integer powers by repeated multiplication
    const d0 = await host(gpuBinary(mk('complex64', [1], [1, 1]), mk('complex64', [1], [0, 0]), 'div'));
    expect(d0).toEqual([Infinity, Infinity]);
    const p2 = await host(gpuBinary(mk('complex64', [2], [1, 1, 0, 0]), mk('complex64', [2], [2, 0, 0, 0]), 'pow'));
    expect(p2).toEqual([0, 2, 1, 0]); // (1+i)² = 2i exactly, 0⁰ = 1
  });
});

describe('GPU broadcast paths', () => {
  const SHAPES: Array<[string, number[], number[]]> = [
    ['same shape', [3, 5, 7], [3, 5, 7]], ['scalar b', [3, 5, 7], []], ['scalar a', [], [3, 5, 7]], ['row', [4, 6], [6]],
    ['column', [4, 6], [4, 1]], ['outer', [3, 1, 5], [1, 4, 1]], ['0-d', [], []], ['rank 5', [2, 1, 3, 1, 2], [1, 3, 1, 2, 1]],
    ['rank 7 (7 collapsed dims)', [2, 1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2, 1]], ['empty', [0, 3], [3]],
    ['tile crossing column', [1031, 5], [1031, 1]],
    ['row of whole quads', [5, 8], [8]], ['column, rows of whole quads', [8, 12], [8, 1]], ['column a, row b', [6, 1], [1, 8]],
    ['row, 600 rows', [600, 12], [12]],
  ];
  const OPS: Array<[G, BinaryOp]> = [['float32', 'add'], ['float32', 'lt'], ['complex64', 'mul'], ['int32', 'sub'], ['uint32', 'maximum'], ['bool', 'logicalAnd']];

  /** Reference broadcast: the element of `shape` that output index `idx` (in `out`) reads. */
  function bIndex(shape: number[], out: number[], idx: number): number {
    let k = 0, stride = 1;
    for (let d = out.length - 1, s = shape.length - 1; d >= 0; d--, s--) {
      const c = Math.floor(idx / out.slice(d + 1).reduce((p, q) => p * q, 1)) % out[d];
      if (s >= 0) { if (shape[s] !== 1) k += c * stride; stride *= shape[s]; }
    }
    return k;
  }
  function values(d: G, n: number, seed: number): number[] {
    const r = rng(seed);
    return Array.from({ length: n * width(d) }, () => (d === 'bool' ? b01(r() < 0.5) : d === 'int32' ? Math.floor((r() - 0.5) * 2e9)
      : d === 'uint32' ? Math.floor(r() * 4e9) : f((r() - 0.5) * 100)));
  }

  gpuIt('binary: same, scalar, row, column (strided and whole-quad rows), outer, 0-d, rank 5 and 7, empty, against an index-by-index reference', async () => {
    for (const [d, op] of OPS) {
      // every pattern on float32 add; a splat, a row/column vec layout and two strided ones for the other ops and dtypes
      for (const [label, sa, sb] of d === 'float32' && op === 'add' ? SHAPES : SHAPES.filter(([l]) => ['scalar b', 'row', 'rank 7 (7 collapsed dims)', 'column a, row b'].includes(l))) {
        const na = sa.reduce((p, q) => p * q, 1), nb = sb.reduce((p, q) => p * q, 1);
        const av = values(d, na, na + 1), bv = values(d, nb, nb + 2);
        const a = mk(d, sa, av), b = mk(d, sb, bv);
        const L = elementwiseLayout(sa, sb, op);
        const out = gpuBinary(a, b, op);
        expect(out.shape, `${d} ${op} ${label}`).toEqual(L.shape);
        const g = await host(out);
        const wo = width(out.dtype);
        expect(g.length).toBe(L.size * wo);
        const fn = d === 'int32' || d === 'uint32' ? intBinary(op, d === 'uint32') : REAL_BINARY[op];
        const ok = (i: number) => {
          const ia = bIndex(sa, L.shape, i), ib = bIndex(sb, L.shape, i);
          if (d === 'complex64') {
            const w = cmul([av[2 * ia], av[2 * ia + 1]], [bv[2 * ib], bv[2 * ib + 1]]);
            return closeC(g[2 * i], g[2 * i + 1], w[0], w[1], 4 * EPS, 1e-4);
          }
          const w = fn(av[ia], bv[ib]);
          return d === 'float32' ? sameF(g[i], f(w)) : g[i] === w;
        };
        expect(mismatches(L.size, ok, (i) => `${i}: gpu ${g[i]}`), `${d} ${op} ${label}`).toEqual([]);
      }
    }
  });

  gpuIt('where: every dtype, with cond, a and b broadcast against each other (vec splats and the strided path)', async () => {
    const cases: Array<[number[], number[], number[]]> = [
      [[4, 5], [4, 5], [4, 5]], [[4, 5], [], [4, 5]], [[], [4, 5], []], [[4, 5], [4, 5], []], [[4, 1], [1, 5], [5]], [[2, 1, 3], [3], [2, 4, 1]], [[0], [0], []],
      [[5, 8], [8], [5, 1]], // row and column operands on the vec path
    ];
    for (const d of GPU_DTYPES) {
      // every variant on float32; the vec and strided paths for the other dtypes (compiles are slow on lavapipe)
      for (const [sc, sa, sb] of d === 'float32' ? cases : d === 'complex64' ? [cases[0], cases[4], cases[7]] : [cases[0], cases[4]]) {
        const n = (s: number[]) => s.reduce((p, q) => p * q, 1);
        const cv = values('bool', n(sc), 11), av = values(d, n(sa), 12), bv = values(d, n(sb), 13);
        if (d === 'float32' && av.length > 1) { av[0] = NaN; av[1] = -0; }
        const L = elementwiseLayoutN([sc, sa, sb], 'where', ['cond', 'a', 'b']);
        const out = lookup('where', d, 'gpu')(mk('bool', sc, cv).to('gpu') as Tensor<'bool'>, mk(d, sa, av).to('gpu'), mk(d, sb, bv).to('gpu'), L);
        expect(out.shape).toEqual(L.shape);
        expect(out.dtype).toBe(d);
        const g = await host(out);
        const w = width(d);
        const ok = (i: number) => {
          const c = cv[bIndex(sc, L.shape, i)];
          const src = c ? av : bv, k = bIndex(c ? sa : sb, L.shape, i);
          for (let j = 0; j < w; j++) {
            const want = d === 'float32' || d === 'complex64' ? f(src[k * w + j]) : src[k * w + j];
            if (!Object.is(g[i * w + j], want)) return false;
          }
          return true;
        };
        expect(mismatches(L.size, ok, (i) => `${i}: gpu ${g[i]}`), `where ${d} ${sc}/${sa}/${sb}`).toEqual([]);
      }
    }
  });

  gpuIt('sizes around the quad and tile boundaries, and 10 M elements (vec and strided paths)', async () => {
    for (const n of [1, 2, 3, 4, 5, 7, 1023, 1024, 1025, 4095, 4096, 4097, 3 * 4096 + 1]) {
      const av = logUniform(n, -2, 2, n), bv = logUniform(n, -2, 2, n + 7);
      const ab = [...av, ...bv];
      const g = await host(gpuBinary(mk('float32', [n], av), mk('float32', [n], bv), 'add'));
      expect(mismatches(n, (i) => sameF(g[i], f(av[i] + bv[i])), (i) => `${i}`), `add n=${n}`).toEqual([]);
      const gc = await host(gpuUnary(mk('complex64', [n], ab), 'conj'));
      expect(mismatches(n, (i) => gc[2 * i] === ab[2 * i] && Object.is(gc[2 * i + 1], -ab[2 * i + 1]), (i) => `${i}`), `conj n=${n}`).toEqual([]);
      // strided: a column broadcast of n rows
      const gs = await host(gpuBinary(mk('float32', [n, 2], ab), mk('float32', [n, 1], bv), 'sub'));
      expect(mismatches(2 * n, (i) => sameF(gs[i], f(ab[i] - bv[i >> 1])), (i) => `${i}`), `strided n=${n}`).toEqual([]);
    }
    const N = 10_000_000;
    const A = new Float32Array(N), B = new Float32Array(N);
    for (let i = 0; i < N; i++) { A[i] = (i % 1000) * 0.25; B[i] = (i % 997) - 400; }
    const out = await gpuBinary(Tensor.fromStorage('float32', [N], A), Tensor.fromStorage('float32', [N], B), 'add').data() as Float32Array;
    let bad = 0;
    for (let i = 0; i < N; i++) if (out[i] !== f(A[i] + B[i])) bad++;
    expect(bad).toBe(0);
  }, 60_000);
});

describe('GPU cast', () => {
  const SRC: Record<G, number[]> = {
    float32: [0, -0, 0.5, -0.5, 1.9, -1.9, 2 ** 31, -(2 ** 31), 3e9, -3e9, NaN, Infinity, -Infinity, 1.4e-45, 2 ** 32, 2147483520, 16777217, -7.75].map(f),
    complex64: [0, 0, 0, -0, 1, 0, 0, 1, NaN, 0, -2.5, 3],
    int32: [0, 1, -1, -2147483648, 2147483647, 123456789, 16777217],
    uint32: [0, 1, 4294967295, 2147483648, 16777217, 3000000000],
    bool: [0, 1, 1, 0],
  };
  function castRef(from: G, to: G, v: number[]): number[] {
    if (from === 'complex64') {
      if (to === 'complex64') return v;
      return Array.from({ length: v.length / 2 }, (_, i) => b01(v[2 * i] !== 0 || v[2 * i + 1] !== 0));
    }
    return v.flatMap((x) => {
      switch (to) {
        case 'float32': return [f(x)];
        case 'complex64': return [f(x), 0];
        case 'bool': return [b01(x !== 0)];
        case 'int32': return [from === 'float32' ? (Number.isNaN(x) ? 0 : x >= 2 ** 31 ? 2147483647 : x <= -(2 ** 31) ? -2147483648 : Math.trunc(x) + 0) : x | 0];
        case 'uint32': return [from === 'float32' ? (Number.isNaN(x) || x <= 0 ? 0 : x >= 2 ** 32 ? 4294967295 : Math.trunc(x) + 0) : x >>> 0];
      }
    });
  }

  gpuIt('every (source, destination) pair: truncation, NaN → 0, saturation, int32 ↔ uint32 bits, x ≠ 0 for bool', async () => {
    for (const from of GPU_DTYPES) {
      const v = SRC[from];
      const x = mk(from, [v.length / width(from)], v);
      for (const to of GPU_DTYPES) {
        if (from === 'complex64' && to !== 'complex64' && to !== 'bool') {
          expect(() => lookup('cast', from, 'gpu')(x.to('gpu'), to)).toThrow(DTypeError);
          continue;
        }
        const out = lookup('cast', from, 'gpu')(x.to('gpu'), to);
        expect(out.dtype).toBe(to);
        expect(out.shape).toEqual(x.shape);
        const g = await host(out);
        const want = castRef(from, to, v);
        expect(mismatches(want.length, (i) => Object.is(g[i], want[i]) || (Number.isNaN(want[i]) && Number.isNaN(g[i])), (i) => `${v[i]}: gpu ${g[i]}, want ${want[i]}`), `${from} → ${to}`).toEqual([]);
        if (has('cast', from, 'cpu')) {
          const c = Array.from(lookup('cast', from, 'cpu')(x, to).dataSync() as ArrayLike<number>);
          expect(mismatches(want.length, (i) => Object.is(g[i], c[i]) || (Number.isNaN(c[i]) && Number.isNaN(g[i])), (i) => `${i}: gpu ${g[i]} cpu ${c[i]}`), `${from} → ${to} vs CPU`).toEqual([]);
        }
      }
    }
  });

  sharedIt('bool and uint32 tensors round-trip through upload/download; a GPU comparison downloads as bool 0/1', async () => {
    const b = mk('bool', [2, 3], [1, 0, 1, 1, 0, 0]);
    const back = await b.to('gpu').data();
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Array.from(back as Uint8Array)).toEqual([1, 0, 1, 1, 0, 0]);
    const u = mk('uint32', [4], [0, 4294967295, 2147483648, 7]);
    expect(Array.from(await u.to('gpu').data() as Uint32Array)).toEqual([0, 4294967295, 2147483648, 7]);
    const cmp = gpuBinary(mk('uint32', [3], [4294967295, 1, 5]), mk('uint32', [3], [1, 4294967295, 5]), 'gt');
    expect(cmp.dtype).toBe('bool');
    const cb = await cmp.data();
    expect(cb).toBeInstanceOf(Uint8Array);
    expect(Array.from(cb as Uint8Array)).toEqual([1, 0, 0]);
  });
});

describe('GPU specialised kernels and the public API', () => {
  gpuIt('the per-op kernels (the default) equal the shared ones, bit for bit, on a sample of ops and dtypes', async () => {
    const xs = [...SPECIAL_F, ...logUniform(41, -3, 2, 21)];
    const ys = [...SPECIAL_F.slice().reverse(), ...logUniform(41, -2, 1, 22)];
    const cx = xs.flatMap((v, i) => [v, ys[i]].map((w) => (Number.isFinite(w) ? w : 0.5)));
    const samples: Array<[G, number[], number[], Array<UnaryOp | BinaryOp>]> = [
      ['float32', xs, ys, ['div', 'pow', 'exp', 'sin']],
      ['complex64', cx, cx.slice().reverse(), ['mul', 'log']],
      ['int32', SPECIAL_I, SPECIAL_I.map((v) => v % 13), ['pow']],
      ['uint32', SPECIAL_U, SPECIAL_U.slice().reverse(), ['lt']],
      ['bool', [0, 1, 1, 0], [0, 0, 1, 1], ['logicalNot']],
    ];
    for (const [d, av, bv, ops] of samples) {
      const a = mk(d, [av.length / width(d)], av), b = mk(d, [bv.length / width(d)], bv);
      for (const op of ops) {
        const run = () => ((UNARY_OPS as readonly string[]).includes(op) ? gpuUnary(a, op as UnaryOp) : gpuBinary(a, b, op as BinaryOp));
        const spec = await host(run());
        setElementwiseOpsByUniform(true);
        let shared: number[];
        try { shared = await host(run()); } finally { setElementwiseOpsByUniform(false); }
        expect(mismatches(spec.length, (i) => Object.is(spec[i], shared[i]) || (Number.isNaN(spec[i]) && Number.isNaN(shared[i])),
          (i) => `${i}: specialised ${spec[i]}, shared ${shared[i]}`), `${d} ${op}`).toEqual([]);
      }
    }
  });

  sharedIt('public functions on GPU tensors: scalars, promotion, broadcasting, where/clamp/cast — equal to the same calls on the CPU', async () => {
    const x = mk('float32', [3, 4], [0, -0, 1.5, -2, NaN, Infinity, 3, -1e-3, 7, 0.25, -8, 2]);
    const r = mk('float32', [4], [1, -1, 2, 0.5]);
    const i = mk('int32', [3, 1], [2, -3, 5]);
    const c = mk('complex64', [4], [1, 2, -1, 0.5, 0, 0, 3, -4]);
    const calls: Array<[string, (t: (u: Tensor) => Tensor) => Tensor]> = [
      ['add row', (t) => lapis.add(t(x), t(r))], ['sub scalar', (t) => lapis.sub(t(x), 2)], ['mul int column', (t) => lapis.mul(t(x), t(i))],
      ['div int/int', (t) => lapis.div(t(i), t(mk('int32', [2], [2, 0])))], ['pow', (t) => lapis.pow(t(r), 3)], ['maximum', (t) => lapis.maximum(t(x), t(r))],
      ['lt', (t) => lapis.lt(t(x), 1)], ['logicalAnd', (t) => lapis.logicalAnd(t(x), t(i))], ['neg int', (t) => lapis.neg(t(i))],
      ['sqrt int', (t) => lapis.sqrt(t(i))], ['exp', (t) => lapis.exp(t(r))], ['abs complex', (t) => lapis.abs(t(c))],
      ['mul complex by real', (t) => lapis.mul(t(c), t(r))], ['where', (t) => lapis.where(lapis.gt(t(x), 0), t(x), t(r))],
      ['clamp', (t) => lapis.clamp(t(x), -1, 1)], ['cast', (t) => lapis.cast(t(x), 'int32')], ['bool + bool', (t) => lapis.add(lapis.gt(t(x), 0), lapis.lt(t(x), 5))],
    ];
    for (const [label, call] of calls) {
      const cpu = call((u) => u);
      const g = call((u) => u.to('gpu'));
      expect(g.device, label).toBe('gpu');
      expect(g.dtype, label).toBe(cpu.dtype);
      expect(g.shape, label).toEqual(cpu.shape);
      const gv = await host(g), cv = Array.from(cpu.dataSync() as ArrayLike<number>);
      expect(mismatches(cv.length, (k) => closeF(gv[k], cv[k], 4), (k) => `${k}: gpu ${gv[k]} cpu ${cv[k]}`), label).toEqual([]);
    }
  });
});
