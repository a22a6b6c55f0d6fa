import { registerAll } from './backend/registerAll.js';

export { Tensor, type GpuStorage, type NestedArray } from './core/tensor.js';
export { tensor, zeros, eye, randn, Rng, type TensorLike, type CreateOptions } from './core/create.js';
export {
  toMlMatrix, type MlMatrixLike, type MathjsMatrixLike, type StridedLike, type NumericTypedArray,
} from './core/interop.js';
export type { DType, Device, FloatDType, RealDType, ComplexDType } from './core/dtype.js';
export { ShapeError, DTypeError, DeviceError, LinAlgError, ArgumentError } from './core/errors.js';
export { Complex, fromMathjs, toMathjs, type ComplexLike } from './complex/index.js';
export { numThreads, setNumThreads, gemmKernel, cpuPeakFlops, cpuBackend } from './backend/cpu/binding.js';
export type { CpuBackendName } from './backend/cpu/load.js';
export * as linalg from './linalg/index.js';
export * as gpu from './backend/gpu/api.js';
export { frexp, heaviside, logspace, type LogspaceOptions } from './special/index.js';
export * as special from './special/index.js';
export * as gdn from './gdn/index.js';
export * from './ops/index.js';
export { grad, valueAndGrad, vjp, stopGradient, type GradOptions, type ValueAndGrad, type Cotangent } from './autodiff/index.js';

// The package entry fills the registry (once) for every public function above.
registerAll();
