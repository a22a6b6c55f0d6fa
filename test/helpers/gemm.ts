// Strided GEMM test cases (test/gpu/gemm.test.ts, gemm-tiles.test.ts): gemmGpu against a
// float64 host reference, each entry within c·k·eps·(|alpha|·|A||B| + |beta|·|C|), and every
// element of the buffers outside C's view unchanged (no stray writes).
import { expect } from 'vitest';
import { Tensor } from '../../src/index.js';
import { gemmGpu, planGemm, type GemmArgs, type GemmTile } from '../../src/backend/gpu/gemm.js';

const EPS32 = 1.1920928955078125e-7;
export type D = 'float32' | 'complex64';
export type Op = 'N' | 'T' | 'C';

function rand(n: number, seed: number): Float32Array {
  // xorshift: deterministic, uniform in [-1, 1)
  let s = (seed * 2654435761) >>> 0 || 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    out[i] = (s / 4294967296) * 2 - 1;
  }
  return out;
}

export interface View { offset: number; ld: number; stride: number }
export interface Case {
  dtype: D; m: number; n: number; k: number; batch: number;
  opA?: Op; opB?: Op; alpha?: number; beta?: number;
  A: View; B: View; C: View;
  /** A and/or B in C's buffer (their views must not overlap C's). */
  aliasA?: boolean; aliasB?: boolean;
  /** C's view starts as NaN (beta = 0 must not read it). */
  nanC?: boolean;
  /** A's view holds NaN (alpha = 0 must not read it). */
  nanA?: boolean;
  tile?: GemmTile;
  /** Whether A and B must be read as vec4s (checks the variant the plan picks). */
  vec?: [boolean, boolean];
  /** Whether C must be bound as vec4s. */
  vecC?: boolean;
  /** Elements past the furthest view in each buffer (default 5). */
  slack?: number;
}

/** Element indices of a rows×cols view over the batch. */
function* viewIndices(v: View, rows: number, cols: number, batch: number): Generator<number> {
  for (let b = 0; b < batch; b++) for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) yield v.offset + b * v.stride + i * v.ld + j;
}

function extent(v: View, rows: number, cols: number, batch: number): number {
  return rows * cols * batch === 0 ? v.offset : v.offset + (batch - 1) * v.stride + (rows - 1) * v.ld + cols;
}

export async function runCase(c: Case): Promise<void> {
  const w = c.dtype === 'complex64' ? 2 : 1;
  const opA = c.opA ?? 'N', opB = c.opB ?? 'N';
  const alpha = c.alpha ?? 1, beta = c.beta ?? 0;
  const { m, n, k, batch } = c;
  const aDims: [number, number] = opA === 'N' ? [m, k] : [k, m];
  const bDims: [number, number] = opB === 'N' ? [k, n] : [n, k];
  let cLen = extent(c.C, m, n, batch);
  if (c.aliasA) cLen = Math.max(cLen, extent(c.A, ...aDims, batch));
  if (c.aliasB) cLen = Math.max(cLen, extent(c.B, ...bDims, batch));
  const aLen = extent(c.A, ...aDims, batch), bLen = extent(c.B, ...bDims, batch);
  const slack = c.slack ?? 5;
  const cHost = rand((cLen + slack) * w, 3);
  const aHost = c.aliasA ? cHost : rand((aLen + slack) * w, 1);
  const bHost = c.aliasB ? cHost : rand((bLen + slack) * w, 2);
  if (c.nanC) for (const e of viewIndices(c.C, m, n, batch)) for (let q = 0; q < w; q++) cHost[e * w + q] = NaN;
  if (c.nanA) for (const e of viewIndices(c.A, ...aDims, batch)) aHost[e * w] = NaN;

  // float64 reference and the entry-wise error bound
  const get = (h: Float32Array, e: number, conj: boolean): [number, number] =>
    [h[e * w], w === 2 ? (conj ? -h[e * w + 1] : h[e * w + 1]) : 0];
  const expect64 = new Map<number, { re: number; im: number; bound: number }>();
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
      let re = 0, im = 0, bound = 0;
      for (let p = 0; p < k && alpha !== 0; p++) {
        const ea = c.A.offset + b * c.A.stride + (opA === 'N' ? i * c.A.ld + p : p * c.A.ld + i);
        const eb = c.B.offset + b * c.B.stride + (opB === 'N' ? p * c.B.ld + j : j * c.B.ld + p);
        const [ar, ai] = get(aHost, ea, opA === 'C');
        const [br, bi] = get(bHost, eb, opB === 'C');
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
        bound += Math.hypot(ar, ai) * Math.hypot(br, bi);
      }
      const ec = c.C.offset + b * c.C.stride + i * c.C.ld + j;
      const [cr, ci] = beta === 0 ? [0, 0] : get(cHost, ec, false);
      expect64.set(ec, {
        re: alpha * re + beta * cr, im: alpha * im + beta * ci,
        bound: (Math.max(k, 1) + 2) * EPS32 * (Math.abs(alpha) * bound + Math.abs(beta) * Math.hypot(cr, ci)),
      });
    }
  }

  const up = (h: Float32Array) => Tensor.fromStorage(c.dtype, [h.length / w], h.slice()).to('gpu');
  const tC = up(cHost);
  const tA = c.aliasA ? tC : up(aHost);
  const tB = c.aliasB ? tC : up(bHost);
  const args: GemmArgs = {
    dtype: c.dtype, m, n, k, batch, opA, opB, alpha, beta,
    A: { s: tA.gpuStorage(), ...c.A }, B: { s: tB.gpuStorage(), ...c.B }, C: { s: tC.gpuStorage(), ...c.C },
  };
  const v = planGemm(args, c.tile).variant;
  if (c.vec) expect([v.vecA, v.vecB], 'vec4 loads of A, B').toEqual(c.vec);
  if (c.vecC !== undefined) expect(v.vecC, 'vec4 binding of C').toBe(c.vecC);
  gemmGpu('test', args, c.tile);
  const out = (await tC.data()) as Float32Array;
  let worst = 0;
  for (let e = 0; e < out.length / w; e++) {
    const x = expect64.get(e);
    if (!x) {
      // outside C's view: untouched, bit for bit (NaN included)
      for (let q = 0; q < w; q++) if (!Object.is(out[e * w + q], cHost[e * w + q])) expect.fail(`element ${e} outside C's view changed`);
      continue;
    }
    const err = Math.hypot(out[e * w] - x.re, w === 2 ? out[e * w + 1] - x.im : 0);
    if (!(err <= 4 * x.bound + 1e-30)) worst = Math.max(worst, Number.isNaN(err) ? Infinity : err / (x.bound + 1e-30));
  }
  expect(worst, 'error / (k·eps·(|alpha||A||B| + |beta||C|))').toBe(0);
  for (const t of new Set([tA, tB, tC])) t.dispose();
}

/**
 * A case with views padded by `pad` (offsets, ld > cols, stride > matrix); `padB` for B
 * (pad 4: offset, ld and stride multiples of 4, so a float32 operand is read as vec4s).
 */
export function padded(dtype: D, m: number, n: number, k: number, batch: number, opA: Op, opB: Op, pad: number, more: Partial<Case> = {}, padB = pad): Case {
  const view = (rows: number, cols: number, off: number, q: number): View => {
    const ld = q % 4 === 0 ? Math.ceil(cols / 4) * 4 + q : cols + q;
    return { offset: off, ld, stride: rows * ld + q };
  };
  const a = opA === 'N' ? view(m, k, pad, pad) : view(k, m, pad, pad);
  const b = opB === 'N' ? view(k, n, 2 * padB, padB) : view(n, k, 2 * padB, padB);
  return { dtype, m, n, k, batch, opA, opB, A: a, B: b, C: view(m, n, 3 * pad + 1, pad), ...more };
}

