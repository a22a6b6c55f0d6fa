// Backward rules of the shape and indexing ops (src/ops/indexing.ts, Tensor.reshape).
import { defineRule } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';

defineRule('reshape', { backward: ({ args: [x] }, g: Tensor) => [g.reshape((x as Tensor).shape)] });
