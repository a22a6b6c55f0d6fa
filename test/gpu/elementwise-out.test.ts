/**
 * The elementwise functions' `out` option on the GPU: the kernel writes out's own buffer,
 * bit for bit the call without out, and out is returned; out sharing an operand's buffer
 * (in place) goes through a fresh buffer and a copy, with the same answer; an out on the
 * other device is a DeviceError naming it.
 */
import { describe, expect } from 'vitest';
import * as lapis from '../../src/index.js';
import { randn, zeros, Tensor, DeviceError, DTypeError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

const g = (shape: number[], seed: number, dtype: 'float32' | 'complex64' = 'float32'): Tensor => randn(shape, { dtype, seed }).to('gpu');

function nanOut(shape: number[], dtype: lapis.DType): Tensor {
  const t = zeros(shape, { dtype });
  if (dtype !== 'bool') (t.dataSync() as Float32Array).fill(dtype === 'float32' || dtype === 'complex64' ? NaN : 7);
  return t.to('gpu');
}

async function vals(t: Tensor): Promise<number[]> {
  return Array.from(await t.data() as ArrayLike<number>);
}

describe('gpu elementwise out', () => {
  gpuIt('unary and binary (broadcast, comparison, complex): out gets the bits of the call without it', async () => {
    const x = g([3, 70], 1), r = g([70], 2), z = g([2, 9], 3, 'complex64');
    const cases: Array<[(o?: { out: Tensor }) => Tensor]> = [
      [(o) => lapis.exp(x, o)], [(o) => lapis.tanh(x, o)], [(o) => lapis.add(x, r, o)], [(o) => lapis.mul(r, x, o)],
      [(o) => lapis.lt(x, r, o)], [(o) => lapis.abs(z, o)], [(o) => lapis.mul(z, z, o)],
    ];
    for (const [f] of cases) {
      const want = f();
      const out = nanOut([...want.shape], want.dtype);
      expect(f({ out })).toBe(out);
      expect(await vals(out)).toEqual(await vals(want));
      want.dispose();
      out.dispose();
    }
  });

  gpuIt('in place: out an operand gives the answer of the call without out', async () => {
    const a = g([5, 33], 4), b = g([33], 5);
    const want = lapis.add(lapis.exp(a), b);
    expect(lapis.exp(a, { out: a })).toBe(a);
    expect(lapis.add(a, b, { out: a })).toBe(a);
    expect(await vals(a)).toEqual(await vals(want));
  });

  gpuIt('a bad out is a typed error naming it', () => {
    const x = g([4], 6);
    expect(() => lapis.exp(x, { out: zeros([4], { dtype: 'float32' }) })).toThrow(DeviceError);
    expect(() => lapis.exp(x, { out: zeros([4], { dtype: 'int32' }).to('gpu') })).toThrow(DTypeError);
  });
});
