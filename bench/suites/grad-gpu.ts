// Reverse-mode cost on the GPU (issue 16: every op's backward ÷ forward; "gdn.chunkedForward
// backward within 3× its forward on the H200"): the linear-algebra ops at their issue sizes,
// a few elementwise ops and reductions on 10 M elements, the GDN chunked forward at
// B 4, T 4096, H 16, dk = dv = 128, its chunk solve and inverse (4,096 × 64×64) and its
// recurrent step (B 4, H 16, dk = dv = 128), all float32. The gpu column is the plain forward call;
// 'pullback ms' is vjp's pullback of one recorded forward (a fixed random cotangent), each
// call ending with gpu.sync() and its outputs freed, timed by the same loop; 'bwd ÷ fwd' their
// ratio. The gradients of one pullback are read and must be finite. Suite `grad-gpu`. On a
// software adapter (lavapipe) the sizes shrink: every path runs, speed is not compared.
import { isGpuOff, registerSuite, type BenchCase, type TimingOptions } from '../harness.js';
import { gradGpuCase, type GradSpec } from '../grad-case.js';
import { uniformFloats } from '../gpu-case.js';
import {
  add, exp, eye, gpu, linalg, max, mul, randn, sum, tanh, triu, Tensor,
} from '../../src/index.js';
import * as gdn from '../../src/gdn/index.js';

const F = { dtype: 'float32', device: 'gpu' } as const;
const g32 = (shape: number[], seed: number) => randn(shape, { ...F, seed });
/** I + 0.5·G/√n: eigenvalues in a disk of radius ½ around 1, so cond ≈ 3 and |det| ≈ 1 at any n. */
function nearIdentity(n: number, seed: number): Tensor {
  return add(eye(n, F), mul(g32([n, n], seed), 0.5 / Math.sqrt(n)));
}

interface Sizes {
  mm: number; lu: number; rhs: number; qr: number; svd: number; svdvals: number;
  tall: [number, number]; norm: number; ew: number;
  gdn: { B: number; T: number; H: number; D: number };
  chunks: { count: number; C: number };
}

const H200: Sizes = {
  mm: 2048, lu: 1024, rhs: 64, qr: 1024, svd: 256, svdvals: 512, tall: [512, 256], norm: 512, ew: 10_000_000,
  gdn: { B: 4, T: 4096, H: 16, D: 128 }, chunks: { count: 4096, C: 64 },
};
const SOFT: Sizes = {
  mm: 128, lu: 64, rhs: 8, qr: 64, svd: 24, svdvals: 32, tall: [48, 24], norm: 32, ew: 100_000,
  gdn: { B: 1, T: 130, H: 2, D: 32 }, chunks: { count: 16, C: 16 },
};

const M = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n.toLocaleString('en'));

function specs(z: Sizes, timing: Partial<TimingOptions>): GradSpec[] {
  const s: GradSpec[] = [];
  const push = (name: string, op: string, inputs: () => Tensor[], f: (...xs: Tensor[]) => unknown) =>
    s.push({ name: `gpu ${name} float32`, op, inputs, f, timing });
  const { mm, lu: n, rhs, tall: [tm, tn] } = z;

  push(`matmul ${mm}×${mm}`, 'matmul', () => [g32([mm, mm], 1), g32([mm, mm], 2)], (a, b) => linalg.matmul(a, b));
  push(`solve ${n}×${n}, B ${n}×${rhs}`, 'solve', () => [nearIdentity(n, 3), g32([n, rhs], 4)], (a, b) => linalg.solve(a, b));
  push(`inv ${n}×${n}`, 'inv', () => [nearIdentity(n, 5)], (a) => linalg.inv(a));
  push(`det ${n}×${n}`, 'det', () => [nearIdentity(n, 6)], (a) => linalg.det(a));
  push(`slogdet ${n}×${n} (logabsdet)`, 'slogdet', () => [nearIdentity(n, 7)], (a) => linalg.slogdet(a).logabsdet);
  push(`luFactor ${n}×${n} (LU)`, 'luFactor', () => [nearIdentity(n, 8)], (a) => linalg.luFactor(a).LU);
  push(`solveTriangular ${n}×${n} upper, B ${n}×${rhs}`, 'solveTriangular', () => [triu(nearIdentity(n, 9)), g32([n, rhs], 10)],
    (a, b) => linalg.solveTriangular(a, b, { upper: true }));
  push(`qr ${z.qr}×${z.qr} (Q, R)`, 'qr', () => [g32([z.qr, z.qr], 11)], (a) => linalg.qr(a));
  push(`svd ${z.svd}×${z.svd} (U, S, Vh)`, 'svd', () => [g32([z.svd, z.svd], 12)], (a) => linalg.svd(a));
  push(`svdvals ${z.svdvals}×${z.svdvals}`, 'svdvals', () => [g32([z.svdvals, z.svdvals], 13)], (a) => linalg.svdvals(a));
  push(`pinv ${tm}×${tn}`, 'pinv', () => [g32([tm, tn], 14)], (a) => linalg.pinv(a));
  push(`lstsq ${tm}×${tn}, B ${tm}×${rhs} (solution)`, 'lstsq', () => [g32([tm, tn], 15), g32([tm, rhs], 16)],
    (a, b) => linalg.lstsq(a, b).solution);
  push(`norm fro ${z.norm}×${z.norm}`, 'norm', () => [g32([z.norm, z.norm], 17)], (a) => linalg.norm(a, 'fro'));
  push(`norm nuc ${z.norm}×${z.norm}`, 'norm', () => [g32([z.norm, z.norm], 18)], (a) => linalg.norm(a, 'nuc'));

  const e = z.ew;
  push(`add ${M(e)}`, 'add', () => [g32([e], 19), g32([e], 20)], (a, b) => add(a, b));
  push(`mul ${M(e)}`, 'mul', () => [g32([e], 21), g32([e], 22)], (a, b) => mul(a, b));
  push(`exp ${M(e)}`, 'exp', () => [g32([e], 23)], (a) => exp(a));
  push(`tanh ${M(e)}`, 'tanh', () => [g32([e], 24)], (a) => tanh(a));
  push(`sum ${M(e)} (all)`, 'sum', () => [g32([e], 25)], (a) => sum(a));
  push(`max ${M(e / 1000)}×1000 (dim 1)`, 'max', () => [g32([e / 1000, 1000], 26)], (a) => max(a, { dim: 1 }));

  const { B, T, H, D } = z.gdn;
  // the gdn-gpu suite's laws: q, k, v uniform(−1, 1), g in [−0.5, 0], β in [0.25, 0.75]
  push(`gdn.chunkedForward B ${B}, T ${T.toLocaleString('en')}, H ${H}, dk = dv = ${D} (o; qkL2norm)`, 'gdn.chunkedForward', () => {
    const n = B * T * H * D, ng = B * T * H, qk = [B, T, H, D], gate = [B, T, H];
    const up = (a: Float32Array, shape: number[]) => Tensor.fromStorage('float32', shape, a).to('gpu');
    return [
      up(uniformFloats(n, 31), qk), up(uniformFloats(n, 32), qk), up(uniformFloats(n, 33), qk),
      up(uniformFloats(ng, 34).map((x) => 0.5 + 0.25 * x), gate), up(uniformFloats(ng, 35).map((x) => -0.25 * (x + 1)), gate),
    ];
  }, (q, k, v, beta, g) => gdn.chunkedForward({ q, k, v, beta, g, qkL2norm: true }).o);
  const { count, C } = z.chunks;
  // chunk systems: a strictly lower L of norm ≈ ½ (the diagonal and above are never read)
  push(`gdn.chunkSolve ${count.toLocaleString('en')} × ${C}×${C}, ${C} RHS`, 'gdn.chunkSolve',
    () => [mul(g32([count, C, C], 36), 0.5 / Math.sqrt(C)), g32([count, C, C], 37)], (a, b) => gdn.chunkSolve(a, b));
  push(`gdn.invUnitLower ${count.toLocaleString('en')} × ${C}×${C}`, 'gdn.invUnitLower',
    () => [mul(g32([count, C, C], 38), 0.5 / Math.sqrt(C))], (a) => gdn.invUnitLower(a));
  push(`gdn.recurrentStep B ${B}, H ${H}, dk = dv = ${D} (o, state; qkL2norm)`, 'gdn.recurrentStep', () => {
    const up = (a: Float32Array, shape: number[]) => Tensor.fromStorage('float32', shape, a).to('gpu');
    const n = B * H * D;
    return [
      up(uniformFloats(n * D, 39).map((x) => 0.5 * x), [B, H, D, D]), up(uniformFloats(n, 40), [B, H, D]), up(uniformFloats(n, 41), [B, H, D]),
      up(uniformFloats(n, 42), [B, H, D]), up(uniformFloats(B * H, 43).map((x) => 0.5 + 0.25 * x), [B, H]),
      up(uniformFloats(B * H, 44).map((x) => -0.25 * (x + 1)), [B, H]),
    ];
  }, (S, q, k, v, beta, g) => gdn.recurrentStep(S, q, k, v, beta, g, { qkL2norm: true }));
  return s;
}

const ABOUT =
  'grad-gpu: the lapis gpu column is the plain forward call, float32; *pullback ms* is the pullback of `vjp` for one ' +
  'recorded forward with a fixed random cotangent (every differentiated input gets its gradient), each call ending with ' +
  'gpu.sync() and its results freed, timed by the same loop (host medians); *bwd ÷ fwd* their ratio (issue 16; its goal ' +
  'for gdn.chunkedForward: ≤ 3 on the H200). The gradients of one pullback are read and must be finite. Square inputs of ' +
  'solve, inv, det, slogdet, luFactor are I + 0.5·G/√n (cond ≈ 3), solveTriangular the upper triangle of one; the others ' +
  'randn (G); gdn inputs as in gdn-gpu. A row with no time names the rule or hook that had not landed when it ran.';

async function cases(): Promise<BenchCase[]> {
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true;
  // lavapipe compiles each kernel in seconds: small sizes and a generous budget
  const timing: Partial<TimingOptions> = soft
    ? { budgetSeconds: 60, warmSeconds: 0, targetSeconds: 0.2, minSamples: 1, maxSamples: 3 }
    : { warmSeconds: 0.25, targetSeconds: 0.4, minSampleSeconds: 0.005, minSamples: 5, maxSamples: 15, budgetSeconds: 10 };
  // as gdn-gpu: the pool keeps the GDN case's stages and gradients between calls
  if (!soft) gpu.memory({ maxPooledBytes: 48 * 2 ** 30 });
  return specs(soft ? SOFT : H200, timing).map(gradGpuCase);
}

registerSuite('grad-gpu', cases, ABOUT);
