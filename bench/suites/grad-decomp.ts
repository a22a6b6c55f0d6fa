// Reverse-mode cost of the decompositions and their composites on the CPU, float64 (issue 16's
// backward ÷ forward table): qr 512, svd 256, svdvals 512, pinv 512×256, lstsq 512×256 with 16
// right-hand sides, norm 'fro' / 2 / 'nuc' 512, cond 256. The lapis column is the plain forward
// call (no tape); 'pullback ms' vjp's pullback of one recorded forward (a fixed random
// cotangent on every differentiable output), 'bwd ÷ fwd' their ratio.
import { registerSuite, type BenchCase } from '../harness.js';
import { gradCpuCase, type GradSpec } from '../grad-case.js';
import { linalg, randn } from '../../src/index.js';

function specs(): GradSpec[] {
  const G = (m: number, n: number, seed: number) => () => [randn([m, n], { seed })];
  return [
    { name: 'qr 512×512 reduced float64', op: 'qr', inputs: G(512, 512, 1), f: (a) => linalg.qr(a) },
    { name: 'svd 256×256 (U, S, Vh) float64', op: 'svd', inputs: G(256, 256, 2), f: (a) => linalg.svd(a, { fullMatrices: false }) },
    { name: 'svdvals 512×512 float64', op: 'svdvals', inputs: G(512, 512, 3), f: (a) => linalg.svdvals(a) },
    { name: 'pinv 512×256 float64', op: 'pinv', inputs: G(512, 256, 4), f: (a) => linalg.pinv(a) },
    {
      name: 'lstsq 512×256 B 512×16 (solution) float64', op: 'lstsq',
      inputs: () => [randn([512, 256], { seed: 5 }), randn([512, 16], { seed: 6 })],
      f: (a, b) => linalg.lstsq(a, b).solution,
    },
    { name: "norm 'fro' 512×512 float64", op: 'norm', inputs: G(512, 512, 7), f: (a) => linalg.norm(a, 'fro') },
    { name: 'norm 2 512×512 float64', op: 'norm', inputs: G(512, 512, 8), f: (a) => linalg.norm(a, 2) },
    { name: "norm 'nuc' 512×512 float64", op: 'norm', inputs: G(512, 512, 9), f: (a) => linalg.norm(a, 'nuc') },
    { name: 'cond 256×256 float64', op: 'cond', inputs: G(256, 256, 10), f: (a) => linalg.cond(a) },
  ];
}

registerSuite('grad-decomp', (): BenchCase[] => specs().map(gradCpuCase),
  'Backward ÷ forward of the decompositions on the CPU, float64: the lapis column is the plain forward, ' +
  '“pullback ms” the vjp pullback alone. svdvals, norm 2/nuc and cond need the singular vectors, which ' +
  'their plain forward does not compute: svdvals\' recorded forward computes them (its pullback is two ' +
  'products), the norm and cond rules compute an SVD in the pullback; lstsq\'s forms the pseudo-inverse.');
