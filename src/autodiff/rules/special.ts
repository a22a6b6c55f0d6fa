// Backward rules of src/special (heaviside, laguerrePolynomialL, frexp). logspace takes
// numbers only: nothing to differentiate.
import { defineRule } from '../../core/grad.js';
import { Tensor } from '../../core/tensor.js';
import { tensor, type TensorLike } from '../../core/create.js';
import { abs, add, cast, div, eq, le, maximum, mul, ne, neg, pow, sub, where } from '../../ops/elementwise.js';
import { laguerrePolynomialL } from '../../special/laguerre.js';

// heaviside(x, values) is piecewise constant in x: x̄ = 0 (also at x = 0, where it jumps; the
// issue's rule). It equals `values` exactly where x is ±0, so values̄ = ḡ there and 0 elsewhere
// (the exact partial derivative; torch defines no derivative for heaviside at all).
defineRule('heaviside', {
  backward: ({ args: [x, values] }, g: Tensor) =>
    [null, values instanceof Tensor ? where(eq(x as TensorLike, 0), g, 0) : null],
});

/** |N·x| at or below which L'_N(x) is summed from its Taylor series instead of the identity. */
const SERIES_BELOW = 0.5;
/** Terms of that series: the first left out is below 0.5^10/(10!·11!) ≈ 7e-18 of the first. */
const SERIES_TERMS = 10;

// d/dx L_n(x) = −L_{n−1}^{(1)}(x) = n·(L_n(x) − L_{n−1}(x)) / x (DLMF §18.9, α = 0). The
// quotient cancels as x → 0 (relative error ≈ eps·n/|x|), so where |n·x| ≤ 0.5 the series
// L'_n(x) = Σ_{k≥1} (−1)^k C(n, k) x^{k−1}/(k−1)! is used instead (its terms fall by
// ≤ |n·x|/(k(k+1)) each; 10 of them), leaving the quotient ≈ 2·n·eps relative error. n is
// the truncated degree (negative: L = 0, so 0) and gets no gradient (a degree; torch marks
// both arguments non-differentiable, the issue asks for x). NaN outputs give NaN.
defineRule('laguerrePolynomialL', {
  backward: ({ args: [x, n], output }, g: Tensor) => {
    if (!(x instanceof Tensor)) return [null, null];
    const out = output as Tensor;
    // the degree as the forward reads it: truncated toward zero; below 0 the polynomial is 0
    const N: Tensor | number = typeof n === 'number'
      ? (Number.isNaN(n) ? 0 : Math.max(0, Math.min(2147483647, Math.trunc(n))))
      : maximum(cast(cast(n instanceof Tensor ? n : tensor(n as TensorLike), 'int32'), out.dtype), 0);
    const xt = x.dtype === out.dtype ? x : cast(x, out.dtype);
    const small = le(abs(mul(xt, N)), SERIES_BELOW);
    // the identity on a safe x (1 where the series is used: no 0/0 to poison second derivatives)
    const xs = where(small, 1, xt);
    const prev = laguerrePolynomialL(xs, typeof N === 'number' ? Math.max(N - 1, -1) : sub(N, 1));
    // where xs = 1 this is finite garbage, discarded by the where below
    const identity = div(mul(N, sub(out, prev)), xs);
    // series coefficients c_1 = −N, c_{k+1} = c_k·(k − N)/(k·(k + 1)), summed by Horner in x
    const c: (Tensor | number)[] = [typeof N === 'number' ? -N : neg(N)];
    for (let k = 1; k < SERIES_TERMS; k++) {
      const r = typeof N === 'number' ? (k - N) / (k * (k + 1)) : div(sub(k, N), k * (k + 1));
      const prevC = c[k - 1];
      c.push(typeof prevC === 'number' && typeof r === 'number' ? prevC * r : mul(prevC, r));
    }
    let s = add(mul(xt, c[SERIES_TERMS - 1]), c[SERIES_TERMS - 2]);
    for (let k = SERIES_TERMS - 3; k >= 0; k--) s = add(mul(s, xt), c[k]);
    const d = where(small, s, identity);
    return [mul(g, where(ne(out, out), out, d)), null];
  },
});

// frexp: mantissa = x·2^(−e) with e piecewise constant, so x̄ = m̄·2^(−e) (torch: grad / exponent.exp2()),
// computed as (m̄ / 2^(e−1)) / 2: 2^(e−1) is representable for every finite x (2^e overflows in
// x's top binade, 2^(−e) for subnormals). At x = 0, ±Inf, NaN (e = 0) that is m̄ itself.
// The exponent is an integer output: no gradient flows through it.
defineRule('frexp', {
  backward: ({ output }, cot: { mantissa: Tensor | null }) => {
    if (!cot.mantissa) return [null];
    const { mantissa, exponent } = output as { mantissa: Tensor; exponent: Tensor };
    const half = pow(2, cast(sub(exponent, 1), mantissa.dtype));
    return [div(div(cot.mantissa, half), 2)];
  },
});
