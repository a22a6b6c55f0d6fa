/**
 * The library's own `info` codes beside LAPACK's (0 ok; k > 0 the k-th pivot or diagonal
 * entry is exactly zero, or no convergence). docs/solvers.md has the table.
 */
export const INFO = {
  /** A holds NaN or Inf (solve, inv): the result is NaN. */
  NONFINITE_INPUT: -1,
  /**
   * luFactor: A is finite but its LU factors are not representable (an entry of U, or of
   * L through growth, overflows); the factors are returned as computed and are unusable.
   * solve, inv and det/slogdet equilibrate such matrices and are unaffected.
   */
  FACTOR_OVERFLOW: -2,
} as const;
