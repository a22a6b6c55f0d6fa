// Shapes and indexing on the CPU against numpy in the same run: each op copies (lapis has no
// strided views, docs/architecture.md), so numpy's peer is the same materialised result
// (np.ascontiguousarray of the view, np.triu, np.concatenate, np.take, np.put on a copy).
import { registerSuite, type BenchCase } from '../harness.js';
import { tensor, matrixTranspose, slice, triu, concat, take, put, expand, Tensor } from '../../src/index.js';

/** Deterministic data both sides build the same way: a golden-ratio sequence in [-100, 100). */
function golden(n: number, C: Float64ArrayConstructor | Float32ArrayConstructor): Float64Array | Float32Array {
  const a = new C(n);
  for (let i = 0; i < n; i++) a[i] = -100 + 200 * ((i * 0.6180339887498949) % 1);
  return a;
}
const pyGolden = (shape: number[], dt: string) =>
  `x = np.asarray(-100 + 200 * np.mod(np.arange(${shape.reduce((a, b) => a * b, 1)}, dtype=np.float64) * 0.6180339887498949, 1.0), dtype=np.${dt}).reshape(${shape.join(', ')})`;

const make = (shape: number[], dt: 'float32' | 'float64'): Tensor =>
  tensor({ data: golden(shape.reduce((a, b) => a * b, 1), dt === 'float32' ? Float32Array : Float64Array), shape });

function cases(): BenchCase[] {
  const a32 = make([4096, 4096], 'float32');
  const a64 = make([4096, 4096], 'float64');
  const b64 = make([64, 256, 256], 'float64');
  const h32 = make([2048, 4096], 'float32');
  const c32 = make([4096, 1], 'float32');
  const v64 = make([10_000_000], 'float64');
  const M = 1_000_000;
  const idx = Int32Array.from({ length: M }, (_, i) => (i * 7919) % 10_000_000);
  const index = tensor({ data: idx, shape: [M] });
  const values = make([M], 'float64');
  const pyIdx = `idx = (np.arange(${M}, dtype=np.int64) * 7919) % 10000000`;
  return [
    { name: 'mT f32 4096×4096', lapis: () => { matrixTranspose(a32); },
      python: { setup: pyGolden([4096, 4096], 'float32'), stmt: 'np.ascontiguousarray(x.T)' } },
    { name: 'mT f64 4096×4096', lapis: () => { matrixTranspose(a64); },
      python: { setup: pyGolden([4096, 4096], 'float64'), stmt: 'np.ascontiguousarray(x.T)' } },
    { name: 'mT f64 64×256×256', lapis: () => { matrixTranspose(b64); },
      python: { setup: pyGolden([64, 256, 256], 'float64'), stmt: 'np.ascontiguousarray(np.swapaxes(x, -1, -2))' } },
    { name: 'slice f64 4096×4096 [::2, ::-2]', lapis: () => { slice(a64, '::2', '::-2'); },
      python: { setup: pyGolden([4096, 4096], 'float64'), stmt: 'np.ascontiguousarray(x[::2, ::-2])' } },
    { name: 'slice f64 4096×4096 [1:-1, 1:-1]', lapis: () => { slice(a64, '1:-1', '1:-1'); },
      python: { setup: pyGolden([4096, 4096], 'float64'), stmt: 'np.ascontiguousarray(x[1:-1, 1:-1])' } },
    { name: 'triu f64 4096×4096', lapis: () => { triu(a64); },
      python: { setup: pyGolden([4096, 4096], 'float64'), stmt: 'np.triu(x)' } },
    { name: 'concat f32 2×(2048×4096) dim=1', lapis: () => { concat([h32, h32], 1); },
      python: { setup: pyGolden([2048, 4096], 'float32'), stmt: 'np.concatenate([x, x], 1)' } },
    { name: 'expand f32 4096×1 → 4096×4096', lapis: () => { expand(c32, [4096, 4096]); },
      python: { setup: pyGolden([4096, 1], 'float32'), stmt: 'np.ascontiguousarray(np.broadcast_to(x, (4096, 4096)))' } },
    { name: 'take f64 1M of 10M', lapis: () => { take(v64, index); },
      python: { setup: `${pyGolden([10_000_000], 'float64')}\n${pyIdx}`, stmt: 'np.take(x, idx)' } },
    { name: 'put f64 1M into 10M (copy)', lapis: () => { put(v64, index, values); },
      python: { setup: `${pyGolden([10_000_000], 'float64')}\n${pyIdx}\nv = x[:${M}].copy()`, stmt: 'y = x.copy(); np.put(y, idx, v)' } },
  ];
}

registerSuite('indexing', async () => cases());
