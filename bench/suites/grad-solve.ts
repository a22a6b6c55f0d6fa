// Reverse-mode cost of the LU family on the CPU (issue 16: backward of solve / det / inv at
// n = 1024 float64 within 3× the forward). Per op and size (n = 256 and 1024, float64): the
// lapis column is the plain forward call, 'pullback ms' vjp's pullback of one recorded forward
// (a fixed random cotangent, timed after one warm-up), 'bwd ÷ fwd' their ratio. solve's
// pullback reuses the LU factors its recorded forward kept; inv's needs only its output.
import { registerSuite, type BenchCase } from '../harness.js';
import { gradCpuCase, type GradSpec } from '../grad-case.js';
import { add, eye, linalg, mul, randn, triu, type Tensor } from '../../src/index.js';

/** randn + √n·I: well conditioned (the Gaussian part has norm ≈ 2√n). */
const wellConditioned = (n: number, seed: number): Tensor => add(randn([n, n], { seed }), mul(eye(n), 2 * Math.sqrt(n)));

function specs(n: number): GradSpec[] {
  const A = () => wellConditioned(n, n);
  const B = (k: number) => randn([n, k], { seed: n + 1 });
  const big = n >= 1024 ? { budgetSeconds: 20 } : undefined;
  const s: GradSpec[] = [
    { name: `solve n=${n} B ${n}×${n} float64`, op: 'solve', inputs: () => [A(), B(n)], f: (a, b) => linalg.solve(a, b) },
    { name: `solve n=${n} B ${n}×64 float64`, op: 'solve', inputs: () => [A(), B(64)], f: (a, b) => linalg.solve(a, b) },
    { name: `det n=${n} float64`, op: 'det', inputs: () => [A()], f: (a) => linalg.det(a) },
    { name: `slogdet n=${n} float64`, op: 'slogdet', inputs: () => [A()], f: (a) => linalg.slogdet(a) },
    { name: `inv n=${n} float64`, op: 'inv', inputs: () => [A()], f: (a) => linalg.inv(a) },
    { name: `luFactor n=${n} float64`, op: 'luFactor', inputs: () => [A()], f: (a) => linalg.luFactor(a) },
  ];
  let pivots: Tensor | undefined; // made with the inputs, a constant of the timed call
  s.push({
    name: `luSolve n=${n} B ${n}×64 float64`, op: 'luSolve',
    inputs: () => { const f = linalg.luFactor(A()); pivots = f.pivots; return [f.LU, B(64)]; },
    f: (lu, b) => linalg.luSolve(lu, pivots!, b),
  });
  s.push({
    name: `solveTriangular n=${n} B ${n}×64 float64`, op: 'solveTriangular',
    inputs: () => [triu(A()), B(64)], f: (a, b) => linalg.solveTriangular(a, b, { upper: true }),
  });
  return s.map((x) => ({ ...x, timing: big }));
}

registerSuite('grad-solve', (): BenchCase[] => [...specs(256), ...specs(1024)].map(gradCpuCase),
  'Backward ÷ forward of the LU family on the CPU, float64: the lapis column is the plain forward, ' +
  '“pullback ms” the vjp pullback alone (issue 16: ≤ 3× for solve, det and inv at n = 1024). solve reuses the ' +
  'LU factors of its recorded forward; det and slogdet too (the pullback is getrs on c·I, 2n³ against getrf\'s ' +
  '2n³/3); inv needs only its output (two products). luFactor\'s rule is two n³ products and two triangular ' +
  'solves against one getrf (as torch\'s), luSolve\'s and solveTriangular\'s a dense n×n gradient of the ' +
  'factor from rank-64 data (the forward is O(n²·64)): their ratios are those of the work, not a target.');
