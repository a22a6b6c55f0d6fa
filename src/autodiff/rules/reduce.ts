// Backward rules of the reductions (src/ops/reduce.ts).
import { defineRule } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';
import { expand } from '../../ops/indexing.js';
import { unsqueezeReduced } from './reduceUtil.js';

defineRule('sum', {
  backward: ({ args: [x, opts], output }, g: Tensor) => {
    const shape = (x as Tensor).shape;
    return [expand(unsqueezeReduced(g, shape, opts, (output as Tensor).ndim), shape)];
  },
});
