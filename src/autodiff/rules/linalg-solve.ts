// Backward rules of matmul and the LU family (src/linalg: matmul, luFactor, lu, luSolve,
// solveTriangular, solve, inv, det, slogdet). Complex: torch's convention (docs/autodiff.md).
// Formulas: torch's FunctionsManual.cpp (linalg_lu_backward, linalg_lu_solve_LU/B,
// linalg_solve_backward, triangular_solve_backward, linalg_det_backward, slogdet_backward),
// rederived in the comments below; the P-free forms are lapis's own.
import { defineRule, taping } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';
import { asTensor, eye, tensor, zeros } from '../../core/create.js';
import { isComplex, realOf } from '../../core/dtype.js';
import { add, sub, mul, neg, eq, ne, abs, imag, where } from '../../ops/elementwise.js';
import { tril, triu, split, concat, diagonal, expand, take, matrixTranspose } from '../../ops/indexing.js';
import { any, prod } from '../../ops/reduce.js';
import { matmul, readOp, type MatmulOptions, type MatmulOp } from '../../linalg/matmul.js';
import { luSolve } from '../../linalg/luSolve.js';
import { solveTriangularEx } from '../../linalg/solveTriangular.js';
import { solveEx, type SolveSaved } from '../../linalg/solve.js';
import { invEx } from '../../linalg/inv.js';
import { det, type DetSaved } from '../../linalg/det.js';
import { svd } from '../../linalg/svd.js';
import { cj, H } from './util.js';

defineRule('matmul', {
  // C = Ã·B̃ with Ã = op(A), B̃ = op(B) (the transpose/adjoint options): gÃ = g·B̃ᴴ, gB̃ = Ãᴴ·g, and
  // op's own pullback (transpose for T, adjoint for H) maps them back to A and B, each written as
  // one matmul with options so no operand is copied to its transposed form.
  backward: ({ args: [A, B, opts] }, g: Tensor) => {
    const o = (opts ?? {}) as MatmulOptions;
    const opA = readOp('matmul', 'A', o.transposeA, o.adjointA), opB = readOp('matmul', 'B', o.transposeB, o.adjointB);
    const a = asTensor(A as Tensor, 'matmul', 'A');
    const b = asTensor(B as Tensor, 'matmul', 'B');
    const aVec = a.ndim === 1, bVec = b.ndim === 1;
    const a2 = aVec ? a.reshape([1, a.shape[0]]) : a;
    const b2 = bVec ? b.reshape([b.shape[0], 1]) : b;
    let g2 = g;
    if (aVec && bVec) g2 = g.reshape([1, 1]);
    else if (aVec) g2 = g.reshape([...g.shape.slice(0, -1), 1, g.shape[g.ndim - 1]]);
    else if (bVec) g2 = g.reshape([...g.shape, 1]);
    // X's options so that X is read as op(X) (the other operand's op, moved to this side).
    const asA = (op: MatmulOp) => ({ transposeA: op === 'T', adjointA: op === 'H' });
    const asB = (op: MatmulOp) => ({ transposeB: op === 'T', adjointB: op === 'H' });
    // gA: g·B̃ᴴ (N), (g·B̃ᴴ)ᴴ = B̃·gᴴ (H), (g·B̃ᴴ)ᵀ = conj(B̃·gᴴ) (T); B̃ᴴ is Bᴴ, conj(B) or B.
    let gA = opA === 'N'
      ? (opB === 'N' ? matmul(g2, b2, { adjointB: true }) : matmul(g2, opB === 'T' ? cj(b2) : b2))
      : matmul(b2, g2, { ...asA(opB), adjointB: true });
    if (opA === 'T') gA = cj(gA);
    // gB: Ãᴴ·g (N), (Ãᴴ·g)ᴴ = gᴴ·Ã (H), (Ãᴴ·g)ᵀ = conj(gᴴ·Ã) (T); Ãᴴ is Aᴴ, conj(A) or A.
    let gB = opB === 'N'
      ? (opA === 'N' ? matmul(a2, g2, { adjointA: true }) : matmul(opA === 'T' ? cj(a2) : a2, g2))
      : matmul(g2, a2, { adjointA: true, ...asB(opA) });
    if (opB === 'T') gB = cj(gB);
    if (aVec) gA = gA.reshape([...gA.shape.slice(0, -2), gA.shape[gA.ndim - 1]]);
    if (bVec) gB = gB.reshape(gB.shape.slice(0, -1));
    return [gA, gB];
  },
});

// ---------------------------------------------------------------------------- helpers

const asT = (v: unknown, who: string, name: string): Tensor => asTensor(v as Tensor, who, name);

/** x with a trailing (1, 1): a per-matrix scalar that broadcasts over its matrix. */
const perMatrix = (x: Tensor): Tensor => x.reshape([...x.shape, 1, 1]);

/** g with the matrices where `bad` (a bool of the batch shape) is true filled with NaN. */
function nanWhere(g: Tensor, bad: Tensor): Tensor {
  return where(perMatrix(bad), NaN, g);
}

/** L⁻ᴴ·X for a unit lower triangular L (only its strict lower triangle is read). */
const solveLH = (L: Tensor, X: Tensor): Tensor =>
  solveTriangularEx(H(L), X, { upper: true, unitriangular: true }).solution;

/** X·U⁻ᴴ for an upper triangular U; NaN in the matrices whose U has a zero diagonal entry. */
const solveUHRight = (U: Tensor, X: Tensor): Tensor =>
  solveTriangularEx(H(U), X, { upper: false, left: false }).solution;

/** The first `k` entries of dim `dim` of x (x itself when it has exactly k). */
function head(x: Tensor, k: number, dim: number): Tensor {
  const d = dim < 0 ? dim + x.ndim : dim;
  return x.shape[d] === k ? x : split(x, [k, x.shape[d] - k], d)[0];
}
function tail(x: Tensor, k: number, dim: number): Tensor {
  const d = dim < 0 ? dim + x.ndim : dim;
  return split(x, [k, x.shape[d] - k], d)[1];
}

/**
 * P·Y (or Pᵀ·Y with `transposed`) for the row interchanges `pivots` (LAPACK's 1-based ipiv,
 * P·A = L·U), Y (…, m, c) with m ≥ the pivot count; batch dims broadcast. CPU: a gather of
 * rows (the permutation is read from the pivots). Other devices: luSolve with an identity
 * "LU" and these pivots, which is P exactly (unit triangles with zero off-diagonals).
 */
function applyP(pivots: Tensor, Y: Tensor, transposed: boolean): Tensor {
  const m = Y.shape[Y.ndim - 2], c = Y.shape[Y.ndim - 1], k = pivots.shape[pivots.ndim - 1];
  const pb = pivots.shape.slice(0, -1), yb = Y.shape.slice(0, -2);
  const nb = Math.max(pb.length, yb.length);
  const ob: number[] = [];
  for (let i = 0; i < nb; i++) {
    const p = pb[i - (nb - pb.length)] ?? 1, y = yb[i - (nb - yb.length)] ?? 1;
    ob.push(p === 1 ? y : p);
  }
  if (pivots.device === 'cpu') {
    const pv = pivots.dataSync() as Int32Array;
    const count = ob.reduce((s, d) => s * d, 1);
    const Ye = expand(Y, [...ob, m, c]);
    const idx = new Int32Array(count * m * c);
    const perm = new Int32Array(m);
    for (let b = 0; b < count; b++) {
      // the pivot batch element that broadcasts to output element b
      let pIdx = 0, rem = b, stride = 1;
      for (let i = nb - 1; i >= 0; i--) {
        const coord = rem % ob[i];
        rem = Math.floor(rem / ob[i]);
        const j = i - (nb - pb.length);
        if (j >= 0) {
          if (pb[j] !== 1) pIdx += coord * stride;
          stride *= pb[j];
        }
      }
      for (let i = 0; i < m; i++) perm[i] = i;
      for (let i = 0; i < k; i++) {
        const j = pv[pIdx * k + i] - 1;
        const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
      }
      // (P·Y)[i] = Y[perm[i]];  (Pᵀ·Y)[perm[i]] = Y[i]
      for (let i = 0; i < m; i++) {
        const dst = transposed ? perm[i] : i, src = transposed ? i : perm[i];
        const o = (b * m + dst) * c, s = (b * m + src) * c;
        for (let q = 0; q < c; q++) idx[o + q] = s + q;
      }
    }
    return take(Ye, tensor({ data: idx, shape: [...ob, m, c], dtype: 'int32' }));
  }
  let piv = pivots;
  if (k < m) {
    const rest = new Int32Array(m - k).map((_, i) => k + i + 1);
    piv = concat([pivots, expand(tensor({ data: rest, shape: [m - k], dtype: 'int32' }).to(pivots.device), [...pb, m - k])], pb.length);
  }
  const I = expand(eye(m, { dtype: Y.dtype, device: Y.device }), [...pb, m, m]);
  return luSolve(I, piv, Y, { adjoint: transposed });
}

/**
 * The cotangent of A' = L·U from those of L (m×k, unit lower trapezoidal) and U (k×n, upper
 * trapezoidal), k = min(m, n); L̄ strictly lower, Ū upper. With F = L₁⁻¹·dA'₁·U₁⁻¹,
 * dL = L·tril₋₁(F), dU = triu(F)·U (square), so Re⟨L̄, dL⟩ + Re⟨Ū, dU⟩ = Re⟨Φ, F⟩ and
 * Ā' = L⁻ᴴ·Φ·U⁻ᴴ, Φ = tril₋₁(Lᴴ·L̄) + triu(Ū·Uᴴ). Wide (m < n, U = [U₁ U₂]):
 * Φ = tril₋₁(Lᴴ·L̄ − Ū₂·U₂ᴴ) + triu(Ū₁·U₁ᴴ), Ā' = [L⁻ᴴ·Φ·U₁⁻ᴴ, L⁻ᴴ·Ū₂]. Tall (m > n,
 * L = [L₁; L₂]): Φ = tril₋₁(L₁ᴴ·L̄₁) + triu(Ū·Uᴴ − L₂ᴴ·L̄₂), Ā' = [L₁⁻ᴴ·Φ·U⁻ᴴ; L̄₂·U⁻ᴴ].
 */
function luProductBackward(L: Tensor, U: Tensor, Lb: Tensor, Ub: Tensor): Tensor {
  const m = L.shape[L.ndim - 2], n = U.shape[U.ndim - 1];
  if (m === n) {
    const phi = add(tril(matmul(H(L), Lb), -1), triu(matmul(Ub, H(U))));
    return solveUHRight(U, solveLH(L, phi));
  }
  if (m < n) {
    const U1 = head(U, m, -1), U2 = tail(U, m, -1), Ub1 = head(Ub, m, -1), Ub2 = tail(Ub, m, -1);
    const phi = add(tril(sub(matmul(H(L), Lb), matmul(Ub2, H(U2))), -1), triu(matmul(Ub1, H(U1))));
    return concat([solveUHRight(U1, solveLH(L, phi)), solveLH(L, Ub2)], L.ndim - 1);
  }
  const L1 = head(L, n, -2), L2 = tail(L, n, -2), Lb1 = head(Lb, n, -2), Lb2 = tail(Lb, n, -2);
  const phi = add(tril(matmul(H(L1), Lb1), -1), triu(sub(matmul(Ub, H(U)), matmul(H(L2), Lb2))));
  return concat([solveUHRight(U, solveLH(L1, phi)), solveUHRight(U, Lb2)], L.ndim - 2);
}

/** L (m×k, unit diagonal) and U (k×n) of a packed m×n LU. */
function unpack(LU: Tensor): { L: Tensor; U: Tensor } {
  const m = LU.shape[LU.ndim - 2], n = LU.shape[LU.ndim - 1], k = Math.min(m, n);
  const L = add(tril(head(LU, k, -1), -1), eye(m, { m: k, dtype: LU.dtype, device: LU.device }));
  return { L, U: triu(head(LU, k, -2)) };
}

// ---------------------------------------------------------------------------- LU

/** Ā for luFactor/luFactorEx from the packed cotangent: L̄ = its strict lower part, Ū = its upper part. */
function luFactorBackward(out: { LU: Tensor; pivots: Tensor }, g: Tensor): Tensor {
  const LU = out.LU;
  const m = LU.shape[LU.ndim - 2], n = LU.shape[LU.ndim - 1], k = Math.min(m, n);
  const { L, U } = unpack(LU);
  const Lb = tril(head(g, k, -1), -1), Ub = triu(head(g, k, -2));
  return applyP(out.pivots, luProductBackward(L, U, Lb, Ub), true);
}

interface LuOut { LU: Tensor; pivots: Tensor; info: Tensor }
defineRule('luFactor', {
  backward: ({ output }, cot: { LU: Tensor | null }) =>
    [cot.LU ? luFactorBackward(output as LuOut, cot.LU) : null],
});
// A zero pivot (info > 0): U⁻ᴴ does not exist; those matrices' gradients are NaN.
defineRule('luFactorEx', {
  backward: ({ output }, cot: { LU: Tensor | null }) => {
    if (!cot.LU) return [null];
    const o = output as LuOut;
    return [nanWhere(luFactorBackward(o, cot.LU), ne(o.info, 0))];
  },
});

// lu: A = P·L·U (torch's P), so Ā = P·Ā'. A zero on U's diagonal: NaN (U⁻ᴴ does not exist).
defineRule('lu', {
  backward: ({ output }, cot: { L: Tensor | null; U: Tensor | null }) => {
    if (!cot.L && !cot.U) return [null];
    const { P, L, U } = output as { P: Tensor; L: Tensor; U: Tensor };
    const Lb = cot.L ? tril(cot.L, -1) : zeros(L.shape, { dtype: L.dtype, device: L.device });
    const Ub = cot.U ? triu(cot.U) : zeros(U.shape, { dtype: U.dtype, device: U.device });
    const gA = matmul(P, luProductBackward(L, U, Lb, Ub));
    return [nanWhere(gA, any(eq(abs(diagonal(U)), 0), { dim: -1 }))];
  },
});

// luSolve(LU, pivots, B, { left, adjoint }): X = op(A)⁻¹·B or B·op(A)⁻¹ with A = Pᵀ·L·U.
// B̄ = the same solve with the adjoint op applied to Ḡ. Ā: left −B̄·Xᴴ, left+adjoint −X·B̄ᴴ,
// right −Xᴴ·B̄, right+adjoint −B̄ᴴ·X. The packed cotangent: with M = P·Ā (the cotangent of
// L·U), L̄ = tril₋₁(M·Uᴴ), Ū = triu(Lᴴ·M). M = −Y·Zᴴ has the rank r of B's other dim, so
// M·Uᴴ = −Y·(U·Z)ᴴ and Lᴴ·M = −(Lᴴ·Y)·Zᴴ cost O(n²r), not O(n³). Pivots: none (integers).
defineRule('luSolve', {
  backward: ({ args: [LUa, pv, , opts], output, needsGrad }, g: Tensor) => {
    const LU = asT(LUa, 'luSolve', 'LU'), pivots = asT(pv, 'luSolve', 'pivots');
    const o = (opts ?? {}) as { left?: boolean; adjoint?: boolean };
    const left = o.left ?? true, adj = o.adjoint ?? false;
    const X = output as Tensor;
    const gB = luSolve(LU, pivots, g, { left, adjoint: !adj });
    if (!needsGrad(0)) return [null, null, gB];
    const [y, Z] = left ? (adj ? [X, gB] : [gB, X]) : (adj ? [H(gB), H(X)] : [H(X), H(gB)]);
    const Y = applyP(pivots, neg(y), false);
    const { L, U } = unpack(LU);
    const gLU = add(tril(matmul(Y, H(matmul(U, Z))), -1), triu(matmul(matmul(H(L), Y), H(Z))));
    return [gLU, null, gB];
  },
});

// ---------------------------------------------------------------------------- solveTriangular

// X = A⁻¹·B (left) or B·A⁻¹: B̄ = A⁻ᴴ·Ḡ (Ḡ·A⁻ᴴ), a triangular solve with the other triangle;
// Ā = −B̄·Xᴴ (−Xᴴ·B̄) restricted to the triangle that is read (its diagonal too unless unit).
function triangularBackward(A: unknown, opts: unknown, X: Tensor, g: Tensor, who: string, needA = true): [Tensor | null, Tensor] {
  const a = asT(A, who, 'A');
  const o = opts as { upper: boolean; left?: boolean; unitriangular?: boolean };
  const left = o.left ?? true, unit = o.unitriangular ?? false;
  const gB = solveTriangularEx(H(a), g, { upper: !o.upper, left, unitriangular: unit }).solution;
  if (!needA) return [null, gB];
  const full = left ? matmul(neg(gB), H(X)) : matmul(H(X), neg(gB));
  const gA = o.upper ? triu(full, unit ? 1 : 0) : tril(full, unit ? -1 : 0);
  return [gA, gB];
}
defineRule('solveTriangular', {
  backward: ({ args: [A, , opts], output, needsGrad }, g: Tensor) =>
    triangularBackward(A, opts, output as Tensor, g, 'solveTriangular', needsGrad(0)),
});
// info ≠ 0: X is NaN there, so are both gradients (the solve with Aᴴ reports the same zero).
defineRule('solveTriangularEx', {
  backward: ({ args: [A, , opts], output, needsGrad }, cot: { solution: Tensor | null }) => cot.solution
    ? triangularBackward(A, opts, (output as { solution: Tensor }).solution, cot.solution, 'solveTriangularEx', needsGrad(0))
    : [null, null],
});

// ---------------------------------------------------------------------------- solve

// X = A⁻¹·B (left) or B·A⁻¹ (left false); B may be a vector (torch's rule). B̄ = A⁻ᴴ·Ḡ
// (Ḡ·A⁻ᴴ) from the forward's LU factors when kept (CPU), else a solve with Aᴴ;
// Ā = −B̄·Xᴴ (−Xᴴ·B̄). solveEx with info ≠ 0: X is NaN there, and so are the gradients.
function solveBackward(
  A: unknown, B: unknown, opts: unknown, X: Tensor, g: Tensor, saved: unknown, who: string, needA = true,
): [Tensor | null, Tensor] {
  const a = asT(A, who, 'A'), b = asT(B, who, 'B');
  const left = (opts as { left?: boolean } | undefined)?.left ?? true;
  const vec = b.ndim === 1 || (b.ndim === a.ndim - 1 && b.shape.every((d, i) => d === a.shape[i]));
  const mat = (t: Tensor): Tensor => (!vec ? t : left ? t.reshape([...t.shape, 1])
    : t.reshape([...t.shape.slice(0, -1), 1, t.shape[t.ndim - 1]]));
  const g2 = mat(g), x2 = mat(X);
  const s = saved as SolveSaved | undefined;
  let gB2: Tensor;
  if (s && !taping()) {
    // the kept factors are those of A (left) or Aᵀ (left false): (Ḡ·A⁻ᴴ)ᵀ = (Aᵀ)⁻ᴴ·Ḡᵀ
    gB2 = left ? luSolve(s.LU, s.pivots, g2, { adjoint: true })
      : matrixTranspose(luSolve(s.LU, s.pivots, matrixTranspose(g2), { adjoint: true }));
  } else {
    gB2 = solveEx(H(a), g2, { left }).result;
  }
  const gA = !needA ? null : left ? matmul(neg(gB2), H(x2)) : matmul(H(x2), neg(gB2));
  const gB = !vec ? gB2 : left ? gB2.reshape(gB2.shape.slice(0, -1))
    : gB2.reshape([...gB2.shape.slice(0, -2), gB2.shape[gB2.ndim - 1]]);
  return [gA, gB];
}
defineRule('solve', {
  backward: ({ args: [A, B, opts], output, saved, needsGrad }, g: Tensor) =>
    solveBackward(A, B, opts, output as Tensor, g, saved, 'solve', needsGrad(0)),
});
defineRule('solveEx', {
  backward: ({ args: [A, B, opts], output, saved, needsGrad }, cot: { result: Tensor | null }) => cot.result
    ? solveBackward(A, B, opts, (output as { result: Tensor }).result, cot.result, saved, 'solveEx', needsGrad(0))
    : [null, null],
});

// ---------------------------------------------------------------------------- inv

// Y = A⁻¹: Ā = −Yᴴ·Ḡ·Yᴴ (no factorization: the output is all it needs). invEx with info ≠ 0:
// Y is NaN there, so is the gradient.
const invBackward = (Y: Tensor, g: Tensor): Tensor => neg(matmul(matmul(H(Y), g), H(Y)));
defineRule('inv', { backward: ({ output }, g: Tensor) => [invBackward(output as Tensor, g)] });
defineRule('invEx', {
  backward: ({ output }, cot: { inverse: Tensor | null }) =>
    [cot.inverse ? invBackward((output as { inverse: Tensor }).inverse, cot.inverse) : null],
});

// ---------------------------------------------------------------------------- det, slogdet

/**
 * c·A⁻ᴴ for c of the batch shape: getrs with the kept factors on c·I (torch's route), or
 * c·inv(A)ᴴ (a recomputed factorization; differentiable, for second derivatives).
 */
function scaledInvH(a: Tensor, c: Tensor, saved: DetSaved | undefined): Tensor {
  const n = a.shape[a.ndim - 1];
  if (saved && !taping()) {
    const cI = mul(perMatrix(c), eye(n, { dtype: c.dtype, device: c.device }));
    return luSolve(saved.LU, saved.pivots, cI, { adjoint: true });
  }
  return mul(perMatrix(c), H(invEx(a).inverse));
}

/**
 * The matrices whose kept U has min|uᵢᵢ| ≤ n·eps·max|uᵢᵢ| (numerically singular: det·A⁻ᴴ
 * loses all accuracy there), as a bool tensor of the batch shape; null if none (CPU).
 */
function nearSingular(saved: DetSaved, n: number): Tensor | null {
  const LU = saved.LU, cx = isComplex(LU.dtype), w = cx ? 2 : 1;
  const d = LU.dataSync() as Float32Array | Float64Array;
  const eps = LU.dtype === 'float32' || LU.dtype === 'complex64' ? 2 ** -23 : 2 ** -52;
  const count = LU.size / (n * n);
  const bad = new Uint8Array(count);
  let anyBad = false;
  for (let b = 0; b < count; b++) {
    let lo = Infinity, hi = 0;
    for (let i = 0; i < n; i++) {
      const q = (b * n * n + i * n + i) * w;
      const m = cx ? Math.hypot(d[q], d[q + 1]) : Math.abs(d[q]);
      lo = Math.min(lo, m); hi = Math.max(hi, m);
    }
    if (lo <= n * eps * hi) { bad[b] = 1; anyBad = true; }
  }
  return anyBad ? tensor({ data: bad, shape: LU.shape.slice(0, -2), dtype: 'bool' }) : null;
}

/**
 * torch's singular-case formula: A = U·S·Vh, det = α·∏S with α = det(U)·det(Vh), so
 * det(A)·A⁻ᴴ = conj(α)·U·diag(∏_{j≠i} S_j)·Vh, which stays defined (the adjugate's adjoint)
 * when A is singular; the products leave out one factor without dividing by it.
 */
function detSvdBackward(a: Tensor, g: Tensor): Tensor {
  const n = a.shape[a.ndim - 1];
  const { U, S, Vh } = svd(a);
  const alpha = mul(det(U), det(Vh));
  const others = prod(where(eq(eye(n, { device: a.device }), 1), 1,
    expand(S.reshape([...S.shape.slice(0, -1), 1, n]), [...S.shape, n])), { dim: -1 });
  return mul(perMatrix(mul(g, cj(alpha))), matmul(mul(U, others.reshape([...others.shape.slice(0, -1), 1, n])), Vh));
}

// det: Ā = ḡ·conj(det)·A⁻ᴴ. Singular A (CPU): torch's SVD formula for the matrices flagged by
// nearSingular, so rank-deficient inputs get the adjugate. GPU: no device read to branch on,
// so singular matrices give NaN there (documented in docs/autodiff.md).
defineRule('det', {
  backward: ({ args: [A], output, saved }, g: Tensor) => {
    const a = asT(A, 'det', 'A');
    const n = a.shape[a.ndim - 1];
    if (n === 0) return [null];
    const s = saved as DetSaved | undefined;
    const gA = scaledInvH(a, mul(g, cj(output as Tensor)), s);
    const bad = s && !taping() ? nearSingular(s, n) : null;
    return [bad ? where(perMatrix(bad), detSvdBackward(a, g), gA) : gA];
  },
});

// slogdet: with φ = tr(A⁻¹·dA), d log|det| = Re φ and d sign = sign·i·Im φ, so
// Ā = conj(w)·A⁻ᴴ, conj(w) = ḡ_logabsdet − i·Im(conj(ḡ_sign)·sign) (complex; a real sign is
// constant). Singular A (sign 0): log|det| has no derivative, the gradient is NaN.
defineRule('slogdet', {
  backward: ({ args: [A], output, saved }, cot: { sign: Tensor | null; logabsdet: Tensor | null }) => {
    const a = asT(A, 'slogdet', 'A');
    const n = a.shape[a.ndim - 1];
    const { sign } = output as { sign: Tensor; logabsdet: Tensor };
    const useSign = cot.sign !== null && isComplex(a.dtype);
    if (n === 0 || (!cot.logabsdet && !useSign)) return [null];
    let c: Tensor = cot.logabsdet ?? zeros(sign.shape, { dtype: realOf(a.dtype), device: a.device });
    if (useSign) c = sub(c, mul(imag(mul(cj(cot.sign!), sign)), { re: 0, im: 1 }));
    const gA = scaledInvH(a, c, saved as DetSaved | undefined);
    // a CPU sign is read at once: the n×n NaN mask is only built when some matrix is singular
    if (sign.device === 'cpu' && !taping() && !Array.from(sign.dataSync() as ArrayLike<number>).includes(0)) return [gA];
    return [nanWhere(gA, eq(abs(sign), 0))];
  },
});

