// The contract between public functions (src/linalg, src/special, src/gdn) and backend
// implementations: for each registry op, the signature every (dtype, device) entry has.
// Public functions validate, broadcast (BatchPlan), then call lookup(op, dtype, device)
// and one of these. Implementations return tensors on the device they were given.
import type { Tensor } from '../core/tensor.js';
import type { BatchPlan } from '../core/batch.js';
import type { ElementwiseLayout } from '../core/broadcast.js';
import type { DType } from '../core/dtype.js';

/** Per-matrix LAPACK status: int32 tensor of the batch shape, on the op's device. */
export type InfoTensor = Tensor<'int32'>;

export interface OpSignatures {
  /** Host → GPU copy (GPU backend). */
  upload: (t: Tensor) => Tensor;
  /** GPU → host copy into a new typed array. */
  download: (t: Tensor) => Promise<Float32Array | Float64Array | Int32Array>;
  /** Same buffer, new shape (GPU tensors; CPU reshape is a view). */
  reshape: (t: Tensor, shape: readonly number[]) => Tensor;
  /** Batched matrix transpose (conj = adjoint) of the last two dims, new tensor. */
  transpose: (A: Tensor, conj: boolean) => Tensor;
  /** C = A·B over a broadcast batch; A (…, m, k), B (…, k, n). */
  matmul: (A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number) => Tensor;

  /** Partial-pivoted LU of (…, m, n); pivots (…, min(m,n)) 1-based as LAPACK/torch. */
  luFactor: (A: Tensor) => { LU: Tensor; pivots: Tensor<'int32'>; info: InfoTensor };
  /** Solve with a factorization; plan maps LU's batch (a) and B's batch (b). B is (…, n, k). */
  luSolve: (LU: Tensor, pivots: Tensor<'int32'>, B: Tensor, plan: BatchPlan, adjoint: boolean) => Tensor;
  /** A·X = B for square A (…, n, n), B (…, n, k). */
  solve: (A: Tensor, B: Tensor, plan: BatchPlan) => { X: Tensor; info: InfoTensor };
  /**
   * op(A)·X = B with A triangular (only the named triangle read); left side only. With
   * `info: true`, also trtrs's status per output matrix (first exactly zero diagonal
   * entry, 1-based; X is NaN there; all 0 when unitriangular), else info is null and
   * nothing beyond the solve runs (the GDN path).
   */
  solveTriangular: (
    A: Tensor, B: Tensor, plan: BatchPlan, opts: { upper: boolean; unitriangular: boolean; info?: boolean },
  ) => { X: Tensor; info: InfoTensor | null };
  /** Batched inverse of (…, n, n). */
  inv: (A: Tensor) => { X: Tensor; info: InfoTensor };

  /** P (…, m, m), L (…, m, k), U (…, k, n) from a factorization of (…, m, n), k = min(m, n). */
  luUnpack: (LU: Tensor, pivots: Tensor<'int32'>) => { P: Tensor; L: Tensor; U: Tensor };
  /** Determinants of (…, n, n): a tensor of the batch shape (NaN for non-finite input). */
  det: (A: Tensor) => Tensor;
  /** sign (the dtype; unit complex for complex) and log|det| (the real dtype), batch shape. */
  slogdet: (A: Tensor) => { sign: Tensor; logabsdet: Tensor };
  /** Off-the-JS-thread variants (CPU): same results as the synchronous ops. */
  luFactorAsync: (A: Tensor) => Promise<{ LU: Tensor; pivots: Tensor<'int32'>; info: InfoTensor }>;
  solveAsync: (A: Tensor, B: Tensor, plan: BatchPlan) => Promise<{ X: Tensor; info: InfoTensor }>;
  invAsync: (A: Tensor) => Promise<{ X: Tensor; info: InfoTensor }>;
  /** Householder QR of (…, m, n); mode 'r' gives Q = null (R only). */
  qr: (A: Tensor, mode: 'reduced' | 'complete' | 'r') => { Q: Tensor | null; R: Tensor };
  /**
   * SVD of (…, m, n): S real (…, k) descending and non-negative; U and Vh are null unless
   * computeUV. info per matrix: 0 ok, -1 NaN/Inf in A (outputs NaN), k > 0 no convergence.
   */
  svd: (
    A: Tensor, opts: { computeUV: boolean; fullMatrices: boolean },
  ) => { U: Tensor | null; S: Tensor; Vh: Tensor | null; info: InfoTensor };

  /** x = mantissa · 2^exponent elementwise (exponent int32, same shape as x). */
  frexp: (x: Tensor) => { mantissa: Tensor; exponent: Tensor<'int32'> };
  /** 0 / values / 1 for x < 0 / x == 0 / x > 0 over a broadcast layout. */
  heaviside: (x: Tensor, values: Tensor, layout: ElementwiseLayout) => Tensor;
  /** Lₙ(x) over a broadcast layout; n already converted to x's dtype. */
  laguerrePolynomialL: (x: Tensor, n: Tensor, layout: ElementwiseLayout) => Tensor;
  /** base^linspace(start, end, steps), registered per output dtype (int32 included). */
  logspace: (steps: number, start: number, end: number, base: number, dtype: DType) => Tensor;
}

export type OpName = keyof OpSignatures;
