// Reverse-mode automatic differentiation (docs/autodiff.md): the API, and the backward rules
// registered for the public functions at import.
import './rules/elementwise.js';
import './rules/reduce.js';
import './rules/indexing.js';
import './rules/linalg-solve.js';
import './rules/linalg-decomp.js';
import './rules/special.js';
import './rules/gdn.js';

export { grad, valueAndGrad, vjp, stopGradient, type GradOptions, type ValueAndGrad, type Cotangent } from './api.js';
