// Gradients of qr, svd, svdEx, svdvals, pinv, lstsq, norm and cond (src/autodiff/rules/linalg-decomp.ts):
// central finite differences in float64 and complex128 (test/helpers/gradcheck.ts), batches,
// tall and wide shapes, every mode and order, and the documented errors.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  linalg, tensor, vjp, grad, sum, mul, add, ArgumentError, LinAlgError, Tensor, zeros,
} from '../../src/index.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';

const { matmul } = linalg;

type Dt = 'float64' | 'complex128';
const DTS: readonly Dt[] = ['float64', 'complex128'];
const rnd = (shape: number[], dt: Dt, seed: number): Tensor => randomTensor(shape, dt, seed);

/** A (batch of) matrix with singular values `s` (well separated) and random orthonormal factors. */
function withSpectrum(m: number, n: number, s: number[], dt: Dt, seed: number, batch: number[] = []): Tensor {
  const Q1 = linalg.qr(rnd([...batch, m, m], dt, seed)).Q;
  const Q2 = linalg.qr(rnd([...batch, n, n], dt, seed + 1)).Q;
  const k = Math.min(m, n);
  const D = zeros([m, n], { dtype: 'float64' });
  const d = D.dataSync() as Float64Array;
  for (let i = 0; i < k; i++) d[i * n + i] = s[i];
  return matmul(matmul(Q1, D), Q2);
}

/** A constant (k × 1) one-hot column selecting column i. */
function pick(k: number, i: number): Tensor {
  const e = new Float64Array(k);
  e[i] = 1;
  return tensor({ data: e, shape: [k, 1], dtype: 'float64' });
}

describe('qr gradients', () => {
  it('reduced: tall, square, wide, batched, real and complex (Q and R)', () => {
    for (const dt of DTS) {
      for (const [shape, seed] of [[[5, 3], 1], [[3, 3], 2], [[3, 5], 3], [[2, 4, 3], 4], [[2, 2, 4], 5]] as const) {
        gradcheck((a) => linalg.qr(a), [rnd([...shape], dt, seed)]);
      }
    }
  });

  it("mode 'r' (R only; Q recomputed in the backward), tall and wide", () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.qr(a, { mode: 'r' }).R, [rnd([5, 3], dt, 6)]);
      gradcheck((a) => linalg.qr(a, { mode: 'r' }).R, [rnd([2, 3, 4], dt, 7)]);
    }
  });

  it("mode 'complete': m ≤ n like reduced; m > n through R only, an ArgumentError through Q", () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.qr(a, { mode: 'complete' }), [rnd([3, 5], dt, 8)]);
      gradcheck((a) => linalg.qr(a, { mode: 'complete' }), [rnd([3, 3], dt, 9)]);
      gradcheck((a) => linalg.qr(a, { mode: 'complete' }).R, [rnd([5, 3], dt, 10)]);
      const { pullback, value } = vjp((a: Tensor) => linalg.qr(a, { mode: 'complete' }), rnd([5, 3], dt, 11));
      expect(() => pullback({ Q: value.Q, R: null })).toThrow(ArgumentError);
      expect(() => pullback({ Q: value.Q, R: null })).toThrow(/qr: mode 'complete'.*use mode 'reduced'/);
    }
  });

  it('rank-deficient A: a LinAlgError naming qr', () => {
    const A = tensor([[1, 2], [2, 4], [0, 0]]);
    expect(() => grad((a: Tensor) => sum(linalg.qr(a).R))(A)).toThrow(/qr: the gradient needs a full-rank A/);
  });
});

describe('svd gradients', () => {
  it('real: U, S, Vh directly (sign gauge is locally constant), tall, square, wide, batched', () => {
    const cases: [number, number, number[], number[]][] = [
      [5, 3, [3, 2, 1], []], [3, 3, [3, 2, 1], []], [3, 5, [3, 2, 1], []], [4, 3, [4, 2.5, 1], [2]],
    ];
    cases.forEach(([m, n, s, b], i) => {
      gradcheck((a) => linalg.svd(a, { fullMatrices: false }), [withSpectrum(m, n, s, 'float64', 20 + 2 * i, b)]);
    });
  });

  it('complex: gauge-invariant losses (U·Vh, U·diag(w)·Vh, S), tall, square, wide, batched', () => {
    const w = tensor([0.7, -1.3, 0.4]);
    const f = (a: Tensor) => {
      const { U, S, Vh } = linalg.svd(a, { fullMatrices: false });
      return [matmul(U, Vh), matmul(mul(U, w), Vh), S];
    };
    for (const [m, n, b] of [[5, 3, []], [3, 3, []], [3, 5, []], [4, 3, [2]]] as [number, number, number[]][]) {
      for (const dt of DTS) gradcheck(f, [withSpectrum(m, n, [3, 2, 1], dt, 30 + m + n, b)]);
    }
  });

  it('fullMatrices: the extra columns of U / rows of Vh get no gradient (torch); the rest is exact', () => {
    for (const dt of DTS) {
      for (const [m, n] of [[5, 3], [3, 5]]) {
        const f = (a: Tensor) => {
          const { U, S, Vh } = linalg.svd(a);
          const Uk = matmul(U, tensor(Array.from({ length: m }, (_, i) => [0, 1, 2].map((j) => (i === j ? 1 : 0)))));
          const Vk = matmul(tensor(Array.from({ length: 3 }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)))), Vh);
          return [matmul(mul(Uk, tensor([1, -2, 0.5])), Vk), S];
        };
        gradcheck(f, [withSpectrum(m, n, [3, 2, 1], dt, 40 + m)]);
        // the columns past k carry nothing
        const A = withSpectrum(m, n, [3, 2, 1], dt, 41);
        const { pullback, value } = vjp((a: Tensor) => linalg.svd(a), A);
        const gU = zeros([m, m], { dtype: dt }), ud = gU.dataSync() as Float64Array;
        const c = dt === 'complex128' ? 2 : 1;
        for (let i = 0; i < m; i++) for (let j = 3; j < m; j++) ud[(i * m + j) * c] = 1;
        const [g] = pullback({ U: gU, S: null, Vh: null });
        expect(Math.max(...Array.from(g.dataSync() as Float64Array, Math.abs))).toBe(0);
        void value;
      }
    }
  });

  it('svdEx has the same rule', () => {
    gradcheck((a) => { const r = linalg.svdEx(a, { fullMatrices: false }); return [r.S, matmul(r.U, r.Vh)]; },
      [withSpectrum(4, 3, [3, 2, 1], 'complex128', 50)]);
  });

  it('complex: a loss that depends on the phases of U (gauge) is an ArgumentError', () => {
    const A = withSpectrum(4, 3, [3, 2, 1], 'complex128', 51);
    const { pullback } = vjp((a: Tensor) => linalg.svd(a, { fullMatrices: false }).U, A);
    const W = rnd([4, 3], 'complex128', 52);
    expect(() => pullback(W)).toThrow(ArgumentError);
    expect(() => pullback(W)).toThrow(/svd: the loss depends on the phases/);
    // batched: the message names the batch element
    const Ab = withSpectrum(3, 3, [3, 2, 1], 'complex128', 53, [2]);
    const pb = vjp((a: Tensor) => linalg.svd(a, { fullMatrices: false }).Vh, Ab).pullback;
    expect(() => pb(rnd([2, 3, 3], 'complex128', 54))).toThrow(/batch element 0/);
    // a gauge-invariant loss that barely moves (‖U·diag(w)·Vh‖_F = ‖w‖) is not refused: its gradient is ~0
    const [g0] = grad((a: Tensor) => {
      const { U, Vh } = linalg.svd(a, { fullMatrices: false });
      return linalg.norm(matmul(mul(U, tensor([1, 2, 3])), Vh), 'fro');
    })(A);
    expect(Math.max(...Array.from(g0.dataSync() as Float64Array, Math.abs))).toBeLessThan(1e-12);
  });

  it('repeated singular values: a loss on the free vectors is a LinAlgError; on S or on other vectors it is exact', () => {
    for (const dt of DTS) {
      const A = withSpectrum(4, 4, [3, 1, 1, 0.5], dt, 60); // σ₂ = σ₃ (to rounding)
      const fUV = (a: Tensor) => { const { U, Vh } = linalg.svd(a, { fullMatrices: false }); return matmul(mul(U, tensor([1, 2, 3, 4])), Vh); };
      const pb = vjp(fUV, A).pullback;
      expect(() => pb(rnd([4, 4], dt, 61))).toThrow(LinAlgError);
      expect(() => pb(rnd([4, 4], dt, 61))).toThrow(/svd: the gradient through U or Vh is undefined: two singular values coincide/);
      // u₁ alone (through U·e₁ and e₁ᵀ·Vh) is separated from the repeated pair: defined and exact;
      // so is σ₂ + σ₃ (a cluster's sum is smooth where its members are not)
      const f1 = (a: Tensor) => {
        const { U, S, Vh } = linalg.svd(a, { fullMatrices: false });
        return [matmul(matmul(U, pick(4, 0)), matmul(pick(4, 0).mT, Vh)), matmul(S, tensor([0.3, 1, 1, -0.7]))];
      };
      gradcheck(f1, [A]);
    }
  });

  it('a zero singular value of a tall A: a loss on its free left vector is a LinAlgError, on σ₁, σ₂ it is exact', () => {
    for (const dt of DTS) {
      const A = withSpectrum(5, 3, [3, 2, 0], dt, 62);
      // U·diag(w)·Vh is gauge-invariant, and moves u₃, which is free when σ₃ = 0
      const fw = (a: Tensor) => { const { U, Vh } = linalg.svd(a, { fullMatrices: false }); return matmul(mul(U, tensor([1, 2, 3])), Vh); };
      const pb = vjp(fw, A).pullback;
      expect(() => pb(rnd([5, 3], dt, 63))).toThrow(LinAlgError);
      // σ₃ = 0 is a kink (σ = |·| there): the smooth σ₁, σ₂
      gradcheck((a) => matmul(linalg.svd(a, { fullMatrices: false }).S, tensor([0.5, -1, 0])), [A]);
    }
  });

  it('svdvals: real and complex, tall, wide, batched; U·diag(ḡ)·Vh', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.svdvals(a), [withSpectrum(5, 3, [3, 2, 1], dt, 70)]);
      gradcheck((a) => linalg.svdvals(a), [withSpectrum(3, 5, [3, 2, 1], dt, 71)]);
      gradcheck((a) => linalg.svdvals(a), [withSpectrum(3, 3, [3, 2, 1], dt, 72, [2])]);
    }
  });

  it('svdvals at repeated values: sum(σ) (the nuclear norm, differentiable at full rank) is exact', () => {
    const A = withSpectrum(3, 3, [2, 2, 1], 'float64', 73);
    gradcheck((a) => sum(linalg.svdvals(a)), [A]);
  });
});

describe('pinv gradients', () => {
  it('full rank: tall, square, wide, batched, real and complex', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.pinv(a), [withSpectrum(5, 3, [3, 2, 1], dt, 80)]);
      gradcheck((a) => linalg.pinv(a), [withSpectrum(3, 5, [3, 2, 1], dt, 81)]);
      gradcheck((a) => linalg.pinv(a), [withSpectrum(3, 3, [3, 2, 1], dt, 82, [2])]);
    }
  });

  it('rank-deficient along rank-preserving directions: A = X·Y, differentiated in X and Y', () => {
    // FD of pinv at a rank-r point is only defined along directions that keep the rank r:
    // A = X·Y with X (m×r), Y (r×n) moves only on the rank-r manifold
    for (const dt of DTS) {
      for (const [m, n, r] of [[5, 4, 2], [3, 5, 2], [4, 4, 1]]) {
        gradcheck((x, y) => linalg.pinv(matmul(x, y)), [rnd([m, r], dt, 90 + m), rnd([r, n], dt, 91 + n)]);
      }
    }
  });

  it('atol / rtol that drop a singular value that is not negligible: exact (through the SVD; torch\'s formula is not)', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.pinv(a, { rtol: 0.5 }), [withSpectrum(4, 3, [3, 2, 1], dt, 96)]);
      gradcheck((a) => linalg.pinv(a, { atol: 1.5 }), [withSpectrum(3, 5, [3, 2, 1], dt, 97, [2])]);
      gradcheck((a) => linalg.pinv(a, { rtol: 0.4, hermitian: true }), [withSpectrum(3, 3, [3, 2, 1], dt, 98)]);
      // an explicit threshold that drops only rounding-level values: the fixed-rank formula
      gradcheck((x, y) => linalg.pinv(matmul(x, y), { rtol: 1e-10 }), [rnd([4, 2], dt, 99), rnd([2, 3], dt, 100)]);
      gradcheck((a, b) => linalg.lstsq(a, b, { rcond: 0.5 }).solution, [withSpectrum(5, 3, [3, 2, 1], dt, 101), rnd([5, 2], dt, 102)]);
    }
  });

  it('hermitian: the gradient flows to the lower triangle read (real diagonal)', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.pinv(a, { hermitian: true }), [withSpectrum(3, 3, [3, 2, 1], dt, 95)]);
    }
  });
});

describe('lstsq gradients', () => {
  it('tall: solution, residuals and singularValues w.r.t. A and B, real and complex, batched and broadcast', () => {
    for (const dt of DTS) {
      const f = (a: Tensor, b: Tensor) => { const r = linalg.lstsq(a, b); return [r.solution, r.residuals, r.singularValues]; };
      gradcheck(f, [withSpectrum(5, 3, [3, 2, 1], dt, 100), rnd([5, 2], dt, 101)]);
      gradcheck(f, [withSpectrum(5, 3, [3, 2, 1], dt, 102, [2]), rnd([5, 2], dt, 103)]);
    }
  });

  it('wide (minimum-norm solution), vector B, driver gels', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => linalg.lstsq(a, b).solution, [withSpectrum(3, 5, [3, 2, 1], dt, 104), rnd([3, 2], dt, 105)]);
      gradcheck((a, b) => { const r = linalg.lstsq(a, b); return [r.solution, r.residuals]; },
        [withSpectrum(4, 3, [3, 2, 1], dt, 106), rnd([4], dt, 107)]);
      gradcheck((a, b) => linalg.lstsq(a, b, { driver: 'gels' }).solution, [withSpectrum(5, 3, [3, 2, 1], dt, 108), rnd([5, 2], dt, 109)]);
    }
  });

  it('rank-deficient A = X·Y (rank preserved): the minimum-norm solution w.r.t. X, Y and B', () => {
    for (const dt of DTS) {
      gradcheck((x, y, b) => linalg.lstsq(matmul(x, y), b).solution, [rnd([5, 2], dt, 110), rnd([2, 3], dt, 111), rnd([5, 2], dt, 112)]);
    }
  });
});

describe('norm gradients', () => {
  it('vector orders (every p), along a dim, keepdim, flattened default, real and complex', () => {
    for (const dt of DTS) {
      const x = rnd([3, 4], dt, 120);
      for (const p of [1, 2, 3, 1.5, 0.5, -1, -2.5, Infinity, -Infinity, 0]) {
        gradcheck((a) => linalg.norm(a, p, { dim: 1 }), [x]);
        gradcheck((a) => linalg.norm(a, p, { dim: 0, keepdim: true }), [x]);
      }
      gradcheck((a) => linalg.norm(a), [rnd([2, 3, 2], dt, 121)]);
      gradcheck((a) => linalg.norm(a, 3), [rnd([5], dt, 122)]);
    }
  });

  it("matrix orders 'fro', 'nuc', ±1, ±2, ±Infinity: 2-D, batched over any dim pair, keepdim", () => {
    for (const dt of DTS) {
      const A = withSpectrum(4, 3, [3, 2, 1], dt, 130);
      const B = withSpectrum(3, 4, [3, 2, 1], dt, 131, [2]);
      for (const ord of ['fro', 'nuc', 1, -1, 2, -2, Infinity, -Infinity] as const) {
        gradcheck((a) => linalg.norm(a, ord), [A]);
        gradcheck((a) => linalg.norm(a, ord, { dim: [-2, -1] }), [B]);
        gradcheck((a) => linalg.norm(a, ord, { dim: [2, 0], keepdim: true }), [B]);
      }
    }
  });

  it('zero vector / matrix: the subgradient 0 (torch)', () => {
    for (const dt of DTS) {
      const z = zeros([2, 3], { dtype: dt });
      for (const p of [2, 1, 3, 0.5, Infinity]) {
        const [g] = grad((a: Tensor) => sum(linalg.norm(a, p, { dim: 1 })))(z);
        expect(Array.from(g.dataSync() as Float64Array).every((v) => v === 0)).toBe(true);
      }
      for (const ord of ['fro', 1, Infinity] as const) {
        const [g] = grad((a: Tensor) => linalg.norm(a, ord))(z);
        expect(Array.from(g.dataSync() as Float64Array).every((v) => v === 0)).toBe(true);
      }
    }
  });
});

describe('cond gradients', () => {
  it("a singular A: p = 2 gives Inf/NaN or the 1/σ_k² of a rounding-level σ_k; other orders a LinAlgError naming cond", () => {
    const A = tensor([[1, 2], [2, 4]]);
    const [g] = grad((a: Tensor) => linalg.cond(a))(A);
    // σ₂ comes out 0 or within eps·σ₁ of it (5·2⁻⁵² here): the gradient σ₁/σ₂² is then above 1e29.
    expect(Array.from(g.dataSync() as Float64Array).some((v) => !Number.isFinite(v) || Math.abs(v) > 1e29)).toBe(true);
    expect(() => grad((a: Tensor) => linalg.cond(a, 'fro'))(A)).toThrow(/cond: the gradient of cond\(A, fro\) needs a non-singular A/);
  });

  it('p = 2 / −2 (σ₁/σ_k): tall, wide, square, batched, real and complex', () => {
    for (const dt of DTS) {
      for (const p of [undefined, 2, -2] as const) {
        gradcheck((a) => linalg.cond(a, p), [withSpectrum(5, 3, [3, 2, 1], dt, 140)]);
        gradcheck((a) => linalg.cond(a, p), [withSpectrum(3, 4, [3, 2, 1], dt, 141, [2])]);
      }
    }
  });

  it("other orders through norm and inv: 'fro', 'nuc', ±1, ±Infinity", () => {
    for (const dt of DTS) {
      for (const p of ['fro', 'nuc', 1, -1, Infinity, -Infinity] as const) {
        gradcheck((a) => linalg.cond(a, p), [withSpectrum(3, 3, [3, 2, 1], dt, 150, [2])]);
      }
    }
  });
});

describe('second derivatives (the rules are public ops, recorded by an outer tape)', () => {
  it('gradcheck of the gradient: qr, svdvals, pinv, norm nuc, cond, svd, lstsq', () => {
    for (const dt of DTS) {
      const A = withSpectrum(4, 3, [3, 2, 1], dt, 160);
      const W = rnd([4, 3], dt, 161);
      const inner = (f: (b: Tensor) => Tensor) => (a: Tensor) => grad((b: Tensor) => f(b))(a)[0];
      const re = (t: Tensor) => (t.dtype === 'complex128' ? linalg.norm(t, 'fro') : sum(t));
      gradcheck(inner((b) => re(mul(linalg.qr(b).R, linalg.qr(b).R))), [A], { rtol: 1e-5 });
      gradcheck(inner((b) => sum(mul(linalg.svdvals(b), linalg.svdvals(b)))), [A], { rtol: 1e-5 });
      gradcheck(inner((b) => linalg.norm(mul(linalg.pinv(b), W.mT), 'fro')), [A], { rtol: 1e-5 });
      gradcheck(inner((b) => linalg.norm(b, 'nuc')), [A], { rtol: 1e-5 });
      gradcheck(inner((b) => linalg.cond(b)), [A], { rtol: 1e-5 });
      gradcheck(inner((b) => {
        const { U, S, Vh } = linalg.svd(b, { fullMatrices: false });
        // the 1-norm: ‖U·diag(w)·Vh‖_F would be ‖w‖, a constant
        return add(linalg.norm(matmul(mul(U, tensor([1, 2, 3])), Vh), 1), sum(mul(S, S)));
      }), [A], { rtol: 1e-5 });
      gradcheck(inner((b) => linalg.norm(linalg.lstsq(b, W).solution, 'fro')), [A], { rtol: 1e-5 });
    }
  });
});

describe('property: gradcheck over random shapes and batches (suite seed, LAPIS_FC_SEED)', () => {
  const OPS: Record<string, (a: Tensor, b: Tensor) => unknown> = {
    qr: (a) => linalg.qr(a),
    svd: (a) => {
      const { U, S, Vh } = linalg.svd(a, { fullMatrices: false });
      const k = S.shape[S.ndim - 1];
      return [matmul(mul(U, tensor([1, -0.6, 0.3, 0.8].slice(0, k))), Vh), S];
    },
    svdvals: (a) => linalg.svdvals(a),
    pinv: (a) => linalg.pinv(a),
    lstsq: (a, b) => linalg.lstsq(a, b).solution,
    'norm nuc': (a) => linalg.norm(a, 'nuc', { dim: [-2, -1] }),
    'norm 1': (a) => linalg.norm(a, 1, { dim: [-2, -1] }),
    cond: (a) => linalg.cond(a),
  };
  it('qr, svd, svdvals, pinv, lstsq, norm, cond: m, n in 1..4, batch [] or [2], real and complex', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.boolean(),
      fc.constantFrom<Dt>('float64', 'complex128'), fc.constantFrom(...Object.keys(OPS)), fc.integer({ min: 1, max: 10_000 }),
      (m, n, batched, dt, op, seed) => {
        const k = Math.min(m, n);
        // well separated: σ = 1 + 0.7·(k − 1 − i)
        const A = withSpectrum(m, n, Array.from({ length: k }, (_, i) => 1 + 0.7 * (k - 1 - i)), dt, seed, batched ? [2] : []);
        const B = rnd([m, 2], dt, seed + 7);
        const f = OPS[op];
        gradcheck((a, b) => f(a, b), [A, B], { check: op === 'lstsq' ? [0, 1] : [0] });
      },
    ), { numRuns: 20 });
  });
});
