// Backward rules of the elementwise ops (src/ops/elementwise.ts), torch's formulas
// (derivatives.yaml / FunctionsManual.cpp). Complex follows torch: for y = f(x) holomorphic,
// x̄ = ȳ·conj(f'(x)); abs, sign, angle, real, imag, conj use torch's non-holomorphic rules.
// Operands that are JS scalars or arrays are constants: their positions get null.
import { defineRule } from '../../core/grad.js';
import { Tensor } from '../../core/tensor.js';
import { isComplex } from '../../core/dtype.js';
import { asTensor, type TensorLike } from '../../core/create.js';
import {
  neg, mul, div, add, sub, pow, abs, sign, log, sin, cos, real, imag, conj, eq, lt, gt, ge, le, where,
  logicalAnd, logicalOr, cast, type Operand,
} from '../../ops/elementwise.js';
import { scalarKind, scalarTensor, type JsScalar } from '../../ops/operands.js';
import { cj } from './util.js';

const I = { re: 0, im: 1 };
const isT = (v: unknown): v is Tensor => v instanceof Tensor;

/** An operand as a tensor in the dtype and on the device of `like` (the op's output). */
function asOperand(v: unknown, like: Tensor): Tensor {
  let t: Tensor;
  if (isT(v)) t = v;
  else if (scalarKind(v) !== null) return scalarTensor(v as JsScalar, like.dtype, like.device, 'grad', 'operand');
  else t = asTensor(v as TensorLike, 'grad', 'operand');
  return t.dtype === like.dtype ? t : cast(t, like.dtype);
}

/** x with 1 where `m` holds: keeps a division or log that `m` masks out away from 0 (no NaN, also in second derivatives). */
function safe(m: Tensor, x: Tensor): Tensor {
  return where(m, 1, x);
}

// ---- arithmetic

defineRule('add', { backward: (_c, g: Tensor) => [g, g] });
defineRule('sub', { backward: (_c, g: Tensor) => [g, neg(g)] });
defineRule('mul', {
  backward: ({ args: [a, b], output }, g: Tensor) => {
    const out = output as Tensor;
    return [isT(a) ? mul(g, cj(asOperand(b, out))) : null, isT(b) ? mul(g, cj(asOperand(a, out))) : null];
  },
});
defineRule('neg', { backward: (_c, g: Tensor) => [neg(g)] });

// a/b: ā = ḡ / conj(b), b̄ = −ḡ·conj(a/b / b) (torch's div_tensor_other_backward).
defineRule('div', {
  backward: ({ args: [a, b], output }, g: Tensor) => {
    const out = output as Tensor;
    const B = asOperand(b, out);
    return [isT(a) ? div(g, cj(B)) : null, isT(b) ? neg(mul(g, cj(div(out, B)))) : null];
  },
});

// base^e: basē = ḡ·conj(e·base^(e−1)), 0 where e = 0 (pow_backward_self);
// ē = ḡ·conj(out·log base), 0 where base = 0 and e ≥ 0 (real) (pow_backward_exponent).
// Both computed in the output's dtype (a real base with a complex exponent takes the complex log).
defineRule('pow', {
  backward: ({ args: [base, exponent], output }, g: Tensor) => {
    const out = output as Tensor;
    const B = asOperand(base, out), E = asOperand(exponent, out);
    let gb: Tensor | null = null, ge_: Tensor | null = null;
    if (isT(base)) {
      const e0 = eq(E, 0);
      const Es = safe(e0, E); // e = 0 would give 0·0^(−1) = NaN at base 0; its gradient is 0
      gb = where(e0, 0, mul(g, cj(mul(Es, pow(B, sub(Es, 1))))));
    }
    if (isT(exponent)) {
      const nonneg = isComplex(E.dtype) ? logicalAnd(eq(imag(E), 0), ge(real(E), 0)) : ge(E, 0);
      const m = logicalAnd(nonneg, eq(B, 0)); // 0^e for e ≥ 0: torch's 0 instead of 0·log 0
      ge_ = mul(g, cj(where(m, 0, mul(out, log(safe(m, B))))));
    }
    return [gb, ge_];
  },
});

// Ties split the gradient evenly (torch's maximum/minimum entries in derivatives.yaml).
function minMaxRule(isMax: boolean) {
  return {
    backward: ({ args: [a, b] }: { args: readonly unknown[] }, g: Tensor) => {
      const A = a as Operand, B = b as Operand;
      const half = where(eq(A, B), div(g, 2), g);
      const aLoses = isMax ? lt(A, B) : gt(A, B);
      const bLoses = isMax ? gt(A, B) : lt(A, B);
      return [isT(a) ? where(aLoses, 0, half) : null, isT(b) ? where(bLoses, 0, half) : null];
    },
  };
}
defineRule('maximum', minMaxRule(true));
defineRule('minimum', minMaxRule(false));

// ---- unary

// |x|: ḡ·sgn(x) with sgn(0) = 0 (torch's abs_backward; complex: ḡ·x/|x|).
defineRule('abs', { backward: ({ args: [x] }, g: Tensor) => [mul(g, sign(asT(x)))] });

// Real sign is piecewise constant: zero gradient. Complex sign is sgn(z) = z/|z|, whose
// gradient is (ḡ − s·Re(ḡ·conj s)) / |z|, 0 at z = 0 (torch's sgn_backward).
defineRule('sign', {
  backward: ({ args: [x], output }, g: Tensor) => {
    const z = asT(x);
    if (!isComplex(z.dtype)) return [null];
    const s = output as Tensor, r = abs(z), r0 = eq(r, 0);
    return [where(r0, 0, div(sub(g, mul(s, real(mul(g, conj(s))))), safe(r0, r)))];
  },
});

defineRule('sqrt', { backward: ({ output }, g: Tensor) => [div(g, mul(cj(output as Tensor), 2))] });
defineRule('exp', { backward: ({ output }, g: Tensor) => [mul(g, cj(output as Tensor))] });
defineRule('log', { backward: ({ args: [x] }, g: Tensor) => [div(g, cj(asT(x)))] });
defineRule('log1p', { backward: ({ args: [x] }, g: Tensor) => [div(g, cj(add(asT(x), 1)))] });
defineRule('expm1', { backward: ({ output }, g: Tensor) => [mul(g, cj(add(output as Tensor, 1)))] });
defineRule('sin', { backward: ({ args: [x] }, g: Tensor) => [mul(g, cj(cos(asT(x))))] });
defineRule('cos', { backward: ({ args: [x] }, g: Tensor) => [neg(mul(g, cj(sin(asT(x)))))] });
// tanh and sigmoid from their output, as torch (tanh_backward, sigmoid_backward).
defineRule('tanh', {
  backward: ({ output }, g: Tensor) => {
    const y = output as Tensor;
    return [mul(g, cj(sub(1, mul(y, y))))];
  },
});
defineRule('sigmoid', {
  backward: ({ output }, g: Tensor) => {
    const y = output as Tensor;
    return [mul(g, cj(mul(y, sub(1, y))))];
  },
});

// ---- complex parts

defineRule('conj', { backward: (_c, g: Tensor) => [cj(g)] });
// real: the engine widens a real cotangent to a complex argument (im = 0).
defineRule('real', { backward: (_c, g: Tensor) => [g] });
// imag: i·ḡ for a complex argument; imag of a real tensor is the constant 0.
defineRule('imag', {
  backward: ({ args: [x] }, g: Tensor) => [isComplex(asT(x).dtype) ? mul(g, I) : null],
});
// angle: ḡ·i·z/|z|², 0 at z = 0 (torch's angle_backward); of a real tensor, piecewise constant.
defineRule('angle', {
  backward: ({ args: [x] }, g: Tensor) => {
    const z = asT(x);
    if (!isComplex(z.dtype)) return [null];
    const r = abs(z), r2 = mul(r, r);
    return [div(mul(mul(g, z), I), safe(eq(r2, 0), r2))];
  },
});

// ---- clamp, where, cast

// torch's clamp_backward / clamp_backward_min_max: x gets ḡ where min ≤ x ≤ max; a tensor
// bound gets it where it is the value taken (min where x < min and min < max; max where
// x > max or max < min, as clamp returns max when min > max).
defineRule('clamp', {
  backward: ({ args: [x, min, max] }, g: Tensor) => {
    const X = x as Operand;
    const hasMin = min !== undefined && min !== null, hasMax = max !== undefined && max !== null;
    const lo = min as Operand, hi = max as Operand;
    let pass: Tensor;
    if (hasMin && hasMax) pass = logicalAnd(ge(X, lo), le(X, hi));
    else pass = hasMin ? ge(X, lo) : le(X, hi);
    const gx = isT(x) ? where(pass, g, 0) : null;
    let gmin: Tensor | null = null, gmax: Tensor | null = null;
    if (isT(min)) gmin = where(hasMax ? logicalAnd(lt(X, lo), lt(lo, hi)) : lt(X, lo), g, 0);
    if (isT(max)) gmax = where(hasMin ? logicalOr(gt(X, hi), lt(hi, lo)) : gt(X, hi), g, 0);
    return [gx, gmin, gmax];
  },
});

// The condition is a constant (bool, or read as its truth value).
defineRule('where', {
  backward: ({ args: [c, a, b] }, g: Tensor) => {
    const C = c as Operand;
    return [null, isT(a) ? where(C, g, 0) : null, isT(b) ? where(C, 0, g) : null];
  },
});

// The engine casts the cotangent back to x's dtype (the real part for real x).
defineRule('cast', { backward: (_c, g: Tensor) => [g] });

function asT(v: unknown): Tensor {
  return v as Tensor;
}
