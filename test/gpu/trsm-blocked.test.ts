// The blocked triangular solve (trsmBlockedGpu, look-ahead / fused / GEMM paths): op(A)·X = B in place over a batch of strided
// views, every (upper, unit, op) for float32 and complex64, sizes crossing the block edges of
// a small block size, ill-conditioned (Kahan) triangles, stride-0 A, A and B in one buffer;
// and the public solveTriangular above the general kernel's range (broadcast, info, n > 1024)
// against the CPU backend.
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, Tensor } from '../../src/index.js';
import { planBatch } from '../../src/core/batch.js';
import { trsmBlockedGpu, solveTriangularGpu, TRSM_BLOCKED_FROM, type TrsmArgs } from '../../src/backend/gpu/trsm.js';
import { dispatchCount } from '../../src/backend/gpu/queue.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { Mat, randomMatrix, triangular, triangleOf, kahan, toTensor, fromTensor, ratioSolve, roundTo } from '../helpers/matrices.js';

useGpu();

type Dt = 'float32' | 'complex64';
type Op = 'N' | 'T' | 'C';

/** op(T) of the triangle the solve reads (float64). */
function opOf(T: Mat, upper: boolean, unit: boolean, op: Op): Mat {
  const M = triangleOf(T, upper, unit);
  return op === 'N' ? M : op === 'T' ? M.transpose() : M.adjoint();
}

interface Layout { off: number; ld: number; stride: number }

/** Writes matrices into a flat host array at (off + b·stride + i·ld + j); the gaps hold `gap`. */
function pack(mats: readonly Mat[], L: Layout, complex: boolean, total: number, gap: number): Float32Array {
  const F = complex ? 2 : 1;
  const d = new Float32Array(total * F).fill(gap);
  mats.forEach((A, b) => {
    for (let i = 0; i < A.rows; i++)
      for (let j = 0; j < A.cols; j++) {
        const e = (L.off + b * L.stride + i * L.ld + j) * F;
        d[e] = A.re(i, j);
        if (complex) d[e + 1] = A.im(i, j);
      }
  });
  return d;
}

function unpack(d: Float32Array, L: Layout, b: number, rows: number, cols: number, complex: boolean): Mat {
  const F = complex ? 2 : 1;
  const X = new Mat(rows, cols);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) {
      const e = (L.off + b * L.stride + i * L.ld + j) * F;
      X.set(i, j, d[e], complex ? d[e + 1] : 0);
    }
  return X;
}

const gpuFlat = (d: Float32Array, complex: boolean) =>
  Tensor.fromStorage(complex ? 'complex64' : 'float32', [d.length / (complex ? 2 : 1)], d).to('gpu');

interface Case {
  dtype: Dt; n: number; nrhs: number; batch: number; upper: boolean; unit: boolean; op: Op; nb?: number;
  /** One A for the whole batch (stride 0). */
  shareA?: boolean;
  /** Padded ld, offsets and batch strides instead of packed matrices. */
  strided?: boolean;
  /** A and B in one buffer (A first). */
  sameBuffer?: boolean;
  /** Triangles to use instead of random well-conditioned ones. */
  Ts?: Mat[];
  path?: 'lookahead' | 'fused' | 'gemm';
  bc?: number;
  sb?: number;
  stageDiag?: boolean;
  stageTile?: boolean;
  /** B = op(M)·X₀ for a random X₀ (moderate X however ill-conditioned M is) instead of random B. */
  consistent?: boolean;
}

/** Runs trsmBlockedGpu on host-built operands; returns the residual ratio and X of each member. */
async function solveCase(c: Case, rng: Rng): Promise<{ ratios: number[]; Xs: Mat[]; Ms: Mat[]; Bs: Mat[]; dispatches: number }> {
  const complex = c.dtype === 'complex64';
  const { n, nrhs, batch } = c;
  const nA = c.shareA ? 1 : batch;
  const Ts = (c.Ts ?? Array.from({ length: nA }, () => triangular(n, c.upper, rng, { complex }))).map((T) => {
    const R = roundTo(T, c.dtype);
    if (c.unit) for (let i = 0; i < n; i++) R.set(i, i, NaN, NaN);
    return R;
  });
  const Ms = Ts.map((T) => opOf(T, c.upper, c.unit, c.op));
  const Bs = Array.from({ length: batch }, (_, b) => roundTo(
    c.consistent ? Ms[c.shareA ? 0 : b].mul(randomMatrix(n, nrhs, rng, { complex })) : randomMatrix(n, nrhs, rng, { complex }), c.dtype));
  const pad = c.strided ? 3 : 0;
  const la: Layout = { off: c.strided ? 5 : 0, ld: n + pad, stride: c.shareA ? 0 : n * (n + pad) + 2 * pad };
  const aTotal = la.off + Math.max(1, nA) * (n * (n + pad) + 2 * pad) + 1;
  const lbLocal: Layout = { off: c.strided ? 7 : 0, ld: nrhs + pad, stride: n * (nrhs + pad) + pad };
  const bTotal = lbLocal.off + batch * lbLocal.stride + 1;
  const F = complex ? 2 : 1;
  const ad = pack(Ts, la, complex, aTotal, NaN);
  const bd = pack(Bs, lbLocal, complex, bTotal, 777);
  let args: TrsmArgs;
  let bT: Tensor, lb: Layout;
  const common = { dtype: c.dtype, n, nrhs, batch, upper: c.upper, unit: c.unit, op: c.op, nb: c.nb, bc: c.bc, sb: c.sb, path: c.path, stageDiag: c.stageDiag, stageTile: c.stageTile };
  if (c.sameBuffer) {
    const both = new Float32Array((aTotal + bTotal) * F);
    both.set(ad, 0);
    both.set(bd, aTotal * F);
    bT = gpuFlat(both, complex);
    lb = { ...lbLocal, off: lbLocal.off + aTotal };
    args = { ...common, A: { s: bT.gpuStorage(), offset: la.off, ld: la.ld, stride: la.stride }, B: { s: bT.gpuStorage(), offset: lb.off, ld: lb.ld, stride: lb.stride } };
  } else {
    const aT = gpuFlat(ad, complex);
    bT = gpuFlat(bd, complex);
    lb = lbLocal;
    args = { ...common, A: { s: aT.gpuStorage(), offset: la.off, ld: la.ld, stride: la.stride }, B: { s: bT.gpuStorage(), offset: lb.off, ld: lb.ld, stride: lb.stride } };
  }
  const d0 = dispatchCount();
  trsmBlockedGpu('test', args);
  const dispatches = dispatchCount() - d0;
  const out = (await bT.data()) as Float32Array;
  // nothing outside the B views is written (the gaps keep their marker)
  const inB = new Uint8Array(out.length / F);
  for (let b = 0; b < batch; b++) for (let i = 0; i < n; i++) for (let j = 0; j < nrhs; j++) inB[lb.off + b * lb.stride + i * lb.ld + j] = 1;
  for (let e = c.sameBuffer ? aTotal : 0; e < out.length / F; e++) if (!inB[e]) expect(out[e * F]).toBe(777);
  const Xs = Bs.map((_, b) => unpack(out, lb, b, n, nrhs, complex));
  const ratios = Xs.map((X, b) => ratioSolve(Ms[c.shareA ? 0 : b], X, Bs[b], c.dtype));
  return { ratios, Xs, Ms, Bs, dispatches };
}

const OPS: readonly Op[] = ['N', 'T', 'C'];

describe('trsmBlockedGpu: every variant across block edges (nb = 8, sub-blocks of 3)', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const upper of [false, true]) {
      for (const unit of [false, true]) {
        gpuIt(`${dtype} upper=${upper} unit=${unit}, op N/T/C: ratio < 30 for n = 1, 7, 8, 9, 17, 40 and 1, 3, 64 RHS (look-ahead path)`, async () => {
          const rng = new Rng(100 + (upper ? 1 : 0) + (unit ? 2 : 0) + (dtype === 'complex64' ? 4 : 0));
          const sizes = [1, 7, 8, 9, 17, 40];
          const rhs = [1, 3, 64];
          for (const op of OPS) {
            for (let s = 0; s < sizes.length; s++) {
              const n = sizes[s], nrhs = rhs[(s + OPS.indexOf(op)) % 3];
              // sub-blocks of 3 cross the 8-row blocks' inside (3 + 3 + 2)
              const r = await solveCase({ dtype, n, nrhs, batch: 2, upper, unit, op, nb: 8, sb: 3 }, rng);
              for (const x of r.Xs) expect(Array.from(x.data).every(Number.isFinite), `${op} n=${n} k=${nrhs}`).toBe(true);
              for (const q of r.ratios) expect(q, `${op} n=${n} k=${nrhs}`).toBeLessThan(30);
            }
          }
        });
      }
    }
  }
});

describe('trsmBlockedGpu: operands', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: strided views (offset, padded ld, batch stride), stride-0 A, A and B in one buffer`, async () => {
      const rng = new Rng(dtype === 'float32' ? 11 : 12);
      for (const op of OPS) {
        for (const upper of [false, true]) {
          const tag = `op=${op} upper=${upper}`;
          const a = await solveCase({ dtype, n: 19, nrhs: 5, batch: 3, upper, unit: false, op, nb: 8, strided: true }, rng);
          for (const q of a.ratios) expect(q, `strided ${tag}`).toBeLessThan(30);
          const b = await solveCase({ dtype, n: 17, nrhs: 9, batch: 3, upper, unit: false, op, nb: 8, strided: true, shareA: true }, rng);
          for (const q of b.ratios) expect(q, `shared A ${tag}`).toBeLessThan(30);
          const c = await solveCase({ dtype, n: 21, nrhs: 4, batch: 2, upper, unit: op === 'T', op, nb: 8, strided: true, sameBuffer: true }, rng);
          for (const q of c.ratios) expect(q, `one buffer ${tag}`).toBeLessThan(30);
        }
      }
    });
  }

  gpuIt('fused path, nb = 24 (two 16-deep M chunks, the last one partial), the tile and the diagonal block staged or not', async () => {
    const rng = new Rng(19);
    for (const dtype of ['float32', 'complex64'] as const) {
      for (const op of OPS) {
        // (complex64 only the unstaged variant: each variant is a pipeline compile on lavapipe)
        for (const [stageDiag, stageTile] of dtype === 'float32' ? [[false, false], [true, false], [false, true]] as const : [[false, false]] as const) {
          const upper = op === 'N';
          const r = await solveCase({ dtype, n: 50, nrhs: 5, batch: 2, upper, unit: false, op, nb: 24, path: 'fused', stageDiag, stageTile }, rng);
          for (const q of r.ratios) expect(q, `${dtype} op=${op} diag=${stageDiag} tile=${stageTile}`).toBeLessThan(30);
        }
      }
    }
  });

  gpuIt('look-ahead path, nb = 24: two 16-deep chunks (the last partial), sub-blocks of 16 (the last partial), 4-column tiles, strided', async () => {
    const rng = new Rng(20);
    for (const dtype of ['float32', 'complex64'] as const) {
      for (const op of OPS) {
        const upper = op !== 'T';
        const r = await solveCase({ dtype, n: 61, nrhs: 10, batch: 2, upper, unit: op === 'C', op, nb: 24, bc: 4, sb: 16, strided: true }, rng);
        for (const q of r.ratios) expect(q, `${dtype} op=${op}`).toBeLessThan(30);
      }
    }
  });

  gpuIt('the same X from the look-ahead, fused and GEMM paths (n = 45, nb = 8); dispatches per call: 6, 7 and 6 + 5 GEMMs', async () => {
    for (const op of OPS) {
      const xs: Mat[] = [];
      for (const path of ['lookahead', 'fused', 'gemm'] as const) {
        const r = await solveCase({ dtype: 'float32', n: 45, nrhs: 7, batch: 1, upper: op === 'N', unit: false, op, nb: 8, path }, new Rng(31));
        expect(r.ratios[0], `${op} ${path}`).toBeLessThan(30);
        expect(r.dispatches, `${op} ${path}`).toBe(path === 'lookahead' ? 6 : path === 'fused' ? 7 : 6 + 5);
        xs.push(r.Xs[0]);
      }
      for (const X of xs.slice(1)) expect(X.sub(xs[0]).norm1(), op).toBeLessThan(1e-4 * xs[0].norm1());
    }
  });

  gpuIt('default block size, 40 RHS in several column tiles, n = 150', async () => {
    const rng = new Rng(13);
    for (const op of OPS) {
      const r = await solveCase({ dtype: 'float32', n: 150, nrhs: 40, batch: 2, upper: op !== 'T', unit: false, op }, rng);
      for (const q of r.ratios) expect(q, op).toBeLessThan(30);
    }
  });
});

describe('trsmBlockedGpu: the GEMM path (block solves, then gemmGpu updates)', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: every (upper, unit, op), n = 9, 17, 40 with nb = 8; strided, stride-0 A, one buffer`, async () => {
      const rng = new Rng(dtype === 'float32' ? 21 : 22);
      for (const op of OPS) {
        for (const upper of [false, true]) {
          for (const unit of [false, true]) {
            for (const [n, nrhs] of [[9, 3], [17, 40], [40, 5]] as const) {
              const tag = `op=${op} upper=${upper} unit=${unit} n=${n} k=${nrhs}`;
              const r = await solveCase({ dtype, n, nrhs, batch: 2, upper, unit, op, nb: 8, path: 'gemm', strided: n === 17 }, rng);
              for (const q of r.ratios) expect(q, tag).toBeLessThan(30);
            }
          }
        }
        const a = await solveCase({ dtype, n: 19, nrhs: 6, batch: 3, upper: true, unit: false, op, nb: 8, path: 'gemm', strided: true, shareA: true }, rng);
        for (const q of a.ratios) expect(q, `shared A op=${op}`).toBeLessThan(30);
        const b = await solveCase({ dtype, n: 21, nrhs: 4, batch: 2, upper: false, unit: false, op, nb: 8, path: 'gemm', strided: true, sameBuffer: true }, rng);
        for (const q of b.ratios) expect(q, `one buffer op=${op}`).toBeLessThan(30);
      }
    });
  }

  gpuIt('default choice: 256 right-hand sides take the GEMM path (nb 128, 32-column block solves), n = 150', async () => {
    const rng = new Rng(23);
    const r = await solveCase({ dtype: 'float32', n: 150, nrhs: 256, batch: 1, upper: false, unit: false, op: 'T' }, rng);
    expect(r.ratios[0]).toBeLessThan(30);
  });
});

describe('trsmBlockedGpu: random shapes (property)', () => {
  gpuIt('ratio < 30 for any n, RHS count, batch, block size, triangle, op, path and layout', async () => {
    await fc.assert(fc.asyncProperty(
      fc.record({
        complex: fc.boolean(), n: fc.integer({ min: 1, max: 45 }), nrhs: fc.integer({ min: 1, max: 20 }),
        batch: fc.integer({ min: 1, max: 3 }), nb: fc.constantFrom(8, 16), upper: fc.boolean(), unit: fc.boolean(),
        op: fc.constantFrom<Op>('N', 'T', 'C'), path: fc.constantFrom('lookahead', 'fused', 'gemm') as fc.Arbitrary<'lookahead' | 'fused' | 'gemm'>,
        strided: fc.boolean(), shareA: fc.boolean(),
        seed: fc.integer({ min: 0, max: 1000 }),
      }),
      async (c) => {
        const dtype: Dt = c.complex ? 'complex64' : 'float32';
        // sub-blocks of 3 with nb = 8 (inside the block), 16 with nb = 16: one compiled variant per nb
        const r = await solveCase({ ...c, dtype, sb: c.nb === 8 ? 3 : 16 }, new Rng(c.seed));
        for (const q of r.ratios) expect(q).toBeLessThan(30);
      },
    ), { numRuns: 5 });
  }, 120_000);
});

describe('trsmBlockedGpu: ill-conditioned triangles', () => {
  // With B = M·X₀ (X₀ moderate), inverting 64×64 Kahan diagonal blocks explicitly gives
  // ratios near 1e6 (float32, simulated on the host); substitution stays below 1.
  gpuIt('Kahan matrices (κ far beyond 1/eps) with the default block size and graded diagonals: ratio < 30 for every op', async () => {
    const rng = new Rng(14);
    for (const dtype of ['float32', 'complex64'] as const) {
      for (const op of OPS) {
        // Kahan is upper; its transpose is an ill-conditioned lower triangle
        for (const upper of [true, false]) {
          const K = kahan(70, 1.2);
          const T = upper ? K : K.transpose();
          for (let i = 0; i < 70; i++) for (let j = 0; j < 70; j++) if (upper ? j < i : j > i) T.set(i, j, NaN, NaN);
          for (const consistent of [true, false]) {
            const r = await solveCase({ dtype, n: 70, nrhs: 40, batch: 1, upper, unit: false, op, Ts: [T], consistent }, rng);
            expect(r.ratios[0], `${dtype} ${op} upper=${upper} consistent=${consistent}`).toBeLessThan(30);
            // blocks of 32 in sub-blocks of 8: the look-ahead updates cross Kahan's graded scale
            const s = await solveCase({ dtype, n: 70, nrhs: 40, batch: 1, upper, unit: false, op, nb: 32, sb: 8, Ts: [T], consistent }, rng);
            expect(s.ratios[0], `nb 32 ${dtype} ${op} upper=${upper} consistent=${consistent}`).toBeLessThan(30);
          }
          // graded: diagonal from 1 down to 1e-4 (κ ~ 1e4 and more from the off-diagonal part)
          const G = triangular(40, upper, rng, { complex: dtype === 'complex64' });
          for (let i = 0; i < 40; i++) G.set(i, i, 10 ** (-4 * i / 39) * (i % 2 ? -1 : 1), 0);
          const g = await solveCase({ dtype, n: 40, nrhs: 3, batch: 1, upper, unit: false, op, nb: 8, Ts: [G] }, rng);
          expect(g.ratios[0], `graded ${dtype} ${op} upper=${upper}`).toBeLessThan(30);
        }
      }
    }
  });
});

describe('gpu solveTriangular: the blocked path', () => {
  const cpu = (t: Tensor) => t.toAsync('cpu');

  gpuIt(`n = ${TRSM_BLOCKED_FROM} … 200: the blocked path agrees with the general kernel and the CPU backend`, async () => {
    const rng = new Rng(15);
    for (const dtype of ['float32', 'complex64'] as const) {
      for (const upper of [false, true]) {
        const complex = dtype === 'complex64';
        const n = upper ? 200 : TRSM_BLOCKED_FROM;
        const Ts = [0, 1].map(() => roundTo(triangular(n, upper, rng, { complex }), dtype));
        const Bs = Ts.map(() => roundTo(randomMatrix(n, 6, rng, { complex }), dtype));
        const A = toTensor(Ts, dtype), B = toTensor(Bs, dtype);
        const Ag = A.to('gpu'), Bg = B.to('gpu');
        const opts = { upper, unitriangular: false };
        const blocked = await cpu(linalg.solveTriangular(Ag, Bg, opts));
        const general = await cpu(solveTriangularGpu(Ag, Bg, planBatch(Ag, Bg, 'test'), opts, 'general').X);
        const ref = linalg.solveTriangular(A, B, opts);
        Ts.forEach((T, b) => {
          const Xb = fromTensor(blocked, b), R = fromTensor(ref, b);
          expect(ratioSolve(triangleOf(T, upper), Xb, Bs[b], dtype)).toBeLessThan(30);
          expect(Xb.sub(R).norm1()).toBeLessThan(1e-4 * R.norm1());
          expect(Xb.sub(fromTensor(general, b)).norm1()).toBeLessThan(1e-4 * R.norm1());
        });
      }
    }
  });

  gpuIt('broadcast: one A for a batch of B, and A (3, 1) against B (1, 2) (gathered)', async () => {
    const rng = new Rng(16);
    const n = 150, k = 5;
    const T = roundTo(triangular(n, true, rng), 'float32');
    const Bs = [0, 1, 2, 3].map(() => roundTo(randomMatrix(n, k, rng), 'float32'));
    const X = await cpu(linalg.solveTriangular(toTensor([T], 'float32').to('gpu'), toTensor(Bs, 'float32').to('gpu'), { upper: true }));
    expect(X.shape).toEqual([4, n, k]);
    Bs.forEach((B, b) => expect(ratioSolve(triangleOf(T, true), fromTensor(X, b), B, 'float32')).toBeLessThan(30));
    const Ts = [0, 1, 2].map(() => roundTo(triangular(n, false, rng), 'float32'));
    const B2 = [0, 1].map(() => roundTo(randomMatrix(n, k, rng), 'float32'));
    const A3 = toTensor(Ts, 'float32', [3, 1]).to('gpu'), B12 = toTensor(B2, 'float32', [1, 2]).to('gpu');
    const Y = await cpu(linalg.solveTriangular(A3, B12, { upper: false }));
    expect(Y.shape).toEqual([3, 2, n, k]);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 2; j++) {
      expect(ratioSolve(triangleOf(Ts[i], false), fromTensor(Y, 2 * i + j), B2[j], 'float32')).toBeLessThan(30);
    }
  });

  gpuIt('an exactly zero diagonal and a NaN entry: info and NaN for those members only, as on the CPU (float32 and complex64)', async () => {
    const rng = new Rng(17);
    for (const dtype of ['float32', 'complex64'] as const) {
      const complex = dtype === 'complex64';
      const n = 160;
      const Ts = [0, 1, 2, 3].map(() => roundTo(triangular(n, false, rng, { complex }), dtype));
      Ts[1].set(100, 100, 0, 0);
      Ts[3].set(90, 20, NaN, 0);
      const Bs = Ts.map(() => roundTo(randomMatrix(n, 3, rng, { complex }), dtype));
      const A = toTensor(Ts, dtype), B = toTensor(Bs, dtype);
      const r = linalg.solveTriangularEx(A.to('gpu'), B.to('gpu'), { upper: false });
      const ref = linalg.solveTriangularEx(A, B, { upper: false });
      const info = Array.from((await r.info.data()) as Int32Array);
      expect(info).toEqual(Array.from(ref.info.dataSync() as Int32Array));
      expect(info.slice(0, 3)).toEqual([0, 101, 0]);
      const X = await cpu(r.solution);
      const X1 = fromTensor(X, 1), X3 = fromTensor(X, 3);
      for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) expect(X1.re(i, j)).toBeNaN();
      // rows from the NaN entry's row on are NaN, the rows above it are solved
      for (let j = 0; j < 3; j++) { expect(X3.re(90, j)).toBeNaN(); expect(Number.isFinite(X3.re(89, j))).toBe(true); }
      for (const b of [0, 2]) expect(ratioSolve(triangleOf(Ts[b], false), fromTensor(X, b), Bs[b], dtype)).toBeLessThan(30);
    }
  });

  gpuIt('n = 1100 with 4 RHS (above the old 1024 limit), unit and non-unit, against the CPU backend', async () => {
    const rng = new Rng(18);
    const n = 1100;
    for (const unit of [false, true]) {
      const T = roundTo(triangular(n, unit, rng), 'float32');
      const B = roundTo(randomMatrix(n, 4, rng), 'float32');
      const A = toTensor([T], 'float32'), Bt = toTensor([B], 'float32');
      const opts = { upper: unit, unitriangular: unit };
      const X = fromTensor(await cpu(linalg.solveTriangular(A.to('gpu'), Bt.to('gpu'), opts)));
      const R = fromTensor(linalg.solveTriangular(A, Bt, opts));
      expect(ratioSolve(triangleOf(T, unit, unit), X, B, 'float32')).toBeLessThan(30);
      expect(X.sub(R).norm1()).toBeLessThan(1e-4 * R.norm1());
    }
  }, 60_000);
});
