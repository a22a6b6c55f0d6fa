// GPU special functions against the CPU backend on the same float32 inputs.
// Documented float32 deviations (docs/special.md), each bounded here:
//   frexp, heaviside: none (integer operations on the bits): results equal the CPU's.
//   laguerrePolynomialL: f32 arithmetic (the CPU computes float32 in double), error
//     ≤ 4·(n+1)·eps32 times the envelope min(Σ|terms|, max(|L_n(x)|, e^{x/2})).
//   logspace: endpoints equal the CPU's; inside, relative error ≤ (8 + T)·eps32 with
//     T = max(|start|, |end|)·|log2 base| (f32 exponents; the CPU rounds a double pow).
import { describe, expect, it } from 'vitest';
import { logspacePow, logspaceEndpointBits } from '../../src/core/pow.js';
import { frexp, heaviside, logspace, special, tensor, Tensor, DTypeError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

const EPS32 = 2 ** -23;

function f32(values: number[]): Tensor {
  return tensor({ data: Float32Array.from(values), shape: [values.length] });
}

/** Deterministic float32 bit patterns of every class: normal, subnormal, ±0, ±Inf, NaN. */
function patterns(n: number, seed = 1): Float32Array {
  const u = new Uint32Array(n);
  let s = seed >>> 0;
  const next = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
  for (let i = 0; i < n; i++) {
    const r = next();
    const sign = (r & 1) << 31;
    switch (i % 6) {
      case 0: case 1: u[i] = sign | (((next() % 254) + 1) << 23) | (next() & 0x7fffff); break; // normal
      case 2: u[i] = sign | ((next() & 0x7fffff) || 1); break; // subnormal
      case 3: u[i] = sign; break; // ±0
      case 4: u[i] = sign | 0x7f800000; break; // ±Inf
      default: u[i] = sign | 0x7f800000 | ((next() & 0x7fffff) || 1); // NaN
    }
  }
  return new Float32Array(u.buffer);
}

const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

describe('GPU special functions match the CPU', () => {
  gpuIt('frexp is exact for every float32 class, subnormals included', async () => {
    const xs = patterns(10_007);
    const x = tensor({ data: xs, shape: [10_007] });
    const cpu = frexp(x);
    const g = frexp(x.to('gpu'));
    expect(g.mantissa.device).toBe('gpu');
    expect(g.exponent.dtype).toBe('int32');
    const gm = await g.mantissa.data(), ge = await g.exponent.data();
    const cm = cpu.mantissa.dataSync(), ce = cpu.exponent.dataSync();
    let bad = 0;
    for (let i = 0; i < xs.length; i++) if (!same(gm[i], cm[i]) || ge[i] !== ce[i]) bad++;
    expect(bad).toBe(0);
    // the smallest subnormal and the sign of zero, spelled out
    const s = frexp(f32([1.401298464324817e-45, -0, -1.1754942106924411e-38]).to('gpu'));
    expect(Array.from(await s.mantissa.data())).toEqual([0.5, -0, -0.9999998807907104]);
    expect(Array.from(await s.exponent.data())).toEqual([-148, 0, -126]);
  });

  gpuIt('heaviside equals the CPU in every broadcast variant', async () => {
    const xs = patterns(3 * 5 * 7, 7);
    const vs = patterns(5 * 7, 9);
    const cases: Array<[number[], number[], Float32Array, Float32Array]> = [
      [[3, 5, 7], [3, 5, 7], xs, patterns(105, 3)], // same
      [[3, 5, 7], [], xs, Float32Array.of(0.5)], // splat values
      [[], [5, 7], Float32Array.of(-0), vs], // splat x
      [[3, 5, 7], [5, 1], xs, vs.slice(0, 5)], // strided
      [[3, 1, 7], [1, 5, 1], xs.slice(0, 21), vs.slice(0, 5)], // strided, both broadcast
      [[40, 64], [40, 64], patterns(2560, 11), patterns(2560, 12)], // full tiles and a partial one
      [[40, 64], [64], patterns(2560, 13), patterns(64, 14)], // strided over full tiles
    ];
    for (const [as, bs, xd, vd] of cases) {
      const x = tensor({ data: xd, shape: as }), v = tensor({ data: vd, shape: bs });
      const c = heaviside(x, v).dataSync();
      const gt = heaviside(x.to('gpu'), v.to('gpu'));
      expect(gt.shape).toEqual(heaviside(x, v).shape);
      const g = await gt.data();
      let bad = 0;
      for (let i = 0; i < c.length; i++) if (!same(g[i], c[i])) bad++;
      expect(bad).toBe(0);
    }
    expect(Array.from(await heaviside(f32([-1e-45, 1e-45, -0, 0, -2]).to('gpu'), 0.25).data())).toEqual([0, 1, 0.25, 0.25, 0]);
  });

  gpuIt('laguerrePolynomialL stays within 4·(n+1)·eps32 of the envelope', async () => {
    const xv: number[] = [], nv: number[] = [];
    for (let i = 0; i < 600; i++) {
      const n = i % 61;
      const x = Math.fround(((i * 7919) % 1000) / 1000 * 120 - 30);
      xv.push(x); nv.push(n);
    }
    xv.push(150, 150, -100, 1e-30, 3.5); nv.push(60, 200, 100, 40, 1000);
    const x = f32(xv), n = f32(nv);
    const got = await special.laguerrePolynomialL(x.to('gpu'), n.to('gpu')).data();
    const x64 = tensor({ data: Float64Array.from(xv), shape: [xv.length] });
    const n64 = tensor({ data: Float64Array.from(nv), shape: [nv.length] });
    const ref = special.laguerrePolynomialL(x64, n64).dataSync();
    const absSum = special.laguerrePolynomialL(tensor({ data: Float64Array.from(xv, (v) => -Math.abs(v)), shape: [xv.length] }), n64).dataSync();
    const cpu32 = special.laguerrePolynomialL(x, n).dataSync();
    let worst = 0;
    for (let i = 0; i < xv.length; i++) {
      if (!Number.isFinite(cpu32[i])) { expect(got[i]).toBe(cpu32[i]); continue; } // true overflow on both
      const env = Math.min(absSum[i], Math.max(Math.abs(ref[i]), xv[i] > 0 ? Math.exp(xv[i] / 2) : 0));
      const r = Math.abs(got[i] - ref[i]) / ((nv[i] + 1) * EPS32 * env);
      worst = Math.max(worst, r);
    }
    expect(worst).toBeLessThanOrEqual(4);
    // special values exactly as the CPU
    const sx = f32([2, 2, 2, NaN, 0, Infinity, Infinity, -Infinity, 2, 2]);
    const sn = f32([-1, 0, 1, 3, 7, 3, 4, 5, NaN, -Infinity]);
    const gs = await special.laguerrePolynomialL(sx.to('gpu'), sn.to('gpu')).data();
    const cs = special.laguerrePolynomialL(sx, sn).dataSync();
    for (let i = 0; i < cs.length; i++) expect(same(gs[i], cs[i])).toBe(true);
    // scalar n (splat) and broadcast n
    const b = special.laguerrePolynomialL(tensor({ data: Float32Array.of(0.5, 2, 3), shape: [1, 3] }).to('gpu'),
      tensor({ data: Float32Array.of(1, 2, 5), shape: [3, 1] }).to('gpu'));
    expect(b.shape).toEqual([3, 3]);
    const bc = special.laguerrePolynomialL(tensor({ data: Float32Array.of(0.5, 2, 3), shape: [1, 3] }), tensor({ data: Float32Array.of(1, 2, 5), shape: [3, 1] })).dataSync();
    const bg = await b.data();
    for (let i = 0; i < 9; i++) expect(Math.abs(bg[i] - bc[i])).toBeLessThanOrEqual(24 * EPS32 * Math.max(1, Math.abs(bc[i])) * 8);
    const sp = await special.laguerrePolynomialL(f32([0.5, 2]).to('gpu'), 2).data();
    expect(Array.from(sp)).toEqual([0.125, -1]);
  });

  gpuIt('logspace: exact endpoints, interior within (8 + T)·eps32 of the CPU', async () => {
    const cases: Array<[number, number, number, number]> = [
      [0, 3, 4, 10], [-5, 5, 1001, 10], [0, 10, 5000, 2], [-20, 30, 777, Math.E], [3, -3, 64, 0.5], [1.5, 2.5, 1, 10],
      [-37, 38, 10_000, 10],
    ];
    for (const [s, e, steps, base] of cases) {
      const c = logspace(s, e, steps, { base, dtype: 'float32' }).dataSync();
      const gt = logspace(s, e, steps, { base, dtype: 'float32', device: 'gpu' });
      expect(gt.device).toBe('gpu');
      const g = await gt.data();
      expect(g[0]).toBe(c[0]);
      expect(g[steps - 1]).toBe(c[steps - 1]);
      const T = Math.max(Math.abs(s), Math.abs(e)) * Math.abs(Math.log2(base));
      let worst = 0;
      for (let i = 0; i < steps; i++) {
        if (c[i] === 0 || !Number.isFinite(c[i]) || Math.abs(c[i]) < 1.1754943508222875e-38) continue; // subnormal: may flush on a GPU
        worst = Math.max(worst, Math.abs(g[i] - c[i]) / Math.abs(c[i]));
      }
      expect(worst).toBeLessThanOrEqual((8 + T) * EPS32);
    }
    // bases the shader does not take run the CPU kernel and upload: identical results
    const neg = await logspace(0, 4, 5, { base: -2, dtype: 'float32', device: 'gpu' }).data();
    expect(Array.from(neg)).toEqual([1, -2, 4, -8, 16]);
    expect((await logspace(1, 2, 0, { dtype: 'float32', device: 'gpu' }).data()).length).toBe(0);
    expect(() => logspace(0, 1, 3, { device: 'gpu' })).toThrow(DTypeError); // float64 on the GPU
    expect(() => logspace(0, 1, 3, { dtype: 'int32', device: 'gpu' })).toThrow(DTypeError);
  });

  gpuIt('rejects float64 GPU input and mixed devices', () => {
    expect(() => frexp(tensor([1, 2]).to('gpu'))).toThrow(DTypeError);
    expect(() => heaviside(f32([1]).to('gpu'), f32([1]))).toThrow(/values is on cpu/);
  });
});

// The GPU backend computes logspace's endpoints (and the whole result for bases outside
// (0, Inf) and non-finite exponents) on the host in plain TS (src/core/pow.ts), not by
// calling the CPU backend: these must be the native kernel's bits. No adapter needed.
describe('logspace host values (src/core/pow.ts) against the native kernel', () => {
  const bits = (a: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(a).buffer));
  it('endpoints: base^start and base^end rounded once, bit for bit, over random and exact cases', () => {
    let seed = 12345;
    const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 4294967296; };
    const cases: Array<[number, number, number]> = [[0, 3, 10], [-5, 5, 10], [0.5, 7.25, 2], [-37, 38, 10], [1, 2, Math.E], [0, 10, 1], [3, -4, 0.5]];
    for (let i = 0; i < 2000; i++) cases.push([(rnd() - 0.5) * 80, (rnd() - 0.5) * 80, 0.05 + rnd() * 30]);
    for (const [s, e, base] of cases) {
      for (const steps of [1, 2, 7]) {
        const c = logspace(s, e, steps, { base, dtype: 'float32' }).dataSync();
        expect(bits(logspaceEndpointBits(steps, s, e, base).map((u) => new Float32Array(new Uint32Array([u]).buffer)[0])))
          .toEqual(bits([c[0], c[steps - 1]]));
      }
    }
  });
  it('bases outside (0, Inf) and non-finite exponents: every value bit for bit (C pow special cases included)', () => {
    const cases: Array<[number, number, number, number]> = [
      [0, 4, 5, -2], [0.5, 3.5, 7, -3], [-3, 3, 7, 0], [-2, 2, 5, -0], [0, 5, 6, Infinity], [-1, 1, 3, -Infinity],
      [0, 3, 4, NaN], [-Infinity, 0, 5, 10], [0, Infinity, 5, 10], [NaN, 1, 4, 2], [-Infinity, Infinity, 3, 0.5],
      [0, Infinity, 4, 1], [NaN, NaN, 3, 1], [-Infinity, 0, 3, -1], [0, 1, 1, -8], [2, 3, 1, 1],
    ];
    for (const [s, e, steps, base] of cases) {
      const c = logspace(s, e, steps, { base, dtype: 'float32' }).dataSync();
      const h = new Float32Array(steps);
      logspacePow(steps, s, e, base, h);
      expect(bits(h)).toEqual(bits(c));
    }
  });
});
