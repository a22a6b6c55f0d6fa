// gradcheck in torch's style: the reverse-mode gradient of L = Re Σ conj(W)·f(x) (W random,
// one per output leaf) against central finite differences of L, in float64 / complex128 on
// the CPU. Small arguments are checked entry by entry (real and imaginary parts), large ones
// along random directions. Torch's convention for complex: g = ∂L/∂Re x + i·∂L/∂Im x.
import { Rng, Tensor, tensor, vjp } from '../../src/index.js';
import { tensorLeaves, mapTensorLeaves, differentiableDtype } from '../../src/core/grad.js';
import { isComplex } from '../../src/core/dtype.js';

export interface GradcheckOptions {
  /** Finite-difference step (default 1e-6). */
  eps?: number;
  /** Allowed max |analytic − numeric| / max(|numeric|∞, 1) per argument (default 1e-6). */
  rtol?: number;
  /** Arguments with at most this many scalars are checked entry by entry (default 80). */
  maxEntries?: number;
  /** Random directions for larger arguments (default 4). */
  directions?: number;
  /** Seed of W and the directions (default 1). */
  seed?: number;
  /** Which arguments to check (default all). */
  check?: readonly number[];
}

/** Seeded uniform numbers in [-0.5, 0.5) (the library's Rng) so failures reproduce. */
export function rng(seed: number): () => number {
  const g = new Rng(seed);
  return () => g.uniform() - 0.5;
}

/** A random tensor of the given shape and dtype with entries in [-0.5, 0.5) (CPU). */
export function randomTensor(shape: readonly number[], dtype: 'float64' | 'complex128' | 'float32' | 'complex64', seed: number): Tensor {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1) * (isComplex(dtype) ? 2 : 1);
  const data = dtype === 'float32' || dtype === 'complex64' ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = r();
  return tensor({ data, shape: [...shape], dtype });
}

/** Re Σ conj(w)·y over every scalar pair, in float64. */
function innerRe(w: Tensor, y: Tensor): number {
  const a = w.dataSync() as Float64Array;
  const b = y.dataSync() as unknown as ArrayLike<number>;
  if (isComplex(y.dtype) !== isComplex(w.dtype)) throw new Error('gradcheck: weight dtype mismatch');
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * Number(b[i]);
  return s;
}


/**
 * Checks the gradient of f at args (float64/complex128 CPU tensors); throws an Error naming
 * the argument, entry and both values on failure. Returns the worst relative error.
 * Output leaves of integer or bool dtype carry no weight.
 */
export function gradcheck(
  f: (...args: Tensor[]) => unknown, args: readonly Tensor[], opts: GradcheckOptions = {},
): number {
  const eps = opts.eps ?? 1e-6, rtol = opts.rtol ?? 1e-6, maxEntries = opts.maxEntries ?? 80;
  const r = rng(opts.seed ?? 1);
  for (const a of args) {
    if (a.device !== 'cpu' || (a.dtype !== 'float64' && a.dtype !== 'complex128')) {
      throw new Error(`gradcheck: arguments must be float64/complex128 CPU tensors, got ${a.dtype} on ${a.device}`);
    }
  }
  const { value, pullback } = vjp(f, ...args);
  if (tensorLeaves(value).length === 0) throw new Error('gradcheck: f returned no tensor');
  const W = mapTensorLeaves(value, (t) => {
    if (!differentiableDtype(t.dtype)) return null;
    const n = t.size * (isComplex(t.dtype) ? 2 : 1);
    const d = new Float64Array(n);
    for (let i = 0; i < n; i++) d[i] = r();
    return tensor({ data: d, shape: [...t.shape], dtype: isComplex(t.dtype) ? 'complex128' : 'float64' });
  });
  const wLeaves = tensorLeaves(W);
  const loss = (xs: Tensor[]): number => {
    const out = f(...xs);
    const yl = tensorLeaves(out).filter((t) => differentiableDtype(t.dtype));
    if (yl.length !== wLeaves.length) throw new Error('gradcheck: f changed its output structure');
    return yl.reduce((s, y, i) => s + innerRe(wLeaves[i], y), 0);
  };
  const grads = pullback(W as never);
  let worst = 0;
  const which = opts.check ?? args.map((_, i) => i);
  for (const ai of which) {
    const x = args[ai];
    const g = grads[ai].dataSync() as Float64Array;
    const base = x.dataSync() as Float64Array;
    const perturbed = (dir: Float64Array, s: number): Tensor[] => {
      const d = new Float64Array(base.length);
      for (let i = 0; i < d.length; i++) d[i] = base[i] + s * dir[i];
      return args.map((a, j) => (j === ai ? tensor({ data: d, shape: [...x.shape], dtype: x.dtype }) : a));
    };
    const numeric: number[] = [], analytic: number[] = [], labels: string[] = [];
    const dirDerivative = (dir: Float64Array): number => (loss(perturbed(dir, eps)) - loss(perturbed(dir, -eps))) / (2 * eps);
    if (base.length <= maxEntries) {
      for (let i = 0; i < base.length; i++) {
        const dir = new Float64Array(base.length);
        dir[i] = 1;
        numeric.push(dirDerivative(dir));
        analytic.push(g[i]); // ∂L/∂Re at even slots, ∂L/∂Im at odd ones (torch's convention)
        labels.push(isComplex(x.dtype) ? `entry ${i >> 1} (${i & 1 ? 'imag' : 'real'})` : `entry ${i}`);
      }
    } else {
      for (let k = 0; k < (opts.directions ?? 4); k++) {
        const dir = new Float64Array(base.length);
        for (let i = 0; i < dir.length; i++) dir[i] = r();
        numeric.push(dirDerivative(dir));
        let s = 0;
        for (let i = 0; i < dir.length; i++) s += g[i] * dir[i];
        analytic.push(s);
        labels.push(`random direction ${k}`);
      }
    }
    const scale = Math.max(1, ...numeric.map(Math.abs));
    for (let i = 0; i < numeric.length; i++) {
      const err = Math.abs(analytic[i] - numeric[i]) / scale;
      worst = Math.max(worst, err);
      if (!(err <= rtol)) {
        throw new Error(
          `gradcheck: argument ${ai} ${labels[i]}: analytic ${analytic[i]} vs numeric ${numeric[i]} ` +
          `(relative error ${err.toExponential(2)} > ${rtol})`,
        );
      }
    }
  }
  return worst;
}

/** max |a − b| / max(|b|∞, 1) over two lists of tensors (any device; b is the reference). */
export async function gradDistance(a: readonly Tensor[], b: readonly Tensor[]): Promise<number> {
  let worst = 0;
  for (let k = 0; k < b.length; k++) {
    const x = Float64Array.from((await a[k].toAsync('cpu')).dataSync() as ArrayLike<number>);
    const y = Float64Array.from((await b[k].toAsync('cpu')).dataSync() as ArrayLike<number>);
    if (x.length !== y.length) throw new Error(`gradDistance: gradient ${k} has ${x.length} scalars, the reference ${y.length}`);
    let m = 1, e = 0;
    for (let i = 0; i < y.length; i++) { m = Math.max(m, Math.abs(y[i])); e = Math.max(e, Math.abs(x[i] - y[i])); }
    worst = Math.max(worst, e / m);
  }
  return worst;
}
