// Elementwise special functions (torch.special / torch semantics). `frexp`, `heaviside`
// and `logspace` are also exported at the top level, as in torch.
export { frexp } from './frexp.js';
export { heaviside } from './heaviside.js';
export { laguerrePolynomialL } from './laguerre.js';
export { logspace, type LogspaceOptions } from './logspace.js';
