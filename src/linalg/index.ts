export { matmul } from './matmul.js';
export { qr } from './qr.js';
export { svd, svdEx, svdvals } from './svd.js';
export { luFactor, luFactorEx, luFactorAsync, lu, type LuFactorResult } from './lu.js';
export { luSolve, type LuSolveOptions } from './luSolve.js';
export { solveTriangular, type SolveTriangularOptions } from './solveTriangular.js';
export { solve, solveEx, solveAsync, type SolveOptions } from './solve.js';
export { inv, invEx, invAsync } from './inv.js';
export { det, slogdet } from './det.js';
