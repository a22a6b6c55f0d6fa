// Backward rules of the reductions (src/ops/reduce.ts), torch's formulas: sum and mean
// spread the cotangent; prod multiplies it by the product of the other elements (computed
// by prefix/suffix products, so zeros need no division: torch's prod_safe_zeros_backward);
// max/min split it evenly among the tied extremes (torch's amax/amin and
// evenly_distribute_backward); maxWithIndices/minWithIndices send it to the returned index.
import { defineRule, taping } from '../../core/grad.js';
import { isComplex } from '../../core/dtype.js';
import type { Tensor } from '../../core/tensor.js';
import { tensor, zeros } from '../../core/create.js';
import { add, mul, div, eq, ne, where, cast, logicalOr, logicalAnd } from '../../ops/elementwise.js';
import { expand, permute, slice, concat } from '../../ops/indexing.js';
import { sum } from '../../ops/reduce.js';
import { cj } from './util.js';
import { reducedDimsOf, unsqueezeReduced } from './reduceUtil.js';

defineRule('sum', {
  backward: ({ args: [x, opts], output }, g: Tensor) => {
    const shape = (x as Tensor).shape;
    return [expand(unsqueezeReduced(g, shape, opts, (output as Tensor).ndim), shape)];
  },
});

defineRule('mean', {
  backward: ({ args: [x, opts], output }, g: Tensor) => {
    const t = x as Tensor, out = output as Tensor;
    const count = out.size > 0 ? t.size / out.size : 1;
    return [expand(div(unsqueezeReduced(g, t.shape, opts, out.ndim), count), t.shape)];
  },
});

/** No element of x is 0 (complex: both parts) and every product in out is finite and non-zero. */
function safeToDivide(x: Tensor, out: Tensor): boolean {
  const w = isComplex(x.dtype) ? 2 : 1;
  const nonzero = (d: ArrayLike<number>, i: number): boolean => d[i] !== 0 || (w === 2 && d[i + 1] !== 0);
  const xd = x.dataSync() as ArrayLike<number>, od = out.dataSync() as ArrayLike<number>;
  for (let i = 0; i < xd.length; i += w) if (!nonzero(xd, i)) return false;
  for (let i = 0; i < od.length; i += w) {
    if (!Number.isFinite(od[i]) || (w === 2 && !Number.isFinite(od[i + 1])) || !nonzero(od, i)) return false;
  }
  return true;
}

/** Ones of shape [r, c] in `like`'s dtype and device. */
function ones(r: number, c: number, like: Tensor): Tensor {
  return add(zeros([r, c], { dtype: like.dtype, device: like.device }), 1);
}

/**
 * For t of shape [r, n]: e[i, k] = Π_{j≠k} t[i, j], as (exclusive prefix product) ·
 * (exclusive suffix product), each by log₂ n doubling steps (Hillis–Steele scans) of
 * public slice/concat/mul, so it runs on t's device and is itself differentiable.
 */
function productOfOthers(t: Tensor): Tensor {
  const [r, n] = t.shape;
  if (n === 1) return ones(r, 1, t);
  let P = concat([ones(r, 1, t), slice(t, null, `0:${n - 1}`)], 1);
  let S = concat([slice(t, null, '1:'), ones(r, 1, t)], 1);
  for (let s = 1; s < n; s *= 2) {
    P = mul(P, concat([ones(r, s, t), slice(P, null, `0:${n - s}`)], 1));
    S = mul(S, concat([slice(S, null, `${s}:`), ones(r, s, t)], 1));
  }
  return mul(P, S);
}

// x̄ = ḡ·conj(Π_{j≠i} x_j) over each reduced slice; exact with any number of zeros.
defineRule('prod', {
  backward: ({ args: [x, opts], output }, g: Tensor) => {
    const t = x as Tensor, out = output as Tensor;
    const dims = reducedDimsOf(opts, t.ndim);
    const gK = unsqueezeReduced(g, t.shape, opts, out.ndim);
    if (dims.length === 0) return [gK];
    if (t.size === 0) return [zeros(t.shape, { dtype: t.dtype, device: t.device })];
    // CPU, first order, no zero input and every product finite and non-zero: out / x is the
    // product of the others to rounding (torch's no-zero path), one pass instead of the scans
    if (t.device === 'cpu' && !taping() && safeToDivide(t, out)) {
      return [mul(gK, cj(div(unsqueezeReduced(out, t.shape, opts, out.ndim), t)))];
    }
    const kept = [...t.shape.keys()].filter((d) => !dims.includes(d));
    const perm = [...kept, ...dims];
    const moved = perm.some((d, i) => d !== i);
    const n = dims.reduce((p, d) => p * t.shape[d], 1);
    const xp = (moved ? permute(t, perm) : t).reshape([t.size / n, n]);
    let others = productOfOthers(xp).reshape(perm.map((d) => t.shape[d]));
    if (moved) {
      const inv = perm.map((_, i) => perm.indexOf(i));
      others = permute(others, inv);
    }
    return [mul(gK, cj(others))];
  },
});

// Split evenly among the entries equal to the extreme (NaN entries when the result is NaN).
function extremeRule() {
  return {
    backward: ({ args: [x, opts], output }: { args: readonly unknown[]; output: unknown }, g: Tensor) => {
      const t = x as Tensor, out = output as Tensor;
      const v = unsqueezeReduced(out, t.shape, opts, out.ndim);
      const gK = unsqueezeReduced(g, t.shape, opts, out.ndim);
      const mask = logicalOr(eq(t, v), logicalAnd(ne(t, t), ne(v, v)));
      const dims = reducedDimsOf(opts, t.ndim);
      const count = dims.length > 0 ? sum(cast(mask, g.dtype), { dim: dims, keepDims: true }) : cast(mask, g.dtype);
      return [where(mask, div(gK, count), 0)];
    },
  };
}
defineRule('max', extremeRule());
defineRule('min', extremeRule());

// values' cotangent goes to the returned index along dim (torch's value_selecting_reduction_backward).
function withIndicesBackward(
  { args: [x, dim, opts], output }: { args: readonly unknown[]; output: unknown },
  cot: { values: Tensor | null },
): (Tensor | null)[] {
  const gv = cot.values;
  if (gv === null) return [null];
  const t = x as Tensor;
  if (t.ndim === 0) return [gv.reshape([])];
  const d = (dim as number) < 0 ? (dim as number) + t.ndim : (dim as number);
  const keep = ((opts ?? {}) as { keepDims?: boolean }).keepDims ?? false;
  const kShape = t.shape.map((s, i) => (i === d ? 1 : s));
  const idx = (output as { indices: Tensor }).indices;
  const gK = keep ? gv : gv.reshape(kShape);
  const iK = keep ? idx : idx.reshape(kShape);
  // 0, 1, …, n−1 along dim (int32, on x's device) against the index picks one entry per slice.
  const n = t.shape[d];
  const iota = tensor({ data: Int32Array.from({ length: n }, (_, i) => i), shape: t.shape.map((s, i) => (i === d ? n : 1)), dtype: 'int32' });
  return [where(eq(t.device === 'cpu' ? iota : iota.to(t.device), iK), gK, 0)];
}
defineRule('maxWithIndices', { backward: withIndicesBackward });
defineRule('minWithIndices', { backward: withIndicesBackward });
