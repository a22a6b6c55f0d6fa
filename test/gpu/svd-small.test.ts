// The one-workgroup GPU SVD (src/backend/gpu/svd_small.ts, shaders/svd/svd_small.wgsl)
// against the CPU SVD in float64: LAPACK's ratios, singular values (graded and scaled
// inputs), fullMatrices, svdvals, zero columns and NaN/Inf members of a batch. The sizes
// share four kernel variants (float32 and complex64 × (n ≤ 8, m ≤ 8), float32 (n ≤ 32,
// m ≤ 32), complex64 (n ≤ 16, m ≤ 16)): lavapipe compiles each in about 10 s.
import { describe, expect } from 'vitest';
import { linalg, Rng, tensor, type Tensor } from '../../src/index.js';
import { ArgumentError, DTypeError } from '../../src/core/errors.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import {
  type M, zerosM, mul, adj, sub, fro, eyeM, fromTensor, toTensor, randomM, withSingularValues, usv, orthErr, scaleCols, scaleM,
  randomUnitary, cols, atScale,
} from '../helpers/spectra.js';
import { svdSmallGpu, svdSmallFits, svdSmallPlan, ROTATION_ONCE, type SvdSmallTune } from '../../src/backend/gpu/svd_small.js';

useGpu();
const EPS = 2 ** -23;
type D = 'float32' | 'complex64';
const UV = { computeUV: true, fullMatrices: false };

interface Out { S: number[][]; U: M[] | null; Vh: M[] | null; info: number[] }

async function run(ms: M[], dtype: D, opts = UV, batch?: number[], tune: SvdSmallTune = {}): Promise<Out> {
  const A = toTensor(ms, dtype, batch).to('gpu');
  const r = svdSmallGpu(A, opts, 'svd', tune);
  const S = await r.S.toAsync('cpu');
  const U = r.U ? await r.U.toAsync('cpu') : null;
  const Vh = r.Vh ? await r.Vh.toAsync('cpu') : null;
  const info = Array.from(await r.info.data() as Int32Array);
  const k = S.shape[S.shape.length - 1];
  const sd = S.dataSync() as Float32Array;
  const flat = (t: Tensor) => t.reshape([ms.length, t.rows, t.cols]);
  const out: Out = {
    S: ms.map((_, b) => Array.from(sd.slice(b * k, (b + 1) * k))),
    U: U ? ms.map((_, b) => fromTensor(flat(U), b)) : null,
    Vh: Vh ? ms.map((_, b) => fromTensor(flat(Vh), b)) : null,
    info,
  };
  A.dispose(); r.S.dispose(); r.U?.dispose(); r.Vh?.dispose(); r.info.dispose();
  return out;
}

/** Singular values of the float32-rounded matrix in float64 (CPU). */
function refS(a: M, dtype: D): number[] {
  const x = toTensor([a], dtype);  // rounds to float32
  const d = x.dataSync() as Float32Array;
  const cplx = dtype === 'complex64';
  const y = toTensor([roundM(a, d, cplx)], cplx ? 'complex128' : 'float64');
  return Array.from(linalg.svdvals(y).dataSync() as Float64Array);
}

function roundM(a: M, d: Float32Array, cplx: boolean): M {
  const c = zerosM(a.m, a.n);
  for (let i = 0; i < a.m * a.n; i++) { c.re[i] = cplx ? d[2 * i] : d[i]; c.im[i] = cplx ? d[2 * i + 1] : 0; }
  return c;
}

function rounded(a: M, dtype: D): M {
  return roundM(a, toTensor([a], dtype).dataSync() as Float32Array, dtype === 'complex64');
}

/** LAPACK's ratios for one matrix (the first n columns of U for the product). */
function ratios(a: M, s: number[], U: M, Vh: M) {
  const m = a.m, n = a.n;
  const na = fro(a);
  return {
    bwd: na === 0 ? fro(usv(U, s, Vh)) : fro(sub(a, usv(U, s, Vh))) / (Math.max(m, n) * EPS * na),
    ou: orthErr(U) / (U.m * EPS),
    ov: orthErr(adj(Vh)) / (n * EPS),
  };
}

function expectSorted(s: number[]): void {
  for (let i = 0; i < s.length; i++) {
    expect(s[i]).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(s[i]).toBeLessThanOrEqual(s[i - 1]);
  }
}

/** Checks every matrix of a batch: info 0, ratios < 50, σ to 10·n·eps·σ_max of float64. */
function checkAll(ms: M[], out: Out, dtype: D, label: string): number {
  let worst = 0;
  ms.forEach((a0, b) => {
    const a = rounded(a0, dtype);
    expect(out.info[b], `${label} #${b} info`).toBe(0);
    const s = out.S[b];
    expectSorted(s);
    const ref = refS(a, dtype);
    for (let i = 0; i < s.length; i++) expect(Math.abs(s[i] - ref[i]), `${label} #${b} σ${i}`).toBeLessThanOrEqual(10 * a.n * EPS * ref[0] + 1e-44);
    if (out.U) {
      const r = ratios(a, s, out.U[b], out.Vh![b]);
      worst = Math.max(worst, r.bwd, r.ou, r.ov);
      expect(r.bwd, `${label} #${b} backward`).toBeLessThan(50);
      expect(r.ou, `${label} #${b} U`).toBeLessThan(50);
      expect(r.ov, `${label} #${b} Vh`).toBeLessThan(50);
    }
  });
  return worst;
}

const SIZES: Array<[number, number]> = [[1, 1], [2, 2], [5, 3], [8, 4], [8, 8], [7, 5], [32, 32], [30, 20], [25, 17]];

describe('gpu svd (one workgroup per matrix)', () => {
  gpuIt('svdSmallFits holds under WebGPU default limits for n ≤ 16 (both dtypes) and 32×32 float32', () => {
    const def = { maxComputeWorkgroupStorageSize: 16384, maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256 };
    for (const dt of ['float32', 'complex64'] as const) {
      for (let n = 1; n <= 16; n++) for (const m of [n, 2 * n, 64]) expect(svdSmallPlan(Math.max(m, n), n, dt, def), `${dt} ${m}×${n}`).not.toBeNull();
    }
    expect(svdSmallPlan(32, 32, 'float32', def)).not.toBeNull();
    expect(svdSmallPlan(40, 32, 'float32', def)).not.toBeNull();
    expect(svdSmallPlan(4, 5, 'float32', def)).toBeNull();   // wide
    expect(svdSmallPlan(40, 33, 'float32', def)).toBeNull(); // n > 32
    expect(svdSmallFits(32, 32, 'float32')).toBe(true);
    expect(svdSmallFits(3, 4, 'float32')).toBe(false);
    const wide = toTensor([randomM(3, 4, new Rng(1), false)], 'float32').to('gpu');
    expect(() => svdSmallGpu(wide, UV, 'svd')).toThrow(ArgumentError);
    expect(() => svdSmallGpu(wide, UV, 'svd')).toThrow(/^svd: /);
    const ints = tensor({ data: new Int32Array(4), shape: [2, 2], dtype: 'int32' }).to('gpu');
    expect(() => svdSmallGpu(ints, UV, 'svd')).toThrow(DTypeError);
    const cpu = toTensor([randomM(2, 2, new Rng(1), false)], 'float32');
    expect(() => svdSmallGpu(cpu, UV, 'svd')).toThrow(/^svd: A is on cpu/);
    wide.dispose(); ints.dispose();
  });

  gpuIt('empty batch: outputs of the batch shape, nothing dispatched', async () => {
    const A = tensor({ data: new Float32Array(0), shape: [0, 3, 2], dtype: 'float32' }).to('gpu');
    const r = svdSmallGpu(A, { computeUV: true, fullMatrices: true }, 'svd');
    expect([r.S.shape, r.U!.shape, r.Vh!.shape, r.info.shape]).toEqual([[0, 2], [0, 3, 3], [0, 2, 2], [0]]);
    expect((await r.S.data()).length).toBe(0);
  });

  gpuIt('float32 random tall and square sizes (batched): LAPACK ratios < 50, σ against float64', async () => {
    const rng = new Rng(11);
    let worst = 0;
    for (const [m, n] of SIZES) {
      const ms = Array.from({ length: m <= 8 ? 9 : 3 }, (_, b) => scaleM(randomM(m, n, rng, false), 2 ** (3 * b - 6)));
      worst = Math.max(worst, checkAll(ms, await run(ms, 'float32'), 'float32', `${m}×${n}`));
    }
    console.log(`float32: worst LAPACK ratio ${worst.toFixed(2)}`);
    expect(worst).toBeGreaterThan(0);
  });

  // 2 rows per lane: 16 lanes per pair, more than V's 8 vec4s per column (lanes 8–15 idle
  // in V; the other tests give each lane one or more whole vec4s)
  gpuIt('the other rotation scheme (SvdSmallTune.once) with 2 rows per lane: 32×32, 31×31, 32×27 (one variant), ratios < 50', async () => {
    const rng = new Rng(21);
    for (const [m, n] of [[32, 32], [31, 31], [32, 27]] as Array<[number, number]>) {
      const ms = Array.from({ length: 3 }, () => randomM(m, n, rng, false));
      ms.push(scaleCols(randomM(m, n, rng, false), Array.from({ length: n }, (_, j) => (j === 3 ? 0 : 2 ** -j))));
      checkAll(ms, await run(ms, 'float32', UV, undefined, { once: !ROTATION_ONCE, rowsPerLane: 2 }), 'float32', `once ${m}×${n}`);
    }
  });

  gpuIt('complex64: LAPACK ratios < 50, σ against complex128', async () => {
    const rng = new Rng(12);
    for (const [m, n] of [[8, 8], [6, 5], [3, 1], [16, 16], [13, 9]] as Array<[number, number]>) {
      const ms = Array.from({ length: 4 }, () => randomM(m, n, rng, true));
      checkAll(ms, await run(ms, 'complex64'), 'complex64', `c ${m}×${n}`);
    }
  });

  gpuIt('100 matrices in a (4, 25) batch, scales 2^-40…2^40 and conditions to 1e6', async () => {
    const rng = new Rng(13);
    const ms = Array.from({ length: 100 }, (_, b) => scaleM(
      withSingularValues(8, 8, Array.from({ length: 8 }, (_, i) => 10 ** (-6 * i * (b % 5) / 28)), rng, false), 2 ** ((b % 81) - 40)));
    checkAll(ms, await run(ms, 'float32', UV, [4, 25]), 'float32', 'batch');
  });

  gpuIt('fullMatrices: U is m×m unitary, its first n columns the thin U', async () => {
    const rng = new Rng(14);
    for (const [dt, m, n] of [['float32', 8, 3], ['float32', 7, 6], ['complex64', 8, 5], ['float32', 32, 20]] as Array<[D, number, number]>) {
      const ms = Array.from({ length: 3 }, () => randomM(m, n, rng, dt === 'complex64'));
      const full = await run(ms, dt, { computeUV: true, fullMatrices: true });
      const thin = await run(ms, dt);
      ms.forEach((a0, b) => {
        const a = rounded(a0, dt);
        const U = full.U![b];
        expect([U.m, U.n]).toEqual([m, m]);
        expect(orthErr(U) / (m * EPS), `${dt} ${m}×${n} U`).toBeLessThan(50);
        expect(full.S[b]).toEqual(thin.S[b]);
        const r = ratios(a, full.S[b], cols(U, 0, n), full.Vh![b]);
        expect(r.bwd).toBeLessThan(50);
        expect(fro(sub(cols(U, 0, n), thin.U![b]))).toBe(0);
      });
    }
  });

  gpuIt('computeUV false: the same singular values, no U and Vh', async () => {
    const rng = new Rng(15);
    for (const [dt, m, n] of [['float32', 8, 8], ['complex64', 16, 16], ['float32', 32, 32]] as Array<[D, number, number]>) {
      const ms = Array.from({ length: 5 }, () => randomM(m, n, rng, dt === 'complex64'));
      const a = await run(ms, dt, { computeUV: false, fullMatrices: false });
      const b = await run(ms, dt);
      expect(a.U).toBeNull();
      expect(a.Vh).toBeNull();
      expect(a.S).toEqual(b.S);
      expect(a.info).toEqual(b.info);
    }
  });

  gpuIt('graded columns A = Q·D, D over 1e-30…1: every σ to a few eps relatively', async () => {
    const rng = new Rng(16);
    let worst = 0;
    for (const [dt, m, n] of [['float32', 8, 8], ['float32', 32, 32], ['complex64', 16, 16], ['float32', 7, 5]] as Array<[D, number, number]>) {
      const ms = Array.from({ length: 3 }, () => {
        const d = Array.from({ length: n }, (_, j) => 10 ** (-30 * j / Math.max(1, n - 1)));
        for (let j = n - 1; j > 0; j--) { const k = Math.floor(rng.uniform() * (j + 1)); [d[j], d[k]] = [d[k], d[j]]; }
        return scaleCols(cols(randomUnitary(m, rng, dt === 'complex64'), 0, n), d);
      });
      const out = await run(ms, dt);
      ms.forEach((a0, b) => {
        const a = rounded(a0, dt);
        const ref = refS(a, dt);
        expect(out.info[b]).toBe(0);
        out.S[b].forEach((s, i) => { worst = Math.max(worst, Math.abs(s - ref[i]) / (ref[i] * EPS)); });
        const r = ratios(a, out.S[b], out.U![b], out.Vh![b]);
        expect(r.ou).toBeLessThan(50);
        expect(r.ov).toBeLessThan(50);
      });
    }
    console.log(`graded: worst relative σ error ${worst.toFixed(2)} eps`);
    expect(worst).toBeLessThan(16); // 0.85 eps on lavapipe; headroom for GPUs with approximate sqrt
  });

  gpuIt('scaled inputs (1e-38 with subnormal entries, 1e38): finite σ, orthonormal U and Vh', async () => {
    const rng = new Rng(17);
    for (const [dt, m, n] of [['float32', 6, 4], ['float32', 8, 8], ['complex64', 8, 6]] as Array<[D, number, number]>) {
      const base = randomM(m, n, rng, dt === 'complex64');
      const ms = [atScale(base, 1e-38), atScale(base, 1e-42), atScale(base, 3e37), scaleM(base, 1e38 / 4)];
      const out = await run(ms, dt);
      ms.forEach((a0, b) => {
        const a = rounded(a0, dt);
        const ref = refS(a, dt);
        expect(out.info[b]).toBe(0);
        const s = out.S[b];
        expectSorted(s);
        for (let i = 0; i < n; i++) {
          expect(Number.isFinite(s[i])).toBe(true);
          expect(Math.abs(s[i] - ref[i]), `${dt} #${b} σ${i}`).toBeLessThanOrEqual(10 * n * EPS * ref[0] + 2 ** -149);
        }
        expect(orthErr(out.U![b]) / (m * EPS)).toBeLessThan(50);
        expect(orthErr(adj(out.Vh![b])) / (n * EPS)).toBeLessThan(50);
      });
    }
  });

  gpuIt('zero matrix and a zero column: σ = 0 and U still orthonormal', async () => {
    const rng = new Rng(18);
    const z = zerosM(8, 5);
    const zc = randomM(8, 5, rng, false);
    for (let i = 0; i < 8; i++) zc.re[i * 5 + 2] = 0;
    const two = randomM(8, 5, rng, false);
    for (let i = 0; i < 8; i++) { two.re[i * 5 + 0] = 0; two.re[i * 5 + 4] = 0; }
    // a column of subnormal entries beside O(1) ones: σ below the smallest normal is 0 (the CPU's rule)
    const sub = randomM(8, 5, rng, false);
    for (let i = 0; i < 8; i++) sub.re[i * 5 + 1] = (i + 1) * 1e-40;
    for (const opts of [UV, { computeUV: true, fullMatrices: true }]) {
      const out = await run([z, zc, two, sub], 'float32', opts);
      expect(out.S[0]).toEqual([0, 0, 0, 0, 0]);
      expect(out.S[1][4]).toBe(0);
      expect(out.S[2].slice(3)).toEqual([0, 0]);
      expect(out.S[3][4]).toBe(0);
      expect(out.S[3][3]).toBeGreaterThan(0);
      [z, zc, two, rounded(sub, 'float32')].forEach((a, b) => {
        expect(out.info[b]).toBe(0);
        const U = out.U![b];
        expect(orthErr(U) / (8 * EPS), `#${b} U`).toBeLessThan(50);
        expect(orthErr(adj(out.Vh![b])) / (5 * EPS)).toBeLessThan(50);
        const r = ratios(a, out.S[b], U, out.Vh![b]);
        expect(r.bwd).toBeLessThan(50);
      });
    }
    const c = zerosM(6, 4);
    const outc = await run([c], 'complex64', { computeUV: true, fullMatrices: true });
    expect(outc.S[0]).toEqual([0, 0, 0, 0]);
    expect(orthErr(outc.U![0]) / (6 * EPS)).toBeLessThan(50);
  });

  gpuIt('NaN / Inf members of a batch: info −1 and NaN outputs, neighbours unaffected', async () => {
    const rng = new Rng(19);
    for (const dt of ['float32', 'complex64'] as const) {
      const ms = Array.from({ length: 6 }, () => randomM(8, 8, rng, dt === 'complex64'));
      ms[1].re[9] = NaN;
      ms[3].re[0] = Infinity;
      if (dt === 'complex64') ms[4].im[63] = -Infinity; else ms[4].re[63] = -Infinity;
      const out = await run(ms, dt);
      for (const b of [1, 3, 4]) {
        expect(out.info[b]).toBe(-1);
        expect(out.S[b].every(Number.isNaN)).toBe(true);
        expect(Array.from(out.U![b].re).every(Number.isNaN)).toBe(true);
        expect(Array.from(out.Vh![b].re).every(Number.isNaN)).toBe(true);
      }
      checkAll([ms[0], ms[2], ms[5]], {
        S: [0, 2, 5].map((b) => out.S[b]), U: [0, 2, 5].map((b) => out.U![b]), Vh: [0, 2, 5].map((b) => out.Vh![b]),
        info: [0, 2, 5].map((b) => out.info[b]),
      }, dt, `${dt} neighbours`);
    }
  });
});
