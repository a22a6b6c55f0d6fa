// Backward rules of src/gdn: chunkSolve, invUnitLower (public ops, so second derivatives
// work), chunkedForward (the existing backward kernels, gdn.chunkedBackward: first order
// only) and recurrentStep (one token, written out with public ops).
import { defineRule } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';
import { asTensor, zeros } from '../../core/create.js';
import { matmul } from '../../linalg/matmul.js';
import { add, cast, div, exp, mul, neg, sqrt, sub } from '../../ops/elementwise.js';
import { broadcastTo, tril } from '../../ops/indexing.js';
import { sum } from '../../ops/reduce.js';
import type { GdnSaved } from '../../backend/ops.js';
import type { ChunkedForwardInput, ChunkedForwardOutput, RecurrentStepOptions } from '../../gdn/index.js';
import { chunkedBackwardFrom } from '../../gdn/chunked.js';
import { invUnitLower } from '../../gdn/index.js';
import { H } from './util.js';

// X = (I + L)⁻¹·B with L = tril(A, −1): only A's strict lower triangle is read (the diagonal
// is taken as 1, the upper part ignored), so A's cotangent lives there:
// B̄ = (I + L)⁻ᵀ·X̄, Ā = −tril(B̄·Xᵀ, −1). chunkSolve is real (float32/float64) only.
// B̄ = invUnitLower(A)ᵀ·X̄: the dedicated unit-lower inverse and one batched product, not a
// general upper-triangular solve (the slow path for batches of small matrices on the GPU).
defineRule('gdn.chunkSolve', {
  backward: ({ args: [A], output }, g: Tensor) => {
    const a = asTensor(A as Tensor, 'gdn.chunkSolve', 'A');
    const gB = matmul(H(invUnitLower(a)), g);
    return [neg(tril(matmul(gB, H(output as Tensor)), -1)), gB];
  },
});

// T = (I + L)⁻¹: dT = −T·dL·T, so Ā = −tril(Tᵀ·T̄·Tᵀ, −1) (the diagonal and upper part of A
// are not read).
defineRule('gdn.invUnitLower', {
  backward: ({ output }, g: Tensor) => {
    const Tt = H(output as Tensor);
    return [neg(tril(matmul(matmul(Tt, g), Tt), -1))];
  },
});

// The chunked forward's gradient is the existing reverse-mode kernel (CPU and GPU), fed with
// ō (zeros when only the final state reached the loss) and the final state's cotangent. Every
// option of chunkedForward (layout, scale, qkL2norm, initialState, cuSeqlens, grouped value
// heads, chunkSize) is one of chunkedBackward's: it takes the same input object.
defineRule('gdn.chunkedForward', {
  firstOrderOnly: true,
  backward: ({ args: [input], output, saved }, cot: { o: Tensor | null; finalState: Tensor | null }) => {
    const x = input as ChunkedForwardInput;
    const out = output as ChunkedForwardOutput;
    const dO = cot.o ?? zeros(out.o.shape, { dtype: out.o.dtype, device: out.o.device });
    // the GPU forward kept its stages (chunkedForward's save slot): the backward reuses them
    const r = chunkedBackwardFrom(x, cot.finalState ? { dO, dFinalState: cot.finalState } : { dO },
      saved as GdnSaved | undefined, out.o);
    return [{
      q: r.dq, k: r.dk, v: r.dv, beta: r.dbeta, g: r.dg, initialState: r.dInitialState ?? null, cuSeqlens: null,
    }];
  },
});

/** x / sqrt(Σx² + 1e-6) over the last dim (the kernels' qkL2norm), with the norm. */
function l2norm(x: Tensor): { y: Tensor; n: Tensor } {
  const n = sqrt(add(sum(mul(x, x), { dim: -1, keepDims: true }), 1e-6));
  return { y: div(x, n), n };
}

/** The cotangent of x from that of y = x / n: (ȳ − y·⟨y, ȳ⟩) / n. */
function l2normBack(y: Tensor, n: Tensor, gy: Tensor): Tensor {
  return div(sub(gy, mul(y, sum(mul(y, gy), { dim: -1, keepDims: true }))), n);
}

// One token: S' = a·(S − β·k·(kᵀS)) + β·k·vᵀ with a = exp(g), o = S'ᵀ·(scale·q), per (batch,
// value head), q and k read from key head ⌊hv/m⌋ (m = vHeads/heads). With P = S̄' + scale·q·ōᵀ,
// u = kᵀS and w = kᵀP: S̄ = a·(P − β·k·w), ḡ = a·(⟨P, S⟩ − β·⟨w, u⟩), β̄ = ⟨w, v − a·u⟩,
// v̄ = β·w, k̄ = β·(P·(v − a·u) − a·S·w), q̄ = scale·S'·ō; k̄, q̄ summed over each key head's value
// heads and taken back through the L2 norm when qkL2norm.
defineRule('gdn.recurrentStep', {
  backward: ({ args, output }, cot: { o: Tensor | null; state: Tensor | null }) => {
    const [state, q, k, v, beta, g, opts] = args as [Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, RecurrentStepOptions];
    const who = 'gdn.recurrentStep';
    const Sn = (output as { state: Tensor }).state;
    const dt = Sn.dtype; // float32 for float16 inputs: the rule computes in the state's dtype
    const as = (x: unknown, name: string): Tensor => {
      const t = asTensor(x as Tensor, who, name, dt);
      return t.dtype === dt ? t : cast(t, dt);
    };
    const S = as(state, 'state'), qt = as(q, 'q'), kt = as(k, 'k'), vt = as(v, 'v');
    const bt = as(beta, 'beta'), gt = as(g, 'g');
    const [B, Hh, dk] = qt.shape;
    const HV = vt.shape[1], dv = vt.shape[2], m = HV / Hh;
    const scale = opts.scale ?? 1 / Math.sqrt(dk);
    const norm = opts.qkL2norm ?? false;
    const qn = norm ? l2norm(qt) : null, kn = norm ? l2norm(kt) : null;
    // (B, H, d) → (B, HV, d): value head hv reads key head ⌊hv/m⌋
    const rep = (x: Tensor): Tensor => (m === 1 ? x
      : broadcastTo(x.reshape([B, Hh, 1, dk]), [B, Hh, m, dk]).reshape([B, HV, dk]));
    const unrep = (x: Tensor): Tensor => (m === 1 ? x : sum(x.reshape([B, Hh, m, dk]), { dim: 2 }));
    const kx = rep(kn ? kn.y : kt), qx = rep(qn ? qn.y : qt);
    const kc = kx.reshape([B, HV, dk, 1]), kr = kx.reshape([B, HV, 1, dk]);
    const a = exp(gt).reshape([B, HV, 1, 1]), b = bt.reshape([B, HV, 1, 1]);
    const u = matmul(kr, S); // (B, HV, 1, dv)
    let P: Tensor | null = cot.state;
    let gq: Tensor | null = null;
    if (cot.o) {
      const go = cot.o;
      const qo = mul(matmul(qx.reshape([B, HV, dk, 1]), go.reshape([B, HV, 1, dv])), scale);
      P = P ? add(P, qo) : qo;
      gq = unrep(mul(matmul(Sn, go.reshape([B, HV, dv, 1])), scale).reshape([B, HV, dk]));
      if (qn) gq = l2normBack(qn.y, qn.n, gq);
    }
    const Pm = P!; // the rule runs only when o or state has a cotangent
    const w = matmul(kr, Pm); // (B, HV, 1, dv)
    const gS = mul(a, sub(Pm, mul(b, matmul(kc, w))));
    const sumLast2 = (x: Tensor): Tensor => sum(x, { dim: [-2, -1] });
    const gg = mul(a.reshape([B, HV]), sub(sumLast2(mul(Pm, S)), mul(bt, sumLast2(mul(w, u)))));
    const vr = vt.reshape([B, HV, 1, dv]);
    const vau = sub(vr, mul(a, u)); // v − a·u as a row
    const gb = sumLast2(mul(w, vau));
    const gv = mul(b, w).reshape([B, HV, dv]);
    const gkx = mul(b, sub(matmul(Pm, H(vau)), mul(a, matmul(S, H(w))))).reshape([B, HV, dk]);
    let gk = unrep(gkx);
    if (kn) gk = l2normBack(kn.y, kn.n, gk);
    return [gS, gq, gk, gv, gb, gg, null];
  },
});
