// The contract between public functions (src/linalg, src/special, src/gdn) and backend
// implementations: for each registry op, the signature every (dtype, device) entry has.
// Public functions validate, broadcast (BatchPlan), then call lookup(op, dtype, device)
// and one of these. Implementations return tensors on the device they were given.
import type { Tensor } from '../core/tensor.js';
import type { BatchPlan } from '../core/batch.js';
import type { ElementwiseLayout, ElementwiseLayoutN } from '../core/broadcast.js';
import type { AnyStorage, DType } from '../core/dtype.js';

/** How a matmul entry reads an operand: 0 as stored, 1 transposed, 2 conjugate-transposed. */
export type MatOp = 0 | 1 | 2;

/** Per-matrix LAPACK status: int32 tensor of the batch shape, on the op's device. */
export type InfoTensor = Tensor<'int32'>;

export interface OpSignatures {
  /** Host → GPU copy (GPU backend). */
  upload: (t: Tensor) => Tensor;
  /** GPU → host copy into a new typed array. */
  download: (t: Tensor) => Promise<AnyStorage>;
  /** Same buffer, new shape (GPU tensors; CPU reshape is a view). */
  reshape: (t: Tensor, shape: readonly number[]) => Tensor;
  /** Batched matrix transpose (conj = adjoint) of the last two dims, new tensor. */
  transpose: (A: Tensor, conj: boolean) => Tensor;
  /**
   * C = op(A)·op(B) over a broadcast batch; op(A) is m×k, op(B) k×n. `opA`/`opB` (default 0):
   * 0 = the operand as stored, 1 = its transpose, 2 = its conjugate transpose, so A is stored
   * (…, m, k) for 0 and (…, k, m) otherwise, B (…, k, n) for 0 and (…, n, k) otherwise.
   * `out` (checked by the caller: A's dtype and device, count·m·n elements, any shape): C is
   * written into its storage and `out` returned; it may share storage with A or B (the entry
   * then computes apart and copies).
   */
  matmul: (
    A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number, out?: Tensor, opA?: MatOp, opB?: MatOp,
  ) => Tensor;

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

  // ---- The tensor API (src/ops): elementwise, reductions, indexing. Tensors are dense and
  // row-major; these entries take contiguous inputs and return new contiguous tensors.
  /**
   * x converted to `to` (registered per source dtype): real → complex sets im = 0; float →
   * integer truncates toward zero, NaN → 0, saturating at the range ends; → bool is x ≠ 0
   * (complex: re ≠ 0 or im ≠ 0); bool → 0/1. complex → real is refused by the caller.
   */
  cast: (x: Tensor, to: DType) => Tensor;
  /**
   * Elementwise unary op on x's dtype (the caller has promoted: sqrt of int32 arrives as
   * float32). Output dtype: unaryOutDtype(op, x.dtype) (src/backend/ops.ts). `out`: written
   * and returned instead of a new tensor (the caller checked its device, dtype and shape); it
   * may share x's storage (in place).
   */
  unary: (x: Tensor, op: UnaryOp, out?: Tensor) => Tensor;
  /**
   * a ∘ b over a broadcast layout; a and b have one dtype (the caller promoted). Output dtype:
   * binaryOutDtype(op, dtype): bool for comparisons and logical ops, else the input dtype.
   * `out` as for unary (it may share a's or b's storage).
   */
  binary: (a: Tensor, b: Tensor, op: BinaryOp, layout: ElementwiseLayout, out?: Tensor) => Tensor;
  /** cond ? a : b over a 3-operand broadcast layout; cond is bool, a and b one dtype (registered per a's dtype). */
  where: (cond: Tensor<'bool'>, a: Tensor, b: Tensor, layout: ElementwiseLayoutN) => Tensor;
  /**
   * Reduces `dims` (sorted, unique, non-negative; all dims for a full reduction) of x, dims
   * dropped or kept as 1. Output dtype: reduceOutDtype(op, x.dtype). sum/prod accumulate
   * pairwise (float32: in float32 with pairwise/compensated sums); max/min propagate NaN.
   */
  reduce: (x: Tensor, op: ReduceOp, dims: readonly number[], keepDims: boolean) => Tensor;
  /**
   * max or min along one dim with the index of the first extremum (NaN counts as the
   * extremum, numpy's rule); values keep x's dtype (real dtypes and integral), indices int32.
   */
  argReduce: (x: Tensor, op: 'max' | 'min', dim: number, keepDims: boolean) => { values: Tensor; indices: Tensor<'int32'> };
  /**
   * A new contiguous tensor of view.shape: out[i…] = x.flat[view.offset + Σ i_d·view.strides[d]]
   * (element units, strides may be 0 or negative; the caller checked every reachable offset
   * is inside x). conj: complex conjugate on the way (mH). Transpose, permute, slice,
   * diagonal, expand and split are all this op.
   */
  stridedCopy: (x: Tensor, view: StridedView, conj: boolean) => Tensor;
  /** triu (upper) or tril of the last two dims: entries with j − i < k (upper) or j − i > k (lower) set to 0. */
  triangle: (x: Tensor, upper: boolean, k: number) => Tensor;
  /** Concatenation along `dim` of tensors of one dtype and device whose other dims agree (checked by the caller). */
  concat: (xs: readonly Tensor[], dim: number) => Tensor;
  /**
   * Flat gather: out (index's shape) = x.flat[index], int32 indices already normalised to
   * [0, x.size) by the caller on the CPU; the GPU entry wraps indices in [−x.size, 0) and checks
   * bounds itself (a deferred ArgumentError at the first read, output 0 there) since it cannot
   * read the indices synchronously; it also takes a uint32 index tensor as unsigned (pass it
   * uncast: a cast to int32 turns 2^32 − 1 into −1).
   */
  take: (x: Tensor, index: Tensor<'int32'>) => Tensor;
  /**
   * A copy of x with x.flat[index[i]] = values[i] (accumulate: += values[i], every duplicate
   * counted); index and values have one size (values already broadcast). Bounds as for take.
   */
  put: (x: Tensor, index: Tensor<'int32'>, values: Tensor, accumulate: boolean) => Tensor;

  // Composite ops: entries may compose other registry ops (lookup on their own device).
  /**
   * Moore–Penrose pseudo-inverse (…, n, m) of (…, m, n) from the SVD; singular values at or
   * below the rank threshold are dropped. info: the SVD's status per matrix (X is NaN where
   * it is non-zero); the public function raises for info > 0.
   */
  pinv: (A: Tensor, tol: RankTolerance) => { X: Tensor; info: InfoTensor };
  /** Singular values above the rank threshold, int32 of the batch shape, and the SVD status. */
  matrixRank: (A: Tensor, tol: RankTolerance) => { rank: Tensor<'int32'>; info: InfoTensor };
  /**
   * Least squares, A (…, m, n) and B (…, m, k) of one dtype over plan's broadcast batch, with
   * gelsd-style power-of-two scaling. driver 'gelsd': minimum norm through the SVD; rtol:
   * singular values ≤ rtol·σ_max count as zero; info: A's SVD status (the solution is NaN
   * where non-zero). driver 'gels': QR for full-rank A (tall: R⁻¹·Qᴴ·B, wide: the minimum-norm
   * Q·R⁻ᴴ·B from the QR of Aᴴ); info k > 0 where |r_kk| ≤ rtol·max|r_ii| (rank-deficient:
   * the public function throws), −1 for NaN/Inf; rank = min(m, n), singularValues empty [0].
   */
  lstsq: (A: Tensor, B: Tensor, plan: BatchPlan, rtol: number, driver: LstsqDriver) => LstsqOutput;
  /**
   * Vector p-norms (any p, ±Infinity, 0) over `dims` of x (all dims: the flattened norm), scaled so
   * 1e±300 entries neither over- nor underflow; the real dtype, dims dropped or kept as 1.
   */
  vectorNorm: (x: Tensor, ord: number, dims: readonly number[], keepdim: boolean) => Tensor;
  /** Matrix norms over the dims (row dim, column dim) of A; the real dtype. */
  matrixNorm: (A: Tensor, ord: MatrixNormOrd, dims: readonly [number, number], keepdim: boolean) => Tensor;
  /** Condition numbers of (…, m, n) (square for orders other than ±2), the batch shape, real dtype. */
  cond: (A: Tensor, ord: MatrixNormOrd) => Tensor;
  /**
   * T = (I + tril(A, −1))⁻¹ for A (…, C, C): only A's strict lower triangle is read (diagonal
   * and upper part may hold anything); T is unit lower triangular (exact ones on the diagonal,
   * zeros above), same shape and dtype.
   */
  invUnitLower: (A: Tensor) => Tensor;
  /**
   * Gated DeltaNet chunked forward (docs/gdn.md): o and the final state of every sequence, in
   * the plan's layout. status (plan.seqs, plan.vHeads) int32 on the op's device: 0 ok, 1 a
   * non-finite q/k/v/β/initial-state entry, 2 a log decay g that is > 0, NaN or −∞ (o and
   * the final state are NaN for that sequence and value head). No host reads on the GPU.
   * keep: the backend may return `saved`, stages gdnBackward can reuse instead of recomputing.
   */
  gdnForward: (x: GdnInputs, plan: GdnPlan, keep?: boolean) => { o: Tensor; finalState: Tensor; status: Tensor<'int32'>; saved?: GdnSaved };
  /**
   * One token of the recurrence for plan.seqs sequences (a decoding step): q, k (seqs, heads, dk),
   * v (seqs, vHeads, dv), beta, g (seqs, vHeads), state (seqs, vHeads, dk, dv) → o (seqs, vHeads, dv)
   * in the inputs' dtype and the new state (the state's dtype); status as gdnForward.
   */
  gdnRecurrentStep: (
    state: Tensor, q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, plan: GdnPlan,
  ) => { o: Tensor; state: Tensor; status: Tensor<'int32'> };
  /**
   * Gradients of Σ dO ⊙ o + Σ dFinal ⊙ finalState of the chunked forward with respect to q, k,
   * v, beta, g (each in its input's shape and dtype) and the initial state (null when none was
   * given); dFinal null means zero. status as gdnForward. saved: what gdnForward(…, keep)
   * returned for the same x and plan (the forward's stages are then not recomputed).
   */
  gdnBackward: (
    x: GdnInputs, dO: Tensor, dFinal: Tensor | null, plan: GdnPlan, saved?: GdnSaved,
  ) => { dq: Tensor; dk: Tensor; dv: Tensor; dbeta: Tensor; dg: Tensor; dInitialState: Tensor | null; status: Tensor<'int32'> };
}

/** A strided window on a contiguous tensor's flat storage, in elements (a complex number is one). */
export interface StridedView {
  shape: readonly number[];
  strides: readonly number[];
  offset: number;
}

/** Elementwise unary ops (registry op `unary`). */
export type UnaryOp =
  | 'neg' | 'abs' | 'sign' | 'sqrt' | 'exp' | 'log' | 'log1p' | 'expm1' | 'sin' | 'cos' | 'tanh' | 'sigmoid'
  | 'conj' | 'real' | 'imag' | 'angle' | 'logicalNot';
export const UNARY_OPS: readonly UnaryOp[] = [
  'neg', 'abs', 'sign', 'sqrt', 'exp', 'log', 'log1p', 'expm1', 'sin', 'cos', 'tanh', 'sigmoid',
  'conj', 'real', 'imag', 'angle', 'logicalNot',
];

/** Elementwise binary ops (registry op `binary`). */
export type BinaryOp =
  | 'add' | 'sub' | 'mul' | 'div' | 'pow' | 'minimum' | 'maximum'
  | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'logicalAnd' | 'logicalOr';
export const BINARY_OPS: readonly BinaryOp[] = [
  'add', 'sub', 'mul', 'div', 'pow', 'minimum', 'maximum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr',
];

/** Reductions (registry op `reduce`); mean is sum / count in the public function. */
export type ReduceOp = 'sum' | 'prod' | 'max' | 'min' | 'any' | 'all';

/** The dtype `unary` returns: real parts of complex for abs/real/imag/angle, bool for logicalNot. */
export function unaryOutDtype(op: UnaryOp, d: DType): DType {
  if (op === 'logicalNot') return 'bool';
  if (op === 'abs' || op === 'real' || op === 'imag' || op === 'angle') return d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d;
  return d;
}

/** The dtype `binary` returns: bool for comparisons and logical ops, else the operands' dtype. */
export function binaryOutDtype(op: BinaryOp, d: DType): DType {
  switch (op) {
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge': case 'logicalAnd': case 'logicalOr': return 'bool';
    default: return d;
  }
}

/** The dtype `reduce` returns: bool for any/all; int32 for sum/prod of bool; else x's dtype. */
export function reduceOutDtype(op: ReduceOp, d: DType): DType {
  if (op === 'any' || op === 'all') return 'bool';
  if ((op === 'sum' || op === 'prod') && d === 'bool') return 'int32';
  return d;
}

/** The rank threshold max(atol, rtol·σ_max) (torch's rule; rtol's default depends on atol). */
export interface RankTolerance {
  atol?: number;
  rtol?: number;
  /** A is Hermitian: only its lower triangle is read (square A, checked by the caller). */
  hermitian: boolean;
}

/** lstsq's drivers (torch's names): 'gelsd' the SVD (any rank, minimum norm), 'gels' QR (full rank). */
export type LstsqDriver = 'gelsd' | 'gels';

/** What `lstsq` entries return: linalg.lstsq's result plus the SVD (gelsd) or QR (gels) status. */
export interface LstsqOutput {
  /** (…, n, k) minimum-norm solution. */
  solution: Tensor;
  /**
   * (…, k) squared residual norms when m > n; else shape [0]. CPU gelsd: shape [0] too unless
   * every matrix has full rank; the GPU (which cannot read the ranks) always returns (…, k)
   * for m > n, NaN for matrices of rank < n.
   */
  residuals: Tensor;
  rank: Tensor<'int32'>;
  singularValues: Tensor;
  info: InfoTensor;
}

/** Matrix norm orders: 'fro', 'nuc', ±1, ±2, ±Infinity (TypeScript has no Infinity literal; norm/cond check). */
export type MatrixNormOrd = 'fro' | 'nuc' | number;

/** A backend's kept stages of a Gated DeltaNet forward (opaque to callers; freed at GC or by dispose). */
export interface GdnSaved {
  readonly backend: 'cpu' | 'gpu';
  dispose(): void;
}

/** The validated tensors of a Gated DeltaNet call (one device, one dtype; shapes per GdnPlan). */
export interface GdnInputs {
  q: Tensor;
  k: Tensor;
  v: Tensor;
  beta: Tensor;
  g: Tensor;
  /** (seqs, vHeads, dk, dv) or null (zeros). float32 when the inputs are float16. */
  initialState: Tensor | null;
}

/**
 * A Gated DeltaNet call, validated (src/gdn/plan.ts builds it). Token t of sequence n is at
 * time index seqStart[n] + t of batch row (varlen ? 0 : n). Value head hv reads q/k head
 * ⌊hv / (vHeads / heads)⌋. Element (b, time, head, d) of a q/k/v/o tensor is at
 * b·sB + time·sT + head·sH + d (strides from gdnStrides); beta/g likewise with d = 0, dim 1.
 */
export interface GdnPlan {
  dtype: 'float16' | 'float32' | 'float64';
  /** 'bthd': (batch, time, heads, dim) as flash-linear-attention; 'bhtd': (batch, heads, time, dim). */
  layout: 'bthd' | 'bhtd';
  batch: number;
  time: number;
  /** Query/key heads H. */
  heads: number;
  /** Value heads HV (a multiple of H; grouped value heads when larger). */
  vHeads: number;
  dk: number;
  dv: number;
  /** Number of sequences N: batch, or cuSeqlens.length − 1 (then batch is 1). */
  seqs: number;
  varlen: boolean;
  /** Per sequence: its first time index in its batch row (all 0 unless varlen) and its length. */
  seqStart: Int32Array;
  seqLen: Int32Array;
  chunk: 16 | 32 | 64;
  /** o_t = S_tᵀ·(scale·q_t). */
  scale: number;
  /** q and k divided by sqrt(Σx² + 1e-6) per token and head first (flash-linear-attention's l2norm). */
  qkL2norm: boolean;
}

export type OpName = keyof OpSignatures;
