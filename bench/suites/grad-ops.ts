// Reverse-mode cost of the tensor ops on the CPU (issue 16: every op's backward ÷ forward):
// each elementwise op on 1000×1000 float64 (complex128 where the op is about complex numbers),
// the reductions whole and along a dim, the indexing and shape ops, the special functions,
// matmul 256 and 1024, and the other recorded functions (tensor(), lu, the Ex forms, the GDN
// ops). A row per op: the lapis column is the plain forward call, 'pullback
// ms' vjp's pullback of one recorded forward (a fixed random cotangent, timed after one
// warm-up), 'bwd ÷ fwd' their ratio. Suite `grad-ops`; the LU family and the decompositions
// have their own suites (grad-solve, grad-decomp), the GPU figures are grad-gpu.
import { registerSuite, type BenchCase } from '../harness.js';
import { gradCpuCase, type GradSpec } from '../grad-case.js';
import {
  abs, add, adjoint, angle, broadcastTo, cast, clamp, concat, conj, cos, diagonal, div, exp, expand,
  expm1, flatten, frexp, heaviside, imag, linalg, log, log1p, max, maxWithIndices, maximum, mean, min,
  minWithIndices, minimum, mul, neg, permute, pow, prod, put, randn, real, sigmoid, sign, sin,
  slice, special, split, sqrt, squeeze, stack, sub, sum, take, tanh, tensor, trace, transpose, tril,
  triu, unsqueeze, where, matrixTranspose, gt, eye, type Tensor,
} from '../../src/index.js';
import * as gdn from '../../src/gdn/index.js';

const M = 1000;
const SHAPE = [M, M];
const LABEL = '1000×1000';

// Inputs are shared between cases (made once per suite run, not inside the timed calls).
const memo = new Map<string, Tensor>();
const once = (key: string, mk: () => Tensor): Tensor => {
  if (!memo.has(key)) memo.set(key, mk());
  return memo.get(key)!;
};
const x64 = (seed: number, shape: number[] = SHAPE) => once(`x ${seed} ${shape}`, () => randn(shape, { seed }));
/** Entries |randn| + 0.5 ≥ 0.5: the inputs of log, sqrt, div, pow and laguerre stay positive. */
const pos64 = (seed: number, shape: number[] = SHAPE) => once(`pos ${seed} ${shape}`, () => add(abs(randn(shape, { seed })), 0.5));
const z128 = (seed: number, shape: number[] = SHAPE) => once(`z ${seed} ${shape}`, () => randn(shape, { dtype: 'complex128', seed }));

/** Flat indices spread over n elements: count of them, duplicates included (put accumulates). */
function indices(n: number, count: number): Tensor {
  const a = new Int32Array(count);
  for (let i = 0; i < count; i++) a[i] = Math.floor(((i * 0.6180339887498949) % 1) * n);
  return tensor({ data: a, shape: [count] });
}

function specs(): GradSpec[] {
  const s: GradSpec[] = [];
  const un = (op: string, f: (x: Tensor) => unknown, mk: (seed: number) => Tensor = x64, what = `${LABEL} float64`) =>
    s.push({ name: `${op} ${what}`, op, inputs: () => [mk(1)], f: (x) => f(x) });
  const bin = (op: string, f: (a: Tensor, b: Tensor) => unknown, mk: (seed: number) => Tensor = x64, what = `${LABEL} float64`) =>
    s.push({ name: `${op} ${what}`, op, inputs: () => [mk(1), mk(2)], f: (a, b) => f(a, b) });

  // elementwise
  bin('add', add);
  s.push({ name: `add broadcast ${LABEL} + 1000 float64`, op: 'add', inputs: () => [x64(1), x64(2, [M])], f: (a, b) => add(a, b) });
  bin('sub', sub);
  bin('mul', mul);
  bin('mul', mul, z128, `${LABEL} complex128`);
  bin('div', div, pos64);
  bin('pow', pow, pos64);
  un('pow', (x) => pow(x, 2.5), pos64, `${LABEL} float64 (scalar exponent 2.5)`);
  bin('maximum', maximum);
  bin('minimum', minimum);
  un('neg', neg);
  un('abs', abs);
  un('abs', abs, z128, `${LABEL} complex128`);
  un('sign', sign);
  un('sqrt', sqrt, pos64);
  un('exp', exp);
  un('exp', exp, z128, `${LABEL} complex128`);
  un('log', log, pos64);
  un('log1p', log1p, pos64);
  un('expm1', expm1);
  un('sin', sin);
  un('cos', cos);
  un('tanh', tanh);
  un('sigmoid', sigmoid);
  un('conj', conj, z128, `${LABEL} complex128`);
  un('real', real, z128, `${LABEL} complex128`);
  un('imag', imag, z128, `${LABEL} complex128`);
  un('angle', angle, z128, `${LABEL} complex128`);
  un('clamp', (x) => clamp(x, -0.5, 0.5));
  un('cast', (x) => cast(x, 'float32'), x64, `${LABEL} float64 → float32`);
  un('cast', (x) => cast(x, 'complex128'), x64, `${LABEL} float64 → complex128`);
  {
    let cond: Tensor | undefined;
    s.push({
      name: `where ${LABEL} float64`, op: 'where',
      inputs: () => { cond = gt(x64(3), 0); return [x64(1), x64(2)]; },
      f: (a, b) => where(cond!, a, b),
    });
  }

  // reductions
  un('sum', (x) => sum(x), x64, `${LABEL} float64 (all)`);
  un('sum', (x) => sum(x, { dim: 1 }), x64, `${LABEL} float64 (dim 1)`);
  un('mean', (x) => mean(x), x64, `${LABEL} float64 (all)`);
  un('mean', (x) => mean(x, { dim: 0 }), x64, `${LABEL} float64 (dim 0)`);
  // factors near 1 so a row's product of 1000 neither overflows nor underflows
  const near1 = (seed: number) => once(`near1 ${seed}`, () => add(mul(randn(SHAPE, { seed }), 0.01), 1));
  un('prod', (x) => prod(x, { dim: 1 }), near1, `${LABEL} float64 (dim 1)`);
  un('max', (x) => max(x), x64, `${LABEL} float64 (all)`);
  un('max', (x) => max(x, { dim: 1 }), x64, `${LABEL} float64 (dim 1)`);
  un('min', (x) => min(x, { dim: 1 }), x64, `${LABEL} float64 (dim 1)`);
  un('maxWithIndices', (x) => maxWithIndices(x, 1), x64, `${LABEL} float64 (dim 1)`);
  un('minWithIndices', (x) => minWithIndices(x, 0), x64, `${LABEL} float64 (dim 0)`);

  // indexing and shape
  un('reshape', (x) => x.reshape([100, 10_000]), x64, `${LABEL} → 100×10000 float64`);
  un('flatten', (x) => flatten(x));
  un('squeeze', (x) => squeeze(x, 0), (seed) => x64(seed, [1, M, M]), `1×${LABEL} float64`);
  un('unsqueeze', (x) => unsqueeze(x, 1));
  un('permute', (x) => permute(x, [2, 0, 1]), (seed) => x64(seed, [100, 100, 100]), '100×100×100 float64');
  un('transpose', (x) => transpose(x, 0, 1));
  un('matrixTranspose', (x) => matrixTranspose(x));
  un('adjoint', (x) => adjoint(x), z128, `${LABEL} complex128`);
  un('broadcastTo', (x) => broadcastTo(x, SHAPE), (seed) => x64(seed, [M]), `1000 → ${LABEL} float64`);
  un('expand', (x) => expand(x, SHAPE), (seed) => x64(seed, [M, 1]), `1000×1 → ${LABEL} float64`);
  s.push({ name: `concat 2 × 1000×500 float64 (dim 1)`, op: 'concat', inputs: () => [x64(1, [M, 500]), x64(2, [M, 500])], f: (a, b) => concat([a, b], 1) });
  s.push({ name: `stack 2 × ${LABEL} float64`, op: 'stack', inputs: () => [x64(1), x64(2)], f: (a, b) => stack([a, b]) });
  un('split', (x) => split(x, 250), x64, `${LABEL} float64 (4 × 250 rows)`);
  un('slice', (x) => slice(x, { start: 100, stop: 900 }, { step: 2 }), x64, `${LABEL} float64 (rows 100:900, columns ::2)`);
  {
    let idx: Tensor | undefined;
    s.push({ name: `take ${LABEL} float64 (100,000 indices)`, op: 'take', inputs: () => { idx = indices(M * M, 100_000); return [x64(1)]; }, f: (x) => take(x, idx!) });
  }
  {
    let idx: Tensor | undefined;
    s.push({
      name: `put ${LABEL} float64 (100,000 values, accumulate)`, op: 'put',
      inputs: () => { idx = indices(M * M, 100_000); return [x64(1), x64(2, [100_000])]; },
      f: (x, v) => put(x, idx!, v, { accumulate: true }),
    });
  }
  un('diagonal', (x) => diagonal(x));
  un('trace', (x) => trace(x));
  un('tril', (x) => tril(x));
  un('triu', (x) => triu(x, 1));

  // special functions
  s.push({ name: `heaviside ${LABEL} float64`, op: 'heaviside', inputs: () => [x64(1), x64(2)], f: (x, v) => heaviside(x, v) });
  un('laguerrePolynomialL', (x) => special.laguerrePolynomialL(x, 8), pos64, `${LABEL} float64 (n = 8)`);
  un('frexp', (x) => frexp(x));

  // matmul
  for (const n of [256, 1024]) {
    s.push({ name: `matmul ${n}×${n} float64`, op: 'matmul', inputs: () => [x64(1, [n, n]), x64(2, [n, n])], f: (a, b) => linalg.matmul(a, b) });
  }
  s.push({ name: 'matmul 256×256 complex128', op: 'matmul', inputs: () => [z128(1, [256, 256]), z128(2, [256, 256])], f: (a, b) => linalg.matmul(a, b) });

  // the rest of the recorded functions: tensor() as a dtype conversion, lu and the Ex forms of
  // the LU family and svd (grad-solve and grad-decomp time the plain forms), the GDN ops
  un('tensor', (x) => tensor(x, { dtype: 'float32' }), x64, `${LABEL} float64 → float32`);
  const nearI = (seed: number) => once(`nearI ${seed}`, () => add(eye(256), mul(randn([256, 256], { seed }), 0.5 / 16)));
  s.push({ name: 'lu 256×256 float64 (P, L, U)', op: 'lu', inputs: () => [nearI(1)], f: (a) => linalg.lu(a) });
  s.push({ name: 'luFactorEx 256×256 float64 (LU)', op: 'luFactorEx', inputs: () => [nearI(1)], f: (a) => linalg.luFactorEx(a).LU });
  s.push({ name: 'solveEx 256×256, B 256×64 float64', op: 'solveEx', inputs: () => [nearI(1), x64(2, [256, 64])], f: (a, b) => linalg.solveEx(a, b).result });
  s.push({ name: 'invEx 256×256 float64', op: 'invEx', inputs: () => [nearI(1)], f: (a) => linalg.invEx(a).inverse });
  s.push({
    name: 'solveTriangularEx 256×256 upper, B 256×64 float64', op: 'solveTriangularEx', inputs: () => [triu(nearI(1)), x64(2, [256, 64])],
    f: (a, b) => linalg.solveTriangularEx(a, b, { upper: true }).solution,
  });
  s.push({ name: 'svdEx 128×128 float64 (U, S, Vh)', op: 'svdEx', inputs: () => [x64(3, [128, 128])], f: (a) => { const r = linalg.svdEx(a); return { U: r.U, S: r.S, Vh: r.Vh }; } });
  // chunk systems as GDN makes them: a strictly lower L of norm ≈ ½ (the rest is never read)
  const chunks = (seed: number) => mul(randn([256, 64, 64], { seed }), 0.5 / 8);
  s.push({ name: 'gdn.chunkSolve 256 × 64×64, 64 RHS float64', op: 'gdn.chunkSolve', inputs: () => [chunks(4), randn([256, 64, 64], { seed: 5 })], f: (a, b) => gdn.chunkSolve(a, b) });
  s.push({ name: 'gdn.invUnitLower 256 × 64×64 float64', op: 'gdn.invUnitLower', inputs: () => [chunks(6)], f: (a) => gdn.invUnitLower(a) });
  {
    const [B, T, H, D] = [1, 1024, 4, 64];
    const gates = (seed: number, lo: number, hi: number) => add(mul(abs(randn([B, T, H], { seed })), (hi - lo) / 3), lo);
    s.push({
      name: `gdn.chunkedForward B ${B}, T ${T}, H ${H}, dk = dv = ${D} float64 (o, finalState; qkL2norm)`, op: 'gdn.chunkedForward',
      inputs: () => [randn([B, T, H, D], { seed: 7 }), randn([B, T, H, D], { seed: 8 }), randn([B, T, H, D], { seed: 9 }),
        clamp(gates(10, 0.25, 0.75), 0.25, 0.75), neg(clamp(gates(11, 0, 0.5), 0, 0.5))],
      f: (q, k, v, beta, g) => gdn.chunkedForward({ q, k, v, beta, g, qkL2norm: true }),
    });
  }
  {
    const [B, H, D] = [4, 16, 128];
    s.push({
      name: `gdn.recurrentStep B ${B}, H ${H}, dk = dv = ${D} float64 (o, state; qkL2norm)`, op: 'gdn.recurrentStep',
      inputs: () => [mul(randn([B, H, D, D], { seed: 12 }), 0.1), randn([B, H, D], { seed: 13 }), randn([B, H, D], { seed: 14 }),
        randn([B, H, D], { seed: 15 }), add(mul(abs(randn([B, H], { seed: 16 })), 0.1), 0.25), neg(mul(abs(randn([B, H], { seed: 17 })), 0.1))],
      f: (S, q, k, v, beta, g) => gdn.recurrentStep(S, q, k, v, beta, g, { qkL2norm: true }),
    });
  }
  return s;
}

const ABOUT =
  'grad-ops: the lapis cpu column is the plain forward call; *pullback ms* is the pullback of `vjp` for one recorded ' +
  'forward with a fixed random cotangent (every differentiated input gets its gradient; timed by the same loop, after ' +
  'one warm-up); *bwd ÷ fwd* their ratio (issue 16). Inputs: randn (|randn| + 0.5 where the op needs positive values, 1 + 0.01·randn for prod); ' +
  'complex rows use complex128. A row with no time names the rule or hook that had not landed when it ran.';

registerSuite('grad-ops', (): BenchCase[] => {
  memo.clear();
  return specs().map(gradCpuCase);
}, ABOUT);
