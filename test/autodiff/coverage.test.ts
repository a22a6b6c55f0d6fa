// Every public function is classified for differentiation: it has a gradient rule (and records
// under grad), its outputs are constants (integers, booleans, or no tensor input), it refuses a
// differentiated argument with a clear error, or it is not an op. A new export fails here until
// it is classified — so no function can silently return a constant where a gradient was expected.
import { describe, expect, it } from 'vitest';
import * as lapis from '../../src/index.js';
import { ruleNames } from '../../src/core/grad.js';
import { grad, sum, tensor, Tensor } from '../../src/index.js';

/** Exported name → the name its rule is registered under. */
const RULES: Record<string, string> = {
  tensor: 'tensor', frexp: 'frexp', heaviside: 'heaviside',
  'special.frexp': 'frexp', 'special.heaviside': 'heaviside', 'special.laguerrePolynomialL': 'laguerrePolynomialL',
  'gdn.chunkSolve': 'gdn.chunkSolve', 'gdn.invUnitLower': 'gdn.invUnitLower', 'gdn.chunkedForward': 'gdn.chunkedForward',
  'gdn.recurrentStep': 'gdn.recurrentStep',
};
for (const n of ['matmul', 'qr', 'svd', 'svdEx', 'svdvals', 'luFactor', 'luFactorEx', 'lu', 'luSolve', 'solveTriangular',
  'solveTriangularEx', 'solve', 'solveEx', 'inv', 'invEx', 'det', 'slogdet', 'pinv', 'lstsq', 'norm', 'cond']) RULES[`linalg.${n}`] = n;
for (const n of ['add', 'sub', 'mul', 'div', 'pow', 'minimum', 'maximum', 'neg', 'abs', 'sign', 'sqrt', 'exp', 'log', 'log1p',
  'expm1', 'sin', 'cos', 'tanh', 'sigmoid', 'conj', 'real', 'imag', 'angle', 'clamp', 'where', 'cast', 'sum', 'prod', 'mean',
  'max', 'min', 'maxWithIndices', 'minWithIndices', 'flatten', 'squeeze', 'unsqueeze', 'expand', 'broadcastTo', 'transpose',
  'permute', 'matrixTranspose', 'adjoint', 'diagonal', 'triu', 'tril', 'trace', 'slice', 'concat', 'stack', 'split', 'take',
  'put']) RULES[n] = n;

/** Outputs with no gradient: integer/bool results, or no tensor input. */
const CONSTANT = [
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'logicalNot', 'any', 'all', 'argmax', 'argmin',
  'linalg.matrixRank', 'zeros', 'eye', 'randn', 'logspace', 'special.logspace',
];
/** Refuse a differentiated argument (ArgumentError naming them). */
const REFUSED = ['linalg.luFactorAsync', 'linalg.solveAsync', 'linalg.invAsync', 'gdn.chunkedBackward'];
/** Not tensor ops. */
const OTHER = [
  'toMlMatrix', 'fromMathjs', 'toMathjs', 'numThreads', 'setNumThreads', 'gemmKernel', 'cpuBackend', 'cpuPeakFlops', 'gpu.init', 'gpu.info',
  'gpu.available', 'gpu.sync', 'gpu.memory', 'grad', 'valueAndGrad', 'vjp', 'stopGradient',
];

function publicFunctions(): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(lapis)) {
    if (typeof v === 'function' && !/^[A-Z]/.test(k)) out.push(k);
    else if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v)) if (typeof v2 === 'function' && !/^[A-Z]/.test(k2)) out.push(`${k}.${k2}`);
    }
  }
  return out;
}

describe('every public function is classified for differentiation', () => {
  it('each export is in exactly one class', () => {
    const classes = [Object.keys(RULES), CONSTANT, REFUSED, OTHER];
    for (const name of publicFunctions()) {
      const n = classes.filter((c) => c.includes(name)).length;
      expect(n, `${name}: classify it in test/autodiff/coverage.test.ts`).toBe(1);
    }
    for (const c of classes) for (const name of c) expect(publicFunctions(), name).toContain(name);
  });

  it('each function of the rule class has a registered rule', () => {
    const have = new Set(ruleNames());
    for (const [name, rule] of Object.entries(RULES)) expect(have.has(rule), `${name} → rule '${rule}'`).toBe(true);
    expect(have.has('reshape')).toBe(true);
  });

  it('constant-class functions give constants (a zero gradient, no error)', () => {
    const x = tensor([[1, -2], [3, 4]]);
    const [g] = grad((a: Tensor) => {
      const c = [lapis.gt(a, 0), lapis.argmax(a), lapis.any(a), lapis.linalg.matrixRank(a)];
      return sum(lapis.cast(c[0], 'float64'));
    })(x);
    expect(g.toArray()).toEqual([[0, 0], [0, 0]]);
  });

  it('refusing functions name themselves', async () => {
    const x = tensor([[2, 1], [1, 3]]);
    const calls: Array<[string, (a: Tensor) => Promise<unknown>]> = [
      ['solveAsync', (a) => lapis.linalg.solveAsync(a, a)], ['invAsync', (a) => lapis.linalg.invAsync(a)],
      ['luFactorAsync', (a) => lapis.linalg.luFactorAsync(a)],
    ];
    for (const [name, call] of calls) {
      let p: Promise<unknown> | undefined;
      grad((a: Tensor) => { p = call(a); return sum(a); })(x);
      await expect(p!, name).rejects.toThrow(new RegExp(`^${name}: .*not differentiable`));
      await expect(call(x), `${name} outside grad`).resolves.toBeDefined();
    }
    expect(() => grad((a: Tensor) => sum(lapis.gdn.chunkedBackward(
      { q: a.reshape([1, 1, 1, 4]), k: a.reshape([1, 1, 1, 4]), v: a.reshape([1, 1, 1, 4]), beta: tensor([[[0.5]]]), g: tensor([[[-0.1]]]) },
      { dO: a.reshape([1, 1, 1, 4]) },
    ).dq))(tensor([1, 2, 3, 4]))).toThrow(/^gdn.chunkedBackward: .*not differentiable/);
  });
});
