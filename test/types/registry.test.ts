// tsc checks every registry entry against src/backend/ops.ts: an implementation whose
// signature differs from OpSignatures[op], an unknown op name, or a lookup used as another
// op's signature do not compile (`npx tsc -p .ci/tsconfig.tests.json` fails if any line
// marked as an expected error below stops being one). compileTimeChecks is type-checked,
// never run; the runtime part checks the registry returns what was registered.
import { describe, it, expect } from 'vitest';
import { Tensor } from '../../src/index.js';
import { Registry } from '../../src/backend/registry.js';
import type { OpSignatures } from '../../src/backend/ops.js';
import type { BatchPlan } from '../../src/core/batch.js';

const r = new Registry();
const info = (shape: number[]) => Tensor.empty('int32', shape) as Tensor<'int32'>;
const det: OpSignatures['det'] = (A) => Tensor.empty(A.dtype, A.batchShape);
const inv = (A: Tensor) => ({ X: A, info: info(A.batchShape) });

r.register('det', ['float64'], 'cpu', det);
r.register('inv', ['float64'], 'cpu', inv);

// Type-checked only: calling it would register the wrong entries.
export function compileTimeChecks(): void {
  // @ts-expect-error: det returns a Tensor, not { X, info }
  r.register('det', ['float64'], 'cpu', inv);
  // @ts-expect-error: matmul is synchronous; an async implementation returns a Promise
  r.register('matmul', ['float64'], 'cpu', async (A: Tensor) => A);
  // @ts-expect-error: matmul's m, k, n are numbers
  r.register('matmul', ['float64'], 'cpu', (A: Tensor, B: Tensor, plan: BatchPlan, m: string) => A.reshape([m.length]));
  // @ts-expect-error: luSolve's adjoint is a boolean, not a number
  r.register('luSolve', ['float64'], 'cpu', (LU: Tensor, p: Tensor<'int32'>, B: Tensor, plan: BatchPlan, adjoint: number) => B);
  // @ts-expect-error: an op name that ops.ts does not declare
  r.register('choleskyFactor', ['float64'], 'cpu', det);
  // @ts-expect-error: lookup of an unknown op name
  r.lookup('choleskyFactor', 'float64', 'cpu');
  // @ts-expect-error: a looked-up det is (A) => Tensor: no second argument
  r.lookup('det', 'float64', 'cpu')(Tensor.empty('float64', [2, 2]), true);
  // @ts-expect-error: lookup('inv') gives { X, info }, not a Tensor
  const notATensor: Tensor = r.lookup('inv', 'float64', 'cpu')(Tensor.empty('float64', [2, 2]));
  void notATensor;
  // @ts-expect-error: has() is typed by the op names too
  r.has('choleskyFactor', 'float64', 'cpu');
}

describe('registry types', () => {
  it('entries come back as registered, per (op, dtype, device) (wrapped once to name out of memory)', () => {
    expect(r.lookup('det', 'float64', 'cpu')).toBe(r.lookup('det', 'float64', 'cpu'));
    expect(r.lookup('det', 'float64', 'cpu')).not.toBe(r.lookup('inv', 'float64', 'cpu'));
    const A = Tensor.empty('float64', [3, 2, 2]);
    expect(r.lookup('inv', 'float64', 'cpu')(A).X).toBe(A);
    expect(r.lookup('det', 'float64', 'cpu')(A).shape).toEqual([3]);
    expect(r.entries().map((e) => `${e.op} ${e.dtype} ${e.device}`).sort()).toEqual(['det float64 cpu', 'inv float64 cpu']);
  });
});
