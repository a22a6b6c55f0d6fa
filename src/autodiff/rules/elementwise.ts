// Backward rules of the elementwise ops (src/ops/elementwise.ts). Complex follows torch:
// for y = f(x) holomorphic, x̄ = ȳ·conj(f'(x)).
import { defineRule } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';
import { neg, mul } from '../../ops/elementwise.js';
import { cj } from './util.js';

defineRule('add', { backward: (_c, g: Tensor) => [g, g] });
defineRule('sub', { backward: (_c, g: Tensor) => [g, neg(g)] });
defineRule('mul', {
  backward: ({ args: [a, b] }, g: Tensor) => [mul(g, cj(asT(b))), mul(g, cj(asT(a)))],
});
defineRule('neg', { backward: (_c, g: Tensor) => [neg(g)] });

function asT(v: unknown): Tensor {
  return v as Tensor;
}
