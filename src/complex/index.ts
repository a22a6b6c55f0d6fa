export { Complex, isComplexLike, type ComplexLike } from './complex.js';
export { getComplex, setComplex, interleave, deinterleave } from './interleaved.js';
export { fromMathjs, toMathjs, type MathjsLike } from './mathjs.js';
