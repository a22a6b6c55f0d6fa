// Elementwise special functions on the CPU: frexp, heaviside, Laguerre polynomials, logspace.
// References are independent of the kernels: bit-level reconstruction for frexp, the
// definition with explicit broadcast indexing for heaviside, exact BigInt rationals and the
// stable explicit sum for Laguerre, Math.pow on numpy-style linspace exponents for logspace.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all, type BigNumber } from 'mathjs';
import {
  frexp, heaviside, logspace, special, tensor, Tensor, ShapeError, DTypeError, ArgumentError,
} from '../../src/index.js';

const EPS64 = 2 ** -52;
/** mathjs in 64-digit decimal arithmetic: the reference for logspace's powers. */
const big = create(all, { number: 'BigNumber', precision: 64 });
const EPS32 = 2 ** -23;

// ---------------------------------------------------------------- bit patterns by class

type FloatClass = 'normal' | 'subnormal' | 'zero' | 'inf' | 'nan';
const CLASSES: FloatClass[] = ['normal', 'subnormal', 'zero', 'inf', 'nan'];

function f64FromBits(sign: number, exp: number, mant: bigint): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setBigUint64(0, (BigInt(sign) << 63n) | (BigInt(exp) << 52n) | mant);
  return dv.getFloat64(0);
}

function f32FromBits(sign: number, exp: number, mant: number): number {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, ((sign << 31) | (exp << 23) | mant) >>> 0);
  return dv.getFloat32(0);
}

const mant52 = fc.bigInt({ min: 1n, max: (1n << 52n) - 1n });
const mant23 = fc.integer({ min: 1, max: (1 << 23) - 1 });

function f64Of(cls: FloatClass): fc.Arbitrary<number> {
  const sign = fc.integer({ min: 0, max: 1 });
  switch (cls) {
    case 'normal': return fc.tuple(sign, fc.integer({ min: 1, max: 2046 }), fc.bigInt({ min: 0n, max: (1n << 52n) - 1n }))
      .map(([s, e, m]) => f64FromBits(s, e, m));
    case 'subnormal': return fc.tuple(sign, mant52).map(([s, m]) => f64FromBits(s, 0, m));
    case 'zero': return sign.map((s) => f64FromBits(s, 0, 0n));
    case 'inf': return sign.map((s) => f64FromBits(s, 2047, 0n));
    case 'nan': return fc.tuple(sign, mant52).map(([s, m]) => f64FromBits(s, 2047, m));
  }
}

function f32Of(cls: FloatClass): fc.Arbitrary<number> {
  const sign = fc.integer({ min: 0, max: 1 });
  switch (cls) {
    case 'normal': return fc.tuple(sign, fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: (1 << 23) - 1 }))
      .map(([s, e, m]) => f32FromBits(s, e, m));
    case 'subnormal': return fc.tuple(sign, mant23).map(([s, m]) => f32FromBits(s, 0, m));
    case 'zero': return sign.map((s) => f32FromBits(s, 0, 0));
    case 'inf': return sign.map((s) => f32FromBits(s, 255, 0));
    case 'nan': return fc.tuple(sign, mant23).map(([s, m]) => f32FromBits(s, 255, m));
  }
}

/** m·2^e without intermediate overflow or underflow (each factor is an exact power of two). */
function ldexp(m: number, e: number): number {
  let r = m;
  while (e > 600) { r *= 2 ** 600; e -= 600; }
  while (e < -600) { r *= 2 ** -600; e += 600; }
  return r * 2 ** e;
}

/** Indices where (m, e) is not the frexp of x (an empty list passes). */
function frexpMismatches(xs: ArrayLike<number>, m: ArrayLike<number>, e: Int32Array): number[] {
  const bad: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    let ok: boolean;
    if (Number.isNaN(x)) ok = Number.isNaN(m[i]) && e[i] === 0;
    else if (x === 0 || !Number.isFinite(x)) ok = Object.is(m[i], x) && e[i] === 0; // sign of zero and of Inf kept
    else ok = Math.abs(m[i]) >= 0.5 && Math.abs(m[i]) < 1 && Object.is(ldexp(m[i], e[i]), x);
    if (!ok) bad.push(i);
  }
  return bad;
}

function checkFrexp(xs: ArrayLike<number>, m: ArrayLike<number>, e: Int32Array): void {
  const bad = frexpMismatches(xs, m, e);
  expect(bad.slice(0, 5).map((i) => [xs[i], m[i], e[i]])).toEqual([]);
}

describe('frexp', () => {
  for (const cls of CLASSES) {
    it(`float64 round-trips exactly: ${cls}`, () => {
      fc.assert(fc.property(fc.array(f64Of(cls), { minLength: 1, maxLength: 64 }), (xs) => {
        const { mantissa, exponent } = frexp({ data: Float64Array.from(xs), shape: [xs.length] });
        expect(mantissa.dtype).toBe('float64');
        expect(exponent.dtype).toBe('int32');
        checkFrexp(xs, mantissa.dataSync(), exponent.dataSync() as Int32Array);
      }), { numRuns: 60 });
    });

    it(`float32 round-trips exactly: ${cls}`, () => {
      fc.assert(fc.property(fc.array(f32Of(cls), { minLength: 1, maxLength: 64 }), (xs) => {
        const { mantissa, exponent } = frexp({ data: Float32Array.from(xs), shape: [xs.length] });
        expect(mantissa.dtype).toBe('float32');
        checkFrexp(xs, mantissa.dataSync(), exponent.dataSync() as Int32Array);
      }), { numRuns: 60 });
    });
  }

  it('hits the extremes of both formats', () => {
    const xs = [5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, Number.MAX_VALUE, -Number.MIN_VALUE, 1, -1, 0.5];
    const r = frexp({ data: Float64Array.from(xs), shape: [xs.length] });
    checkFrexp(xs, r.mantissa.dataSync(), r.exponent.dataSync() as Int32Array);
    expect(Array.from(r.exponent.dataSync())).toEqual([-1073, -1073, -1021, -1022, 1024, -1073, 1, 1, 0]);
    const fs = [1.401298464324817e-45, 1.1754943508222875e-38, 3.4028234663852886e38];
    const q = frexp({ data: Float32Array.from(fs), shape: [3] });
    expect(Array.from(q.exponent.dataSync())).toEqual([-148, -125, 128]);
  });

  it('keeps the shape and parallel chunks agree with the scalar definition on a large array', () => {
    const n = 200_003; // several pool chunks and an odd tail
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) xs[i] = (i % 7 === 0 ? 1e-310 : 1) * Math.sin(i) * 10 ** ((i % 600) - 300);
    const r = frexp(tensor({ data: xs, shape: [n] }).reshape([n / 1, 1]));
    expect(r.mantissa.shape).toEqual([n, 1]);
    checkFrexp(xs, r.mantissa.dataSync(), r.exponent.dataSync() as Int32Array);
  });

  it('rejects non-float dtypes', () => {
    expect(() => frexp({ data: new Int32Array([1]), shape: [1] })).toThrow(DTypeError);
    expect(() => frexp(tensor([[{ re: 1, im: 2 }]]))).toThrow(DTypeError);
  });
});

// ---------------------------------------------------------------- heaviside

/** Shapes a and b that broadcast: b drops some leading dims and sets others to 1. */
const broadcastPair = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 4 }).chain((out) =>
  fc.tuple(fc.constant(out), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: out.length, maxLength: out.length }),
    fc.array(fc.integer({ min: 0, max: 2 }), { minLength: out.length, maxLength: out.length }),
    fc.integer({ min: 0, max: out.length }), fc.integer({ min: 0, max: out.length })))
  .map(([out, ka, kb, da, db]) => {
    const a = out.map((d, i) => (ka[i] === 0 ? 1 : d)).slice(da);
    const b = out.map((d, i) => (kb[i] === 0 ? 1 : d)).slice(db);
    return { a, b };
  });

const special01 = fc.oneof(
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 5e-324, -5e-324),
  fc.double({ min: -10, max: 10, noNaN: true }),
);

function broadcastRef(a: number[], as: number[], b: number[], bs: number[], f: (x: number, y: number) => number) {
  const nd = Math.max(as.length, bs.length);
  const pa = [...Array(nd - as.length).fill(1), ...as], pb = [...Array(nd - bs.length).fill(1), ...bs];
  const out = pa.map((d, i) => Math.max(d, pb[i]));
  const size = out.reduce((p, d) => p * d, 1);
  const res: number[] = [];
  for (let f0 = 0; f0 < size; f0++) {
    let rem = f0, ia = 0, ib = 0, sa = 1, sb = 1;
    for (let d = nd - 1; d >= 0; d--) {
      const c = rem % out[d];
      rem = Math.floor(rem / out[d]);
      ia += (pa[d] === 1 ? 0 : c) * sa; sa *= pa[d];
      ib += (pb[d] === 1 ? 0 : c) * sb; sb *= pb[d];
    }
    res.push(f(a[ia], b[ib]));
  }
  return { out, res };
}

const stepDef = (x: number, v: number) => (Number.isNaN(x) ? NaN : x < 0 ? 0 : x > 0 ? 1 : v);

describe('heaviside', () => {
  for (const dtype of ['float64', 'float32'] as const) {
    it(`matches the definition under broadcasting (${dtype})`, () => {
      fc.assert(fc.property(broadcastPair, fc.array(special01, { minLength: 256, maxLength: 256 }),
        fc.array(special01, { minLength: 256, maxLength: 256 }), ({ a, b }, pa, pb) => {
          const na = a.reduce((p, d) => p * d, 1), nb = b.reduce((p, d) => p * d, 1);
          const C = dtype === 'float64' ? Float64Array : Float32Array;
          const xa = C.from(pa.slice(0, na)), xb = C.from(pb.slice(0, nb));
          const got = heaviside({ data: xa, shape: a }, { data: xb, shape: b });
          const ref = broadcastRef(Array.from(xa), a, Array.from(xb), b, stepDef);
          expect(got.shape).toEqual(ref.out);
          expect(got.dtype).toBe(dtype);
          const g = got.dataSync();
          for (let i = 0; i < ref.res.length; i++) expect(Object.is(g[i], ref.res[i])).toBe(true);
        }), { numRuns: 150 });
    });
  }

  it('treats both zeros alike, passes NaN values through at zero, and takes a scalar', () => {
    expect(Array.from(heaviside([-0, 0, -1, 1, NaN], 0.5).dataSync())).toEqual([0.5, 0.5, 0, 1, NaN]);
    expect(Number.isNaN(heaviside([0], [NaN]).dataSync()[0])).toBe(true);
    expect(Array.from(heaviside([-Infinity, Infinity], 7).dataSync())).toEqual([0, 1]);
  });

  it('runs the parallel path over broadcast rows and columns', () => {
    const rows = 700, cols = 300;
    const x = new Float64Array(rows * cols).map((_, i) => Math.sin(i) * (i % 5 === 0 ? 0 : 1));
    const v = new Float64Array(cols).map((_, j) => j / cols);
    const got = heaviside({ data: x, shape: [rows, cols] }, { data: v, shape: [cols] }).dataSync();
    let bad = 0;
    for (let i = 0; i < rows * cols; i++) if (!Object.is(got[i], stepDef(x[i], v[i % cols]))) bad++;
    const col = new Float64Array(rows).map((_, i) => (i % 3) - 1);
    const got2 = heaviside({ data: col, shape: [rows, 1] }, { data: v, shape: [1, cols] });
    expect(got2.shape).toEqual([rows, cols]);
    const g2 = got2.dataSync();
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (!Object.is(g2[i * cols + j], stepDef(col[i], v[j]))) bad++;
    expect(bad).toBe(0);
  });

  it('promotes float32 with float64 and reports shape and dtype errors', () => {
    const r = heaviside({ data: new Float32Array([1, 0]), shape: [2] }, [0.25, 0.75]);
    expect(r.dtype).toBe('float64');
    expect(Array.from(r.dataSync())).toEqual([1, 0.75]);
    expect(() => heaviside([[1, 2, 3]], [1, 2])).toThrow(ShapeError);
    expect(() => heaviside([[1, 2, 3]], [1, 2])).toThrow(/heaviside: x \(1×3\) and values \(2\)/);
    expect(() => heaviside(tensor([[{ re: 1, im: 0 }]]), 1)).toThrow(DTypeError);
  });
});

// ---------------------------------------------------------------- Laguerre

/** x as an exact rational a / 2^s (s may be negative). */
function dyadic(x: number): { a: bigint; s: number } {
  if (x === 0) return { a: 0n, s: 0 };
  let s = 0, y = x;
  while (!Number.isInteger(y)) { y *= 2; s++; }
  return { a: BigInt(y), s };
}

/** N/D as a double, accurate to far below an ulp (64 quotient bits, one rounding). */
function ratio(N: bigint, D: bigint): number {
  if (N === 0n) return 0;
  const neg = (N < 0n) !== (D < 0n);
  let n = N < 0n ? -N : N;
  const d = D < 0n ? -D : D;
  const shift = 64 - (n.toString(2).length - d.toString(2).length);
  const q = shift >= 0 ? (n << BigInt(shift)) / d : n / (d << BigInt(-shift));
  const v = ldexp(Number(q), -shift);
  return neg ? -v : v;
}

/**
 * Exact L_n(x) and Σ|terms| (= L_n(−|x|)) for a double x, as doubles:
 * L_n(x) = Σ_k C(n,k) (−x)^k / k!, all over the common denominator n!·2^(s·n).
 */
function laguerreExact(n: number, x: number): { value: number; absSum: number } {
  const { a, s } = dyadic(x);
  const S = BigInt(Math.max(s, 0)), up = BigInt(Math.max(-s, 0));
  let N = 0n, A = 0n, binom = 1n, nfOverKf = 1n;
  for (let k = 1; k <= n; k++) nfOverKf *= BigInt(k); // n!/0!
  const nf = nfOverKf;
  for (let k = 0; k <= n; k++) {
    // term_k numerator over n!·2^(S n): C(n,k)·(−a)^k·2^(up·k)·2^(S(n−k))·n!/k!
    const t = binom * (-a) ** BigInt(k) * (1n << (up * BigInt(k))) * (1n << (S * BigInt(n - k))) * nfOverKf;
    N += t;
    A += t < 0n ? -t : t;
    binom = (binom * BigInt(n - k)) / BigInt(k + 1);
    nfOverKf = k + 1 <= n ? nfOverKf / BigInt(k + 1) : nfOverKf;
  }
  const D = nf * (1n << (S * BigInt(n)));
  return { value: ratio(N, D), absSum: ratio(A, D) };
}

describe('special.laguerrePolynomialL', () => {
  it('matches exact rationals for n ≤ 40 (float64) within 2·(n+1)·eps of the envelope', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }),
      fc.array(fc.oneof(fc.double({ min: -60, max: 60, noNaN: true }), fc.integer({ min: -30, max: 30 }),
        fc.double({ min: -1e-6, max: 1e-6, noNaN: true })), { minLength: 1, maxLength: 8 }),
      (n, xs) => {
        const got = special.laguerrePolynomialL(xs, n).dataSync();
        xs.forEach((x, i) => {
          const { value, absSum } = laguerreExact(n, x);
          // |L_n(x)| ≤ e^{x/2} for x ≥ 0 and ≤ Σ|terms| always: the scale rounding errors live on.
          const env = Math.min(absSum, Math.max(Math.abs(value), x > 0 ? Math.exp(x / 2) : 0));
          expect(Math.abs(got[i] - value)).toBeLessThanOrEqual(2 * (n + 1) * EPS64 * env);
        });
      }), { numRuns: 150 });
  });

  it('float32 is the float64 computation rounded once (within half an ulp of the exact value)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.array(fc.float({ min: -40, max: 0, noNaN: true }), { minLength: 1, maxLength: 8 }),
      (n, xs) => {
        const x32 = Float32Array.from(xs);
        const got = special.laguerrePolynomialL({ data: x32, shape: [x32.length] }, n);
        expect(got.dtype).toBe('float32');
        const g = got.dataSync();
        x32.forEach((x, i) => {
          const { value } = laguerreExact(n, x);
          expect(Math.abs(g[i] - value)).toBeLessThanOrEqual((0.5 * EPS32 + 4 * (n + 1) * EPS64) * Math.abs(value) * 1.0000001);
        });
      }), { numRuns: 60 });
  });

  it('matches the explicit sum where it is stable (x ≤ 0, n up to 300)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 300 }), fc.double({ min: -100, max: 0, noNaN: true }), (n, x) => {
      // all terms positive: t_{k+1} = t_k · (n − k)/(k + 1) · (−x)/(k + 1)
      let t = 1, s = 1;
      for (let k = 0; k < n; k++) { t *= ((n - k) / (k + 1)) * (-x / (k + 1)); s += t; }
      const got = special.laguerrePolynomialL([x], n).dataSync()[0];
      expect(Math.abs(got - s)).toBeLessThanOrEqual(4 * (n + 1) * EPS64 * s);
    }), { numRuns: 100 });
  });

  it('is accurate at n = 1000 for small and large x, without spurious overflow', () => {
    const xs = [0.5, 2, 37.25, 1300, 1420, -3, 1e-9, -1e-9];
    const got = special.laguerrePolynomialL(xs, 1000).dataSync();
    xs.forEach((x, i) => {
      const { value } = laguerreExact(1000, x);
      expect(Number.isFinite(got[i])).toBe(true);
      expect(Math.abs(got[i] - value)).toBeLessThanOrEqual(1001 * EPS64 * Math.abs(value));
    });
    // The true value overflows: +Inf for even n ((−x)^n/n! dominates), −Inf for odd n.
    expect(Array.from(special.laguerrePolynomialL([1e300, 1e300, -1e300], [1000, 999, 3]).dataSync()))
      .toEqual([Infinity, -Infinity, Infinity]);
  });

  it('follows torch on special degrees and values, and broadcasts x against n', () => {
    const r = special.laguerrePolynomialL([2, 2, 2, 2, 0, NaN, NaN, 2, 2], [-1, 0, 1, 2.9, 7, 0, 3, NaN, Infinity]).dataSync();
    expect(Array.from(r.slice(0, 5))).toEqual([0, 1, -1, -1, 1]);
    expect(r[5]).toBe(1); // L_0 = 1 for any x
    expect(Number.isNaN(r[6]) && Number.isNaN(r[7]) && Number.isNaN(r[8])).toBe(true);
    expect(special.laguerrePolynomialL([2], -0.5).dataSync()[0]).toBe(1); // truncates to n = 0 first, as torch
    const g = special.laguerrePolynomialL({ data: new Float64Array([0.5, 2, 3]), shape: [1, 3] }, { data: new Int32Array([1, 2, 5, 10]), shape: [4, 1] });
    expect(g.shape).toEqual([4, 3]);
    expect(g.dtype).toBe('float64');
    const gd = g.dataSync();
    [1, 2, 5, 10].forEach((n, i) => [0.5, 2, 3].forEach((x, j) => {
      const { value } = laguerreExact(n, x);
      expect(Math.abs(gd[i * 3 + j] - value)).toBeLessThanOrEqual(2 * (n + 1) * EPS64 * laguerreExact(n, x).absSum);
    }));
    expect(() => special.laguerrePolynomialL([[1, 2]], [1, 2, 3])).toThrow(ShapeError);
  });

  /** The difference-form recurrence in float64 (the kernel's algorithm below 2^20), as a reference. */
  function recurrence(n: number, x: number): number {
    let d = -x, l = 1 + d;
    for (let k = 1; k < n; k++) { d = (k * d - x * l) / (k + 1); l += d; }
    return n === 0 ? 1 : l;
  }

  it('large degrees: the Bessel-type expansion agrees with the recurrence at n = 2^14 … 10^6 to the conditioning (1 + z)·eps', () => {
    for (const n of [16384, 30001, 100000, 2 ** 20]) {
      const xmax = Math.cbrt(1.44 * (n + 0.5));
      const xs = [1e-9, 0.01, 0.5, 1.7, 3.3, 0.37 * xmax, 0.99 * xmax, -1e-9, -0.5, -3, -0.2 * xmax];
      const got = special.laguerrePolynomialL(xs, n).dataSync();
      xs.forEach((x, i) => {
        const ref = recurrence(n, x);
        if (!Number.isFinite(ref)) { expect(got[i]).toBe(ref); return; } // the true value overflows (x < 0)
        const z = 2 * Math.sqrt((n + 0.5) * Math.abs(x));
        // |L_n(x)| ≤ e^{x/2} for x ≥ 0; for x < 0 all terms are positive and the value is its own scale
        const env = x >= 0 ? Math.exp(x / 2) : Math.abs(ref);
        // the recurrence's own bound is (n+1)·eps·env; the expansion's is (1 + z)·eps·env (x's ulp moves L that much)
        expect(Math.abs(got[i] - ref), `n=${n} x=${x}`).toBeLessThanOrEqual(2 * (n + 1 + z) * EPS64 * env);
      });
    }
  });

  it('large degrees: 2^31 − 1 is computed in bounded time where the expansion applies (it took 20 s per element), accurate for x < 0', () => {
    const n = 2 ** 31 - 1;
    const xs = Float64Array.from({ length: 64 }, (_, i) => -50 + i * 1.6);
    const t0 = performance.now();
    const got = special.laguerrePolynomialL({ data: xs, shape: [xs.length] }, n).dataSync();
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(got.every((v, i) => Number.isFinite(v) || (xs[i] < 0 && v === Infinity))).toBe(true);
    // x < 0: the explicit sum of positive terms is a stable reference (n|x| = 1e5: the terms
    // peak near k = 316 at about e^{632}; each carries ≤ 3k rounding errors).
    for (const x of [-1e5 / n, -1234.5 / n, -1 / n]) {
      let t = 1, ref = 1;
      for (let k = 0; k < 4000; k++) { t *= ((n - k) / (k + 1)) * (-x / (k + 1)); ref += t; if (t < 1e-18 * ref) break; }
      const v = special.laguerrePolynomialL([x], n).dataSync()[0];
      const z = 2 * Math.sqrt((n + 0.5) * Math.abs(x));
      expect(Math.abs(v - ref), `x=${x}`).toBeLessThanOrEqual((2 * (1 + z) + 12000) * EPS64 * ref);
    }
  });

  it('refuses, at once and by name, degrees above 2^20 outside the expansion\'s region', () => {
    const t0 = performance.now();
    expect(() => special.laguerrePolynomialL([0.5, 2000], 2 ** 31 - 1)).toThrow(ArgumentError);
    expect(() => special.laguerrePolynomialL([0.5, 2000], 2 ** 31 - 1))
      .toThrow(/^laguerrePolynomialL: n \(output element 1\) = 2147483647 with x = 2000 is beyond what is computed in bounded time/);
    expect(() => special.laguerrePolynomialL([200], [1048577.5])).toThrow(/^laguerrePolynomialL: n = 1048577.5 with x = 200/);
    expect(() => special.laguerrePolynomialL([2000], { data: new Int32Array([2 ** 31 - 1]), shape: [1] })).toThrow(ArgumentError);
    expect(() => special.laguerrePolynomialL([-1e101], 1e300)).toThrow(ArgumentError);
    expect(performance.now() - t0).toBeLessThan(2000);
    // NaN and +Inf degrees stay NaN results (torch); at the limit the recurrence still runs for any x.
    expect(Number.isNaN(special.laguerrePolynomialL([0.5], Infinity).dataSync()[0])).toBe(true);
    expect(Number.isFinite(special.laguerrePolynomialL([300], 2 ** 20).dataSync()[0])).toBe(true);
  });

  it('gives the same answers in the varying-degree and fixed-degree paths over many blocks', () => {
    const m = 1000;
    const x = new Float64Array(m).map((_, i) => (i % 37) - 10 + 0.125 * (i % 8));
    const ns = new Float64Array(m).map((_, i) => i % 23);
    const varying = special.laguerrePolynomialL({ data: x, shape: [m] }, { data: ns, shape: [m] }).dataSync();
    for (let n = 0; n < 23; n++) {
      const fixed = special.laguerrePolynomialL({ data: x, shape: [m] }, n).dataSync();
      for (let i = n; i < m; i += 23) expect(Object.is(varying[i], fixed[i])).toBe(true);
    }
  });
});

// ---------------------------------------------------------------- logspace

/** numpy's linspace exponents (start + i·step, last pinned to stop). */
function linspace(start: number, end: number, steps: number): number[] {
  if (steps === 1) return [start];
  const step = (end - start) / (steps - 1);
  return Array.from({ length: steps }, (_, i) => (i === steps - 1 ? end : start + i * step));
}

describe('logspace', () => {
  it('matches base ** linspace within the exponent conditioning plus 2 ulps (float64)', () => {
    fc.assert(fc.property(fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }),
      fc.integer({ min: 1, max: 300 }), fc.constantFrom(10, 2, Math.E, 0.5, 3.7),
      (start, end, steps, base) => {
        const got = logspace(start, end, steps, { base }).dataSync();
        const e = linspace(start, end, steps);
        const lb = Math.abs(Math.log(base));
        expect(got.length).toBe(steps);
        for (let i = 0; i < steps; i++) {
          const ref = base ** e[i];
          // torch's second-half exponents may differ from numpy's by a few ulps of e,
          // which scales the value by |Δe·ln base|.
          const de = 4 * EPS64 * Math.max(Math.abs(start), Math.abs(end));
          expect(Math.abs(got[i] - ref)).toBeLessThanOrEqual((2 * EPS64 + de * lb) * Math.abs(ref));
        }
        // exponent start exactly; glibc's pow and V8's may differ by an ulp
        expect(Math.abs(got[0] - base ** start)).toBeLessThanOrEqual(EPS64 * base ** start);
        if (steps > 1) expect(Math.abs(got[steps - 1] - base ** end)).toBeLessThanOrEqual(EPS64 * base ** end);
      }), { numRuns: 150 });
  });

  it('is within 2 ulps of Math.pow at torch\'s exponents (exp2 of a double-double product)', () => {
    fc.assert(fc.property(fc.double({ min: -300, max: 300, noNaN: true }), fc.double({ min: -300, max: 300, noNaN: true }),
      fc.integer({ min: 2, max: 500 }), fc.double({ min: 0.01, max: 100, noNaN: true }),
      (start, end, steps, base) => {
        const got = logspace(start, end, steps, { base }).dataSync();
        const step = (end - start) / (steps - 1);
        for (let i = 0; i < steps; i++) {
          const e = i < Math.floor(steps / 2) ? start + step * i : end - step * (steps - 1 - i);
          const ref = base ** e;
          if (ref === 0 || !Number.isFinite(ref) || ref < 2.2250738585072014e-308) continue; // outside the normal range
          expect(Math.abs(got[i] - ref)).toBeLessThanOrEqual(2 * EPS64 * Math.abs(ref));
        }
      }), { numRuns: 150 });
  });

  it('matches mathjs pow in 64-digit BigNumber arithmetic at torch\'s exponents (non-integer bases, decreasing ranges)', () => {
    // The double base and exponent enter exactly (m·2^k), so the reference is the true
    // base^e; the bound is the kernel's: exp2 of a double-double product, 2 ulps.
    const exact = (v: number): BigNumber => {
      const m = new Float64Array([v]);
      const bits = new BigUint64Array(m.buffer)[0];
      const e2 = Number((bits >> 52n) & 0x7ffn);
      const mant = (bits & ((1n << 52n) - 1n)) | (e2 ? 1n << 52n : 0n);
      const sign = bits >> 63n ? -1 : 1;
      return big.multiply(big.bignumber(sign * Number(mant)), big.pow(big.bignumber(2), big.bignumber((e2 || 1) - 1075))) as BigNumber;
    };
    fc.assert(fc.property(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true }),
      fc.integer({ min: 2, max: 24 }), fc.constantFrom(10, 2, Math.E, 0.5, 3.7, 1.0001, 123.456, 0.031),
      (a, b, steps, base) => {
        const [start, end] = a >= b ? [a, b] : [b, a]; // decreasing exponents (a negative step)
        const got = logspace(start, end, steps, { base }).dataSync();
        const step = (end - start) / (steps - 1);
        const lb = exact(base);
        for (let i = 0; i < steps; i++) {
          const e = i < Math.floor(steps / 2) ? start + step * i : end - step * (steps - 1 - i);
          const ref = Number(big.pow(lb, exact(e)) as unknown as number);
          if (ref === 0 || !Number.isFinite(ref) || ref < 2.2250738585072014e-308) continue;
          expect(Math.abs(got[i] - ref), `${base}^${e}`).toBeLessThanOrEqual(2 * EPS64 * ref);
        }
      }), { numRuns: 25 });
  });

  it('has exact endpoints wherever base^k is representable', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 20 }), fc.integer({ min: -40, max: 40 }), fc.integer({ min: -40, max: 40 }),
      fc.integer({ min: 2, max: 1000 }), (base, s, e, steps) => {
        const got = logspace(s, e, steps, { base }).dataSync();
        const exact = (k: number): number | undefined => {
          if (k >= 0) { const v = BigInt(base) ** BigInt(k); return v < 2n ** 53n ? Number(v) : undefined; }
          return (base & (base - 1)) === 0 ? 2 ** (Math.log2(base) * k) : undefined; // 2^-j is exact
        };
        const a = exact(s), b = exact(e);
        if (a !== undefined) expect(got[0]).toBe(a);
        if (b !== undefined) expect(got[steps - 1]).toBe(b);
      }), { numRuns: 200 });
    expect(Array.from(logspace(0, 3, 4).dataSync())).toEqual([1, 10, 100, 1000]);
    expect(Array.from(logspace(-10, 10, 21, { base: 2 }).dataSync())).toEqual(Array.from({ length: 21 }, (_, i) => 2 ** (i - 10)));
  });

  it('float32 is the double computation rounded once; int32 truncates and saturates', () => {
    fc.assert(fc.property(fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true }),
      fc.integer({ min: 1, max: 200 }), (start, end, steps) => {
        const d = logspace(start, end, steps).dataSync();
        const f = logspace(start, end, steps, { dtype: 'float32' });
        expect(f.dtype).toBe('float32');
        expect(Array.from(f.dataSync())).toEqual(Array.from(d, Math.fround));
      }), { numRuns: 60 });
    expect(Array.from(logspace(0, 9, 10, { dtype: 'int32' }).dataSync())).toEqual(Array.from({ length: 10 }, (_, i) => 10 ** i));
    expect(Array.from(logspace(0.9, 2.9, 3, { dtype: 'int32' }).dataSync())).toEqual([1, 10, 100]); // torch truncates start/end
    expect(Array.from(logspace(9, 11, 3, { dtype: 'int32' }).dataSync())).toEqual([1e9, 2147483647, 2147483647]);
    expect(Array.from(logspace(0, 2, 5, { base: 2, dtype: 'int32' }).dataSync())).toEqual([1, 1, 2, 2, 4]);
  });

  it('covers steps = 0 and 1, long ranges in parallel, and argument errors', () => {
    expect(logspace(1, 5, 0).shape).toEqual([0]);
    expect(Array.from(logspace(2, 5, 1).dataSync())).toEqual([100]);
    const n = 100_001;
    const big = logspace(-5, 5, n).dataSync();
    const e = linspace(-5, 5, n);
    for (let i = 0; i < n; i += 997) expect(Math.abs(big[i] - 10 ** e[i])).toBeLessThanOrEqual(40 * EPS64 * 10 ** e[i]);
    expect(big[0]).toBe(1e-5);
    expect(big[n - 1]).toBe(1e5);
    expect(() => logspace(0, 1, -1)).toThrow(ArgumentError);
    expect(() => logspace(0, 1, 2.5)).toThrow(ArgumentError);
    expect(() => logspace(0, 1, 3, { dtype: 'complex64' as never })).toThrow(DTypeError);
    expect(logspace(0, 1, 3)).toBeInstanceOf(Tensor);
  });
});
