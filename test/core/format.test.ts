// Printing: exact strings in torch's layout (src/core/format.ts) for every dtype, the
// summary of large tensors, edge values, Node's util.inspect and GPU tensors.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { inspect } from 'node:util';
import { tensor, zeros, Complex, Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

describe('toString of small tensors', () => {
  it('float32 with a fractional value: 4 decimals, rows aligned under the first', () => {
    expect(String(tensor([[1, 2.5], [3, 4]], { dtype: 'float32' })))
      .toBe('tensor([[1.0000, 2.5000],\n        [3.0000, 4.0000]], dtype=float32)');
  });

  it('integer-valued floats print as `1.`; a common width right-aligns negatives', () => {
    expect(String(tensor([[1, -20], [300, 4]]))).toBe('tensor([[  1., -20.],\n        [300.,   4.]], dtype=float64)');
    expect(String(tensor([0, 0]))).toBe('tensor([0., 0.], dtype=float64)');
  });

  it('scientific when magnitudes span more than 1000× or pass 1e8 (or fall below 1e-4)', () => {
    expect(String(tensor([1e10, -2]))).toBe('tensor([ 1.0000e+10, -2.0000e+00], dtype=float64)');
    expect(String(tensor([1e-5, 1, 1e6]))).toBe('tensor([1.0000e-05, 1.0000e+00, 1.0000e+06], dtype=float64)');
    expect(String(tensor([0.5, 2e-5]))).toBe('tensor([5.0000e-01, 2.0000e-05], dtype=float64)');
  });

  it('int32 and uint32 without a point', () => {
    expect(String(tensor([[1, -2], [30, 4]], { dtype: 'int32' }))).toBe('tensor([[ 1, -2],\n        [30,  4]], dtype=int32)');
    expect(String(tensor([4294967295, 0], { dtype: 'uint32' }))).toBe('tensor([4294967295,          0], dtype=uint32)');
  });

  it('bool as true/false', () => {
    expect(String(tensor([[true, false], [false, true]])))
      .toBe('tensor([[ true, false],\n        [false,  true]], dtype=bool)');
  });

  it('complex as a+bi with one format for real parts and one for imaginary parts', () => {
    expect(String(tensor([new Complex(1.5, 2), new Complex(-1, -0.25)])))
      .toBe('tensor([ 1.5000+2.0000i, -1.0000-0.2500i], dtype=complex128)');
    expect(String(tensor([new Complex(1, 2), new Complex(3, -4)], { dtype: 'complex64' })))
      .toBe('tensor([1.+2.i, 3.-4.i], dtype=complex64)');
  });

  it('NaN, ±Inf and −0', () => {
    expect(String(tensor([NaN, Infinity, -Infinity, -0, 1.5])))
      .toBe('tensor([    nan,     inf,    -inf, -0.0000,  1.5000], dtype=float64)');
    expect(String(tensor([NaN, 1, -0]))).toBe('tensor([nan,  1., -0.], dtype=float64)');
    expect(String(tensor([NaN, Infinity]))).toBe('tensor([nan, inf], dtype=float64)');
  });

  it('3-D tensors: a blank line between matrices, one more space of indent per level', () => {
    expect(String(tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], { dtype: 'int32' })))
      .toBe('tensor([[[1, 2],\n         [3, 4]],\n\n        [[5, 6],\n         [7, 8]]], dtype=int32)');
  });

  it('0-d tensors print the value alone', () => {
    expect(String(tensor(3.5))).toBe('tensor(3.5000, dtype=float64)');
    expect(String(tensor(true))).toBe('tensor(true, dtype=bool)');
    expect(String(tensor(-7, { dtype: 'int32' }))).toBe('tensor(-7, dtype=int32)');
    expect(String(tensor(new Complex(0, 1)))).toBe('tensor(0.+1.i, dtype=complex128)');
  });

  it('empty tensors: [] with the shape unless 1-D', () => {
    expect(String(zeros([0]))).toBe('tensor([], dtype=float64)');
    expect(String(zeros([0, 3]))).toBe('tensor([], shape=[0, 3], dtype=float64)');
    expect(String(zeros([2, 0, 3], { dtype: 'bool' }))).toBe('tensor([], shape=[2, 0, 3], dtype=bool)');
  });

  it('long rows wrap at 80 columns under the first element', () => {
    expect(String(tensor(Float64Array.from({ length: 20 }, (_, i) => i + 0.5)))).toBe(
      'tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n' +
      '         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n' +
      '        16.5000, 17.5000, 18.5000, 19.5000], dtype=float64)');
  });
});

describe('summaries beyond 1000 elements', () => {
  it('a 100×100 shows the first and last 3 of each dim around ...; the format comes from the shown values', () => {
    const d = Float64Array.from({ length: 10000 }, (_, i) => 1 + i / 10000);
    expect(String(tensor({ data: d, shape: [100, 100] }))).toBe(
      'tensor([[1.0000, 1.0001, 1.0002,  ..., 1.0097, 1.0098, 1.0099],\n' +
      '        [1.0100, 1.0101, 1.0102,  ..., 1.0197, 1.0198, 1.0199],\n' +
      '        [1.0200, 1.0201, 1.0202,  ..., 1.0297, 1.0298, 1.0299],\n' +
      '        ...,\n' +
      '        [1.9700, 1.9701, 1.9702,  ..., 1.9797, 1.9798, 1.9799],\n' +
      '        [1.9800, 1.9801, 1.9802,  ..., 1.9897, 1.9898, 1.9899],\n' +
      '        [1.9900, 1.9901, 1.9902,  ..., 1.9997, 1.9998, 1.9999]], dtype=float64)');
  });

  it('a 1-D of 2000, and the dtype suffix moves to its own line when the last line is full', () => {
    expect(String(tensor(Float64Array.from({ length: 2000 }, (_, i) => i)))).toBe(
      'tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n' +
      '        1.9990e+03], dtype=float64)');
    expect(String(tensor(Float64Array.from({ length: 10000 }, (_, i) => (i % 7) - 3.5)).reshape([100, 100])).split('\n').at(-1))
      .toBe('       dtype=float64)');
  });

  it('exactly 1000 elements are printed in full; 1001 are summarised', () => {
    const full = String(tensor(new Int32Array(1000)));
    expect(full).not.toContain('...');
    expect(full.match(/0/g)!.length).toBe(1000);
    expect(String(tensor(new Int32Array(1001)))).toBe('tensor([0, 0, 0,  ..., 0, 0, 0], dtype=int32)');
  });
});

describe('round trip of the printed values (property)', () => {
  it('int32 and float64 tensors up to 1000 elements print every value, in row-major order, with balanced brackets', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 0, maxLength: 4 }), fc.boolean(), fc.integer(),
      (shape, isInt, seed) => {
        const n = shape.reduce((a, b) => a * b, 1);
        let s = seed | 0;
        const next = () => { s = (Math.imul(s, 1103515245) + 12345) | 0; return s; };
        const vals = Array.from({ length: n }, () => (isInt ? next() : (next() % 100000) / 100));
        const t = isInt ? tensor({ data: Int32Array.from(vals), shape }) : tensor({ data: Float64Array.from(vals), shape });
        const str = String(t);
        const body = str.replace(/^tensor\(/, '').replace(/,\s+dtype=\w+\)$/, '');
        expect(body).not.toContain('dtype');
        const tokens = body.split(/[\s,[\]]+/).filter((x) => x !== '');
        expect(tokens.map(Number)).toEqual(vals.map((v) => (isInt ? v : Number(v.toFixed(4)))).map((v) => v + 0));
        expect((body.match(/\[/g) ?? []).length).toBe((body.match(/]/g) ?? []).length);
      },
    ), { numRuns: 100 });
  });
});

describe('util.inspect and errors', () => {
  it('util.inspect and console-style nesting print toString()', () => {
    const t = tensor([1, 2], { dtype: 'int32' });
    expect(inspect(t)).toBe('tensor([1, 2], dtype=int32)');
    expect(inspect({ a: t })).toBe('{ a: tensor([1, 2], dtype=int32) }');
    expect(`${t}`).toBe('tensor([1, 2], dtype=int32)');
  });

  it('a disposed or detached tensor prints its metadata, never throws', () => {
    const t = tensor([1, 2]);
    t.dispose();
    expect(String(t)).toBe('tensor(<disposed>, shape=[2], dtype=float64)');
    const buf = new ArrayBuffer(16);
    const u = Tensor.fromStorage('float64', [2], new Float64Array(buf));
    structuredClone(buf, { transfer: [buf] });
    expect(String(u)).toMatch(/^tensor\(<the tensor's ArrayBuffer was detached[^>]*>, shape=\[2\], dtype=float64\)$/);
  });
});

describe('GPU tensors', () => {
  gpuIt('toString shows metadata and points to toStringAsync, which prints the values', async () => {
    const t = tensor([[1, 2.5], [3, 4]], { dtype: 'float32', device: 'gpu' });
    expect(String(t)).toBe('tensor(<on the GPU: await t.toStringAsync()>, shape=[2, 2], dtype=float32, device=gpu)');
    expect(await t.toStringAsync()).toBe('tensor([[1.0000, 2.5000],\n        [3.0000, 4.0000]], dtype=float32, device=gpu)');
    t.dispose();
  });

  gpuIt('toArrayAsync and toStringAsync for every GPU dtype (bool as booleans)', async () => {
    const b = tensor([true, false, true], { device: 'gpu' });
    expect(await b.toArrayAsync()).toEqual([true, false, true]);
    expect(await b.toStringAsync()).toBe('tensor([ true, false,  true], dtype=bool, device=gpu)');
    const u = tensor([4294967295, 1], { dtype: 'uint32', device: 'gpu' });
    expect(await u.toArrayAsync()).toEqual([4294967295, 1]);
    const i = tensor([-3, 1], { dtype: 'int32', device: 'gpu' });
    expect(await i.toStringAsync()).toBe('tensor([-3,  1], dtype=int32, device=gpu)');
    const c = tensor([new Complex(1.5, -2)], { dtype: 'complex64', device: 'gpu' });
    expect(await c.toStringAsync()).toBe('tensor([1.5000-2.i], dtype=complex64, device=gpu)');
    expect(((await c.toArrayAsync()) as Complex[])[0].im).toBe(-2);
    for (const t of [b, u, i, c]) t.dispose();
  });
});
