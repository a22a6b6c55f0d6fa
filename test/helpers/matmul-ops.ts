// The op pairs of linalg.matmul's transpose/adjoint options (test/core and test/gpu matmul-transpose).
import type { MatmulOptions, MatmulOp } from '../../src/linalg/matmul.js';

/** An operand's op in a product: as stored, transposed, or adjoint (conjugate transpose). */
export type Op = MatmulOp;
export const OPS: Op[] = ['N', 'T', 'H'];

/** The matmul options that read A as opA and B as opB. */
export function optsOf(opA: Op, opB: Op): MatmulOptions {
  const o: MatmulOptions = {};
  if (opA === 'T') o.transposeA = true;
  if (opA === 'H') o.adjointA = true;
  if (opB === 'T') o.transposeB = true;
  if (opB === 'H') o.adjointB = true;
  return o;
}
