// Gradients with lapis (docs/autodiff.md): fit a linear model by gradient descent on the
// mean squared error and compare with `lstsq`, then differentiate a log-determinant, a complex
// loss and the singular values.
// Run: npm run build && node dist/examples/gradients.js
import { Tensor, grad, linalg, mean, mul, sub, sum, tensor, valueAndGrad, vjp, abs, randn } from '../src/index.js';

const X = randn([200, 3], { seed: 1 });
const wTrue = tensor([[1.5], [-2], [0.5]]);
const y = linalg.matmul(X, wTrue).add(randn([200, 1], { seed: 2 }).mul(0.01));

// 1. Gradient descent on the mean squared error; the gradient comes from valueAndGrad.
const loss = (w: Tensor): Tensor => mean(mul(sub(linalg.matmul(X, w), y), sub(linalg.matmul(X, w), y)));
let w = tensor([[0], [0], [0]]);
for (let step = 0; step < 200; step++) {
  const { grads: [g] } = valueAndGrad(loss)(w);
  w = sub(w, mul(g, 0.5));
}
const best = linalg.lstsq(X, y).solution;
console.log('gradient descent:', (w.toArray() as number[][]).map((r) => r[0].toFixed(4)).join(', '));
console.log('lstsq:           ', (best.toArray() as number[][]).map((r) => r[0].toFixed(4)).join(', '));

// 2. d log|det A| / dA = A⁻ᵀ.
const A = tensor([[4, 1, 0], [1, 3, 1], [0, 1, 2]]);
const [gA] = grad((a: Tensor) => linalg.slogdet(a).logabsdet)(A);
const diff = sub(gA, linalg.inv(A).mT);
console.log('max |∇ log|det A| − A⁻ᵀ| =', (abs(diff).max().toArray() as number).toExponential(2));

// 3. Complex: L = Σ|z|² has gradient 2z (torch's convention, ∂L/∂Re z + i·∂L/∂Im z).
const z = tensor([{ re: 1, im: 2 }, { re: -0.5, im: 0.25 }]);
const [gz] = grad((t: Tensor) => sum(abs(t).mul(abs(t))))(z);
console.log('∇ Σ|z|² =', String(gz), '(2z)');

// 4. vjp: the pullback of the singular values for any cotangent.
const { value: S, pullback } = vjp((a: Tensor) => linalg.svdvals(a), A);
const [gS] = pullback(tensor([1, 0, 0]));
console.log('σ =', String(S), '\n∂σ₁/∂A =', String(gS));
