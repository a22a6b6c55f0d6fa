import { LinAlgError } from './errors.js';
import type { Tensor } from './tensor.js';

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

/**
 * Throws the LinAlgError of the first failing batch element. `message(code)` says what a
 * code means, or null when it is not an error for this function. On the CPU the check
 * runs now; GPU results are not read here: the check is attached to the result tensors
 * and fires at their first read (`await X.data()`), as asynchronous GPU errors do.
 */
export function raiseOnInfo(
  info: Tensor<'int32'>, who: string, batched: boolean, message: (code: number) => string | null,
  results: readonly Tensor[] = [],
): void {
  const scan = (d: ArrayLike<number>): void => {
    for (let b = 0; b < d.length; b++) {
      const msg = message(d[b]);
      if (msg !== null) throw new LinAlgError(`${who}: ${batched ? `(batch element ${b}) ` : ''}${msg}`, b, d[b]);
    }
  };
  if (info.device === 'cpu') scan(info.dataSync());
  else for (const r of results) r.setCheck(async () => scan(await info.data()));
}
