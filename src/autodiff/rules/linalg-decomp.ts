// Backward rules of the decompositions and their composites (src/linalg: qr, svd, svdEx,
// svdvals, pinv, lstsq, norm, cond). The formulas are torch's (FunctionsManual.cpp:
// linalg_qr_backward, svd_backward, pinv_backward, linalg_lstsq_backward, norm_backward),
// rederived here; where torch gives Inf/NaN (repeated singular values under a loss on U/V)
// lapis raises instead (docs/autodiff.md). matrixRank has an int32 result: no rule.
import { defineRule, taping } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';
import { ArgumentError, LinAlgError, fmtShape } from '../../core/errors.js';
import { epsOf, isComplex, realOf } from '../../core/dtype.js';
import { eye, zeros } from '../../core/create.js';
import {
  abs, add, cast, conj, div, eq, gt, imag, le, logicalAnd, logicalNot, mul, neg, pow, real, sign, sub, where,
} from '../../ops/elementwise.js';
import { concat, diagonal, permute, slice, tril, triu, unsqueeze } from '../../ops/indexing.js';
import { max, min, sum } from '../../ops/reduce.js';
import { matmul } from '../../linalg/matmul.js';
import { solveTriangular } from '../../linalg/solveTriangular.js';
import { inv } from '../../linalg/inv.js';
import { qr, type QrOptions, type QrResult } from '../../linalg/qr.js';
import { svd, type SvdResult } from '../../linalg/svd.js';
import { pinv, type RankOptions } from '../../linalg/pinv.js';
import { norm, type NormOrd, type NormOptions } from '../../linalg/norm.js';
import type { LstsqOptions } from '../../linalg/lstsq.js';
import { H } from './util.js';

type Cot = Tensor | null;

/** A cotangent that carries nothing (null, or the empty Q of mode 'r'). */
function live(g: Cot | undefined): Tensor | null {
  return g && g.size > 0 ? g : null;
}

/** (…, k) → (…, k, k) with v on the diagonal. */
function diagEmbed(v: Tensor): Tensor {
  const k = v.shape[v.ndim - 1];
  return mul(unsqueeze(v, -1), eye(k, { dtype: realOf(v.dtype), device: v.device }));
}

/** The first k columns (…, m, k) of the last two dims. */
function cols(x: Tensor, k: number): Tensor {
  return x.cols === k ? x : slice(x, '...', ':', `0:${k}`);
}

/** The first k rows (…, k, n) of the last two dims. */
function rows(x: Tensor, k: number): Tensor {
  return x.rows === k ? x : slice(x, '...', `0:${k}`, ':');
}

/** U·diag(s)·Vh, batched (s real or complex, (…, k)). */
function uDiagVh(U: Tensor, s: Tensor, Vh: Tensor): Tensor {
  return matmul(mul(U, unsqueeze(s, -2)), Vh);
}

/** A per-matrix count (int32, the batch shape) that must be 0, and the error of batch element b. */
interface ZeroCheck { bad: Tensor; make: (b: number, batched: boolean, count: number) => Error }

/**
 * Runs the checks in order: on the CPU now (throwing the first failure); on the GPU as one
 * deferred check attached to `result` (after any it already carries), thrown at its first read.
 */
function requireZero(result: Tensor, checks: readonly ZeroCheck[]): void {
  const scan = (c: ZeroCheck, d: ArrayLike<number>): void => {
    for (let b = 0; b < d.length; b++) if (d[b] !== 0) throw c.make(b, c.bad.ndim > 0, d[b]);
  };
  if (result.device === 'cpu') {
    for (const c of checks) scan(c, c.bad.dataSync() as ArrayLike<number>);
    return;
  }
  const prev = result.pendingCheck();
  result.setCheck(async () => {
    if (prev) await prev();
    for (const c of checks) scan(c, (await c.bad.data()) as ArrayLike<number>);
  });
}

/** fn(), with a LinAlgError from inside it restated as `who`'s: the user called `who`, not the inner function. */
function restated<R>(who: string, why: string, fn: () => R): R {
  try {
    return fn();
  } catch (e) {
    if (e instanceof LinAlgError) throw new LinAlgError(`${who}: ${why} (${e.message})`, e.batchIndex, e.info);
    throw e;
  }
}

function countTrue(mask: Tensor, dims: number[]): Tensor {
  return sum(cast(mask, 'int32'), { dim: dims });
}

// ---------------------------------------------------------------- QR

/** X + Xᴴ on the strict upper part, Re diag(X) on the diagonal: adjoint of R ↦ sym(R·…) (m ≥ n). */
function syminvAdj(X: Tensor): Tensor {
  const up = triu(X, 1);
  return add(add(up, H(up)), diagEmbed(real(diagonal(X))));
}

/** tril(X − Xᴴ, −1) + i·Im diag(X): the adjoint of the m < n parametrization of Qᴴ·dQ. */
function trilImInvAdjSkew(X: Tensor): Tensor {
  const low = tril(sub(X, H(X)), -1);
  if (!isComplex(X.dtype)) return low;
  const d = diagonal(X);
  return add(low, diagEmbed(mul(sub(d, conj(d)), 0.5)));
}

function qrBackward(a: Tensor, Q: Tensor, R: Tensor, gQ: Tensor | null, gR: Tensor | null): Tensor | null {
  if (!gQ && !gR) return null;
  const m = a.rows, n = a.cols;
  // the rule solves with R (its leading k×k block): rank-deficient A (a diagonal entry at the
  // rounding level of the largest) has no gradient, and is an error rather than a 1e16 one
  const d = abs(diagonal(R));
  const rankCheck: ZeroCheck = {
    bad: countTrue(le(d, mul(max(d, { dim: -1, keepDims: true }), Math.max(m, n) * epsOf(realOf(R.dtype)))), [-1]),
    make: (b, batched, count) => new LinAlgError(
      `qr: ${batched ? `(batch element ${b}) ` : ''}the gradient needs a full-rank A: ${count} diagonal entr${count === 1 ? 'y' : 'ies'} ` +
      'of R at the rounding level (≤ max(m, n)·eps·max|r_ii|)', b, count,
    ),
  };
  if (a.device === 'cpu') requireZero(a, [rankCheck]);
  const gA = qrSolve(Q, R, gQ, gR, m, n);
  if (a.device !== 'cpu') requireZero(gA, [rankCheck]);
  return gA;
}

function qrSolve(Q: Tensor, R: Tensor, gQ: Tensor | null, gR: Tensor | null, m: number, n: number): Tensor {
  let M: Tensor;
  if (gQ) M = gR ? sub(matmul(gR, H(R)), matmul(H(Q), gQ)) : neg(matmul(H(Q), gQ));
  else M = matmul(gR!, H(R));
  if (m >= n) {
    // gA = (Q·syminvAdj(triu(gR·Rᴴ − Qᴴ·gQ)) + gQ)·R⁻ᴴ
    let X = matmul(Q, syminvAdj(triu(M)));
    if (gQ) X = add(X, gQ);
    return solveTriangular(H(R), X, { upper: false, left: false });
  }
  // m < n: gA = [Q·trilImInvAdjSkew(Qᴴ·gQ − gR·Rᴴ)·R₁⁻ᴴ, 0] + Q·gR, R₁ = R[:, :m]
  let X = matmul(Q, trilImInvAdjSkew(neg(M)));
  X = solveTriangular(H(cols(R, m)), X, { upper: false, left: false });
  X = concat([X, zeros([...X.shape.slice(0, -1), n - m], { dtype: X.dtype, device: X.device })], -1);
  return gR ? add(X, matmul(Q, gR)) : X;
}

defineRule('qr', {
  backward: ({ args: [A, opts], output }, cot: { Q: Cot; R: Cot }) => {
    const a = A as Tensor;
    const mode = (opts as QrOptions | undefined)?.mode ?? 'reduced';
    const out = output as QrResult;
    const m = a.rows, n = a.cols;
    let gQ = live(cot.Q), gR = live(cot.R);
    let Q = out.Q, R = out.R;
    if (mode === 'r') {
      if (!gR) return [null];
      // Q was not computed: the reduced QR again (recorded when an outer tape differentiates)
      const f = qr(a);
      Q = f.Q;
      R = f.R;
    } else if (mode === 'complete' && m > n) {
      if (gQ) {
        throw new ArgumentError(
          `qr: mode 'complete' of a ${fmtShape(a.shape.slice(-2))} matrix (m > n) is not differentiable through Q: ` +
          `its last ${m - n} columns are any orthonormal basis of the complement of A's range; use mode 'reduced'`,
        );
      }
      // R's last m − n rows are zero for every A: only the reduced part carries a gradient
      Q = cols(Q, n);
      R = rows(R, n);
      gR = rows(gR!, n);
      gQ = null;
    }
    return [qrBackward(a, Q, R, gQ, gR)];
  },
});

// ---------------------------------------------------------------- SVD

/**
 * torch's svd_backward (full_matrices=false factors: U (…, m, k), Vh (…, k, n)), with the
 * cases torch leaves to Inf/NaN turned into errors: a gradient through U/Vh at two singular
 * values equal within max(m, n)·eps·σ₁, or at a zero singular value where it divides by it.
 */
export function svdBackward(
  a: Tensor, U: Tensor, S: Tensor, Vh: Tensor, gU: Tensor | null, gS: Tensor | null, gVh: Tensor | null, who: string,
): Tensor | null {
  if (!gU && !gVh) return gS ? uDiagVh(U, gS, Vh) : null;
  const m = a.rows, n = a.cols, k = S.shape[S.ndim - 1];
  const complex = isComplex(U.dtype);
  const skew = (X: Tensor): Tensor => sub(X, H(X));
  const UhgU = gU ? skew(matmul(H(U), gU)) : null;
  const VhgV = gVh ? skew(matmul(Vh, H(gVh))) : null;
  const Srow = unsqueeze(S, -2), Scol = unsqueeze(S, -1);
  // numerator of everything off the diagonal: (skew(UᴴgU)·S + S·skew(VᴴgV)) / E
  let num: Tensor;
  if (UhgU && VhgV) num = add(mul(UhgU, Srow), mul(Scol, VhgV));
  else if (UhgU) num = mul(UhgU, Srow);
  else num = mul(Scol, VhgV!);
  const eyeK = eye(k, { dtype: realOf(S.dtype), device: S.device });
  const onDiag = eq(eyeK, 1);
  const S2 = mul(S, S);
  const E = sub(unsqueeze(S2, -2), unsqueeze(S2, -1)); // E_jk = σ_k² − σ_j²
  const tol = mul(slice(S, '...', '0:1'), Math.max(m, n) * epsOf(S.dtype)); // (…, 1)
  const degenerate = logicalAnd(logicalNot(onDiag), le(abs(sub(Srow, Scol)), unsqueeze(tol, -1)));
  const numZero = eq(num, 0);
  // a repeated pair whose numerator is exactly 0 (the loss ignores both vectors) contributes 0;
  // any other repeated pair divides by 0 (Inf/NaN on the GPU; an error on the CPU, below)
  // (where(mask, 1, 0) of JS scalars would be float64: the masks are cast to S's dtype instead)
  const Eden = where(degenerate, cast(numZero, S.dtype), where(onDiag, 1, E));
  let inner = div(where(onDiag, 0, num), Eden);
  if (gS) inner = add(inner, diagEmbed(gS));
  const zeroS = le(S, tol); // (…, k)
  const bads: Tensor[] = [countTrue(logicalAnd(degenerate, logicalNot(numZero)), [-2, -1])];
  /** σ where it divides a quantity that vanishes at σ = 0: 1 there when that quantity is exactly 0. */
  const sDen = (quantityZero: Tensor): Tensor => {
    bads.push(countTrue(logicalAnd(zeroS, logicalNot(quantityZero)), [-1]));
    return where(zeroS, cast(quantityZero, S.dtype), S);
  };
  if (complex && UhgU && VhgV) {
    // i·Im diag(UᴴgU)/σ (torch groups the phase terms of U and V into this one)
    const d = diagonal(UhgU);
    inner = add(inner, diagEmbed(div(mul(d, 0.5), sDen(eq(d, 0)))));
  }
  let gauge: Tensor | null = null;
  if (complex) {
    // gauge: the loss must not change under (U, V) → (U·L, V·L), L = diag(e^{iθ}), i.e.
    // Im diag(UᴴgU) + Im diag(VᴴgV) = 0 (skew parts: 2·Im); checked relative to the size of the
    // cotangents (not of UᴴgU, which cancels to rounding for a loss that barely moves)
    const parts = [UhgU, VhgV].filter((x): x is Tensor => x !== null);
    const imSum = parts.map((x) => imag(diagonal(x))).reduce((p, q) => add(p, q));
    const scale = [gU, gVh].filter((x): x is Tensor => x !== null)
      .map((x) => max(abs(x), { dim: [-2, -1] })).reduce((p, q) => add(p, q));
    gauge = countTrue(gt(abs(imSum), mul(unsqueeze(scale, -1), 1e3 * k * epsOf(S.dtype))), [-1]);
  }
  let gA: Tensor;
  if (m > n && gU) {
    // gA = [U·inner + (I − U·Uᴴ)·gU·S⁻¹]·Vh
    const gUSinv = div(gU, unsqueeze(sDen(eq(sum(abs(gU), { dim: -2 }), 0)), -2));
    gA = add(matmul(U, inner), sub(gUSinv, matmul(U, matmul(H(U), gUSinv))));
    gA = matmul(gA, Vh);
  } else if (m < n && gVh) {
    // gA = U·[inner·Vh + S⁻¹·gVh·(I − V·Vh)]
    const sinvGVh = div(gVh, unsqueeze(sDen(eq(sum(abs(gVh), { dim: -1 }), 0)), -1));
    gA = add(matmul(inner, Vh), sub(sinvGVh, matmul(matmul(sinvGVh, H(Vh)), Vh)));
    gA = matmul(U, gA);
  } else {
    gA = m >= n ? matmul(U, matmul(inner, Vh)) : matmul(matmul(U, inner), Vh);
  }
  const checks: ZeroCheck[] = [];
  const at = (b: number, batched: boolean): string => (batched ? `(batch element ${b}) ` : '');
  if (gauge) {
    checks.push({
      bad: gauge,
      make: (b, batched) => new ArgumentError(
        `${who}: ${at(b, batched)}the loss depends on the phases of the complex singular vectors (U and V are ` +
        'unique only up to U·diag(e^{iθ}), V·diag(e^{iθ})), so its gradient is undefined; use gauge-invariant ' +
        'quantities such as U·Vh, |U|², U·diag(S)·Vh',
      ),
    });
  }
  checks.push({
    bad: bads.reduce((p, q) => add(p, q)),
    // info: how many such pairs / zero values the loss reaches
    make: (b, batched, count) => new LinAlgError(
      `${who}: ${at(b, batched)}the gradient through U or Vh is undefined: two singular values coincide (within ` +
      'max(m, n)·eps·σ₁) or one is zero where the loss depends on the singular vectors they leave free ' +
      '(docs/autodiff.md); gradients through S alone are defined', b, count,
    ),
  });
  requireZero(gA, checks);
  return gA;
}

function svdRule(who: string) {
  return ({ args: [A, opts], output }: { args: readonly unknown[]; output: unknown }, cot: { U: Cot; S: Cot; Vh: Cot }) => {
    const a = A as Tensor;
    const out = output as SvdResult;
    const k = Math.min(a.rows, a.cols);
    const full = (opts as { fullMatrices?: boolean } | undefined)?.fullMatrices ?? true;
    // fullMatrices: the columns past k are any basis of a complement; they get no gradient (torch)
    const U = full ? cols(out.U, k) : out.U, Vh = full ? rows(out.Vh, k) : out.Vh;
    const gU0 = live(cot.U), gVh0 = live(cot.Vh);
    const gU = gU0 && full ? cols(gU0, k) : gU0, gVh = gVh0 && full ? rows(gVh0, k) : gVh0;
    return [svdBackward(a, U, out.S, Vh, gU, live(cot.S), gVh, who)];
  };
}

defineRule('svd', { backward: svdRule('svd') });
defineRule('svdEx', { backward: svdRule('svdEx') });

defineRule('svdvals', {
  backward: ({ args: [A], saved }, g: Tensor) => {
    const a = A as Tensor;
    // Under an outer tape the vectors must be recorded functions of A: recompute them then.
    if (taping() || !saved) {
      const { U, Vh } = svd(a, { fullMatrices: false });
      return [uDiagVh(U, g, Vh)];
    }
    const s = saved as { U: Tensor; Vh: Tensor };
    return [uDiagVh(s.U, g, s.Vh)];
  },
});

// ---------------------------------------------------------------- pinv, lstsq

/** torch's pinv_backward: the cotangent of A from that of X = pinv(A) (fixed rank). */
export function pinvBackward(g: Tensor, X: Tensor, A: Tensor): Tensor {
  const m = A.rows, n = A.cols;
  const Xh = H(X), gh = H(g);
  if (m <= n) {
    const K = matmul(gh, X);
    const KXh = matmul(K, Xh);
    // −(X·K)ᴴ + K·Xᴴ − (A·X)·K·Xᴴ + (Xᴴ·X)·(gᴴ − K·A)
    return add(sub(sub(KXh, H(matmul(X, K))), matmul(matmul(A, X), KXh)), matmul(matmul(Xh, X), sub(gh, matmul(K, A))));
  }
  const K = matmul(X, gh);
  const XhK = matmul(Xh, K);
  // −(K·X)ᴴ + (gᴴ − A·K)·X·Xᴴ + Xᴴ·K − Xᴴ·K·X·A
  return add(sub(matmul(matmul(sub(gh, matmul(A, K)), X), Xh), H(matmul(K, X))), sub(XhK, matmul(matmul(XhK, X), A)));
}

/** The Hermitian matrix pinv(…, { hermitian }) reads: the lower triangle, real diagonal. */
function hermitianFromLower(a: Tensor): Tensor {
  const low = tril(a, -1);
  return add(add(low, H(low)), diagEmbed(real(diagonal(a))));
}

/**
 * The gradient of X = V·f(S)·Uᴴ, f = 1/σ above `thr` and 0 below (pinv with a threshold that
 * drops singular values that are not negligible), through the SVD: X's cotangent g gives
 * gU = gᴴ·V·f, gVh = (g·U·f)ᴴ, gσ = −Re(Vᴴ·g·U)_ii/σ² on the kept values, then svdBackward.
 * The cross terms between kept and dropped pairs (gaps σ_i² − σ_j²) are what the fixed-rank
 * formula misses.
 */
function truncatedPinvBackward(g: Tensor, a: Tensor, thr: Tensor): Tensor {
  const { U, S, Vh } = svd(a, { fullMatrices: false });
  const keep = gt(S, thr);
  const keepF = cast(keep, S.dtype);
  const f = div(keepF, where(keep, S, 1));
  const fRow = unsqueeze(f, -2);
  const gU = matmul(H(g), mul(H(Vh), fRow));
  const gVh = H(matmul(g, mul(U, fRow)));
  const gf = real(diagonal(matmul(Vh, matmul(g, U))));
  const gS = mul(keepF, neg(div(gf, where(keep, mul(S, S), 1))));
  return svdBackward(a, U, S, Vh, gU, gS, gVh, 'pinv')!;
}

/**
 * The cotangent of A from that of X = pinv(A, o) (A already Hermitian-completed): the fixed-rank
 * formula where the dropped singular values are rounding-level (always so with the default
 * threshold); the SVD route where a user threshold (atol/rtol) drops larger ones — on the GPU
 * whenever one is given, as the spectrum is not read there.
 */
function pinvGrad(g: Tensor, a: Tensor, X: Tensor, o: RankOptions): Tensor {
  if (o.atol === undefined && o.rtol === undefined) return pinvBackward(g, X, a);
  const m = a.rows, n = a.cols;
  const S = svd(a, { fullMatrices: false }).S;
  const s1 = slice(S, '...', '0:1');
  const eps = epsOf(S.dtype);
  // the forward's threshold (src/backend/cpu/pinv.ts): max(atol, rtol·σ₁)
  const rtol = o.rtol ?? (o.atol !== undefined && o.atol > 0 ? 0 : Math.max(m, n) * eps);
  const thr = where(gt(mul(s1, rtol), o.atol ?? 0), mul(s1, rtol), o.atol ?? 0);
  const significant = logicalAnd(le(S, thr), gt(S, mul(s1, 8 * Math.max(m, n) * eps)));
  const needSvd = a.device !== 'cpu' || (sum(cast(significant, 'int32')).dataSync() as ArrayLike<number>)[0] > 0;
  return needSvd ? truncatedPinvBackward(g, a, thr) : pinvBackward(g, X, a);
}

defineRule('pinv', {
  backward: ({ args: [A, opts], output }, g: Tensor) => {
    const o = (opts ?? {}) as RankOptions;
    if (!o.hermitian) return [pinvGrad(g, A as Tensor, output as Tensor, o)];
    // only the lower triangle is read: entry (i, j), i > j, also stands at (j, i) conjugated
    const G = pinvGrad(g, hermitianFromLower(A as Tensor), output as Tensor, o);
    return [add(add(tril(G, -1), tril(H(G), -1)), diagEmbed(real(diagonal(G))))];
  },
});

defineRule('lstsq', {
  backward: ({ args: [A, B, opts] }, cot: { solution: Cot; residuals: Cot; singularValues: Cot }) => {
    const a = A as Tensor;
    const bIn = B as Tensor;
    const vec = bIn.ndim === 1;
    const b = vec ? unsqueeze(bIn, -1) : bIn;
    const o = (opts ?? {}) as LstsqOptions;
    const gX0 = live(cot.solution), gL0 = live(cot.residuals), gSv = live(cot.singularValues);
    let gA: Tensor | null = null, gB: Tensor | null = null;
    const acc = (p: Tensor | null, q: Tensor): Tensor => (p ? add(p, q) : q);
    if (gX0 || gL0) {
      // the same rank threshold as the forward (torch derives lstsq's gradient through pinv)
      const rtol = o.rcond === undefined || o.rcond < 0 ? undefined : o.rcond;
      const popts: RankOptions = rtol === undefined ? {} : { rtol };
      const X = pinv(a, popts);
      const sol = matmul(X, b);
      if (gX0) {
        const gX = vec ? unsqueeze(gX0, -1) : gX0;
        // the solution is pinv(A)·B: pinv's gradient for the cotangent gX·Bᴴ (an rcond that drops
        // non-negligible singular values goes through the SVD, as in pinv)
        gA = pinvGrad(matmul(gX, H(b)), a, X, popts);
        gB = matmul(H(X), gX);
      }
      if (gL0) {
        // residuals ‖A·X − B‖² per column: Danskin's theorem, X held fixed
        const r = sub(matmul(a, sol), b);
        const gL = unsqueeze(gL0.ndim === 0 ? gL0.reshape([1]) : gL0, -2);
        gA = acc(gA, mul(matmul(mul(gL, r), H(sol)), 2));
        gB = acc(gB, mul(mul(gL, r), -2));
      }
    }
    if (gSv) {
      const { U, Vh } = svd(a, { fullMatrices: false });
      gA = acc(gA, uDiagVh(U, gSv, Vh));
    }
    if (gB && vec) gB = gB.reshape([gB.shape[gB.ndim - 2]]);
    return [gA, gB];
  },
});

// ---------------------------------------------------------------- norm, cond

function normDimIdx(d: number, nd: number): number {
  return d < 0 ? d + nd : d;
}

/** The gradient of the vector p-norm over `dims`; g and nrm have the keepdim shape. */
function vectorNormGrad(x: Tensor, p: number, dims: number[], g: Tensor, nrm: Tensor): Tensor {
  if (p === 0) return zeros(x.shape, { dtype: x.dtype, device: x.device });
  const ax = abs(x);
  if (!Number.isFinite(p)) {
    // max (min) of |x|: ties share the gradient evenly (torch)
    const ext = p > 0 ? max(ax, { dim: dims, keepDims: true }) : min(ax, { dim: dims, keepDims: true });
    const mask = eq(ax, ext);
    const count = sum(mask, { dim: dims, keepDims: true });
    return mul(sign(x), div(mul(g, mask), count));
  }
  if (p === 1) return mul(sign(x), g);
  if (p === 2) return mul(x, where(eq(nrm, 0), 0, div(g, nrm)));
  // g·x·|x|^(p−2)·‖x‖^(1−p); 0 where x = 0 (its subgradient, torch)
  return where(eq(ax, 0), 0, mul(mul(x, pow(ax, p - 2)), div(g, pow(nrm, p - 1))));
}

/** The gradient of a matrix norm over dims (d0, d1) (g, nrm in the keepdim shape). */
function matrixNormGrad(x: Tensor, ord: NormOrd, d0: number, d1: number, g: Tensor, nrm: Tensor): Tensor {
  if (ord === 'fro') return vectorNormGrad(x, 2, [d0, d1], g, nrm);
  if (typeof ord === 'number' && (Math.abs(ord) === 1 || !Number.isFinite(ord))) {
    // ±1: max/min over d1 of the sums over d0; ±Infinity: over d0 of the sums over d1
    const sumDim = Math.abs(ord) === 1 ? d0 : d1;
    const s = sum(abs(x), { dim: sumDim, keepDims: true });
    const ext = ord > 0 ? max(s, { dim: [d0, d1], keepDims: true }) : min(s, { dim: [d0, d1], keepDims: true });
    const mask = eq(s, ext);
    const count = sum(mask, { dim: [d0, d1], keepDims: true });
    return mul(sign(x), div(mul(g, mask), count));
  }
  // 'nuc', ±2: through the SVD of the two dims moved last
  const nd = x.ndim;
  const others = [...Array(nd).keys()].filter((i) => i !== d0 && i !== d1);
  const perm = [...others, d0, d1];
  const moved = d0 === nd - 2 && d1 === nd - 1;
  const xm = moved ? x : permute(x, perm);
  const gm = (moved ? g : permute(g, perm)).reshape(xm.shape.slice(0, -2)); // batch shape
  const { U, S, Vh } = svd(xm, { fullMatrices: false });
  let gS: Tensor;
  if (ord === 'nuc') {
    gS = mul(unsqueeze(gm, -1), cast(eq(S, S), S.dtype));
  } else {
    const ext = ord === 2 ? max(S, { dim: -1, keepDims: true }) : min(S, { dim: -1, keepDims: true });
    const mask = eq(S, ext);
    gS = div(mul(unsqueeze(gm, -1), mask), sum(mask, { dim: -1, keepDims: true }));
  }
  const gx = uDiagVh(U, gS, Vh);
  if (moved) return gx;
  const invPerm = new Array<number>(nd);
  perm.forEach((p, i) => { invPerm[p] = i; });
  return permute(gx, invPerm);
}

/** The gradient of norm(x, ord, opts) (the same dims and defaults as the forward). */
export function normGrad(x: Tensor, ord: NormOrd | undefined, opts: NormOptions | undefined, out: Tensor, g: Tensor): Tensor {
  const nd = x.ndim;
  const o = opts ?? {};
  let dims: number[];
  let vectorAll = false;
  if (o.dim === undefined) {
    if (ord === undefined) { dims = [...Array(nd).keys()]; vectorAll = true; }
    else dims = nd === 1 ? [0] : [0, 1];
  } else if (typeof o.dim === 'number') dims = [normDimIdx(o.dim, nd)];
  else dims = [normDimIdx(o.dim[0], nd), normDimIdx(o.dim[1], nd)];
  const kshape = x.shape.map((d, i) => (dims.includes(i) ? 1 : d));
  const gk = g.reshape(kshape), nk = out.reshape(kshape);
  if (vectorAll) return vectorNormGrad(x, 2, dims, gk, nk);
  if (dims.length === 1) return vectorNormGrad(x, (ord ?? 2) as number, dims, gk, nk);
  return matrixNormGrad(x, ord ?? 'fro', dims[0], dims[1], gk, nk);
}

defineRule('norm', {
  backward: ({ args: [A, ord, opts], output }, g: Tensor) =>
    [normGrad(A as Tensor, ord as NormOrd | undefined, opts as NormOptions | undefined, output as Tensor, g)],
});

defineRule('cond', {
  backward: ({ args: [A, p] }, g: Tensor) => {
    const a = A as Tensor;
    const ord = (p ?? 2) as NormOrd;
    if (ord === 2 || ord === -2) {
      // σ₁/σ_k (or σ_k/σ₁): the gradient reaches only the two extreme singular pairs
      const { U, S, Vh } = svd(a, { fullMatrices: false });
      const k = S.shape[S.ndim - 1];
      const s1 = slice(S, '...', '0:1'), sk = slice(S, '...', `${k - 1}:${k}`);
      const gb = unsqueeze(g, -1);
      const big = ord === 2 ? div(gb, sk) : neg(div(mul(gb, sk), mul(s1, s1)));
      const small = ord === 2 ? neg(div(mul(gb, s1), mul(sk, sk))) : div(gb, s1);
      const pair = (i: number, w: Tensor): Tensor =>
        mul(matmul(slice(U, '...', ':', `${i}:${i + 1}`), slice(Vh, '...', `${i}:${i + 1}`, ':')), unsqueeze(w, -1));
      return [add(pair(0, big), pair(k - 1, small))];
    }
    // ‖A‖·‖A⁻¹‖: product rule, and d(A⁻¹) = −A⁻¹·dA·A⁻¹ (adjoint: −A⁻ᴴ·Ḡ·A⁻ᴴ)
    const Ai = restated('cond', `the gradient of cond(A, ${String(ord)}) needs a non-singular A`, () => inv(a));
    const dims: NormOptions = { dim: [-2, -1] };
    const n1 = norm(a, ord, dims), n2 = norm(Ai, ord, dims);
    const g1 = normGrad(a, ord, dims, n1, mul(g, n2));
    const g2 = normGrad(Ai, ord, dims, n2, mul(g, n1));
    return [sub(g1, matmul(matmul(H(Ai), g2), H(Ai)))];
  },
});

