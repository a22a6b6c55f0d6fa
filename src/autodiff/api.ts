// grad / valueAndGrad / vjp / stopGradient: the public face of reverse mode (docs/autodiff.md).
import { Tensor } from '../core/tensor.js';
import { ArgumentError, DTypeError, ShapeError, DeviceError, fmtShape } from '../core/errors.js';
import { isComplex } from '../core/dtype.js';
import { Tape, pushTape, popTape, differentiableDtype, untracked, tensorLeaves, isPlainObject } from '../core/grad.js';
import { backward, onesLike, zerosLike, type CotMap } from './engine.js';
import { cast } from '../ops/elementwise.js';
import { asTensor, type TensorLike } from '../core/create.js';

export interface GradOptions {
  /**
   * The positions of the arguments to differentiate (default: all). Each must be a
   * float32/float64/complex64/complex128 tensor; the others pass through as constants.
   */
  argnums?: number | readonly number[];
}

/** The gradient of each differentiated argument, in `argnums` order. */
export interface ValueAndGrad {
  value: Tensor;
  grads: Tensor[];
}

/** Cotangents for a value of type R: a tensor for each tensor leaf, null for none. */
export type Cotangent<R> = R extends Tensor ? Tensor | null
  : R extends readonly unknown[] ? { [K in keyof R]: Cotangent<R[K]> }
    : R extends object ? { [K in keyof R]?: Cotangent<R[K]> }
      : null;

/** Checks the options object when the transform is made (a typo fails at once, not at the first call). */
function readGradOptions(who: string, opts: GradOptions | undefined): GradOptions {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new ArgumentError(`${who}: options must be an object, got ${opts === null ? 'null' : Array.isArray(opts) ? 'an array' : String(opts)}`);
  }
  for (const k of Object.keys(opts)) {
    if (k !== 'argnums') throw new ArgumentError(`${who}: unknown option '${k}' (expected argnums)`);
  }
  const a = opts.argnums;
  if (a === undefined) return opts;
  const list = typeof a === 'number' ? [a] : Array.isArray(a) ? a : null;
  if (!list || list.length === 0 || list.some((i) => !Number.isInteger(i) || i < 0)) {
    throw new ArgumentError(`${who}: option argnums must be a non-negative integer or a non-empty array of them, got ${String(a)}`);
  }
  if (new Set(list).size !== list.length) throw new ArgumentError(`${who}: option argnums repeats an index (${list.join(', ')})`);
  return opts;
}

/** The differentiated positions for a call with n arguments. */
function readArgnums(who: string, opts: GradOptions, n: number): number[] {
  const a = opts.argnums;
  if (a === undefined) return [...Array(n).keys()];
  const list = typeof a === 'number' ? [a] : [...a];
  for (const i of list) {
    if (i >= n) throw new ArgumentError(`${who}: argnums holds ${i}, but f was called with ${n} argument${n === 1 ? '' : 's'}`);
  }
  return list;
}

function checkDifferentiable(who: string, args: readonly unknown[], nums: readonly number[]): Tensor[] {
  return nums.map((i) => {
    const x = args[i];
    if (!(x instanceof Tensor)) {
      throw new ArgumentError(
        `${who}: argument ${i} is ${x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x}, not a tensor; ` +
        'only tensors are differentiated (pass argnums to choose the arguments, or close over constants)',
      );
    }
    x.alive(who);
    if (!differentiableDtype(x.dtype)) {
      throw new DTypeError(
        `${who}: argument ${i} is ${x.dtype}; only float32, float64, complex64 and complex128 tensors are differentiated` +
        (x.dtype === 'float16' ? ' (float16 is a storage dtype: cast it to float32)' : ' (pass argnums to leave it out)'),
      );
    }
    return x;
  });
}

/**
 * Runs `f` on a fresh tape with the differentiated arguments tracked. A tensor passed twice
 * is tracked as two aliases, so each position gets its own gradient.
 */
function record<R>(who: string, f: (...args: any[]) => R, // eslint-disable-line @typescript-eslint/no-explicit-any
   args: readonly unknown[], nums: readonly number[]): { tape: Tape; value: R; leaves: Tensor[] } {
  const xs = checkDifferentiable(who, args, nums);
  const devices = new Set(xs.map((x) => x.device));
  if (devices.size > 1) {
    throw new DeviceError(`${who}: the differentiated arguments are on ${[...devices].join(' and ')}; move them to one device`);
  }
  const tape = new Tape();
  const call = [...args];
  const leaves = xs.map((x, j) => {
    const dup = xs.indexOf(x) !== j || args.some((a, i) => a === x && !nums.includes(i));
    const leaf = dup ? untracked(() => x.reshape(x.shape)) : x;
    call[nums[j]] = leaf;
    tape.track(leaf);
    return leaf;
  });
  pushTape(tape);
  let value: R;
  try {
    value = f(...call);
  } finally {
    popTape(tape);
  }
  if (value !== null && typeof (value as { then?: unknown })?.then === 'function') {
    throw new ArgumentError(`${who}: f returned a Promise; differentiate a synchronous function (solve, not solveAsync)`);
  }
  return { tape, value, leaves };
}

function gradsOf(tape: Tape, seeds: CotMap, leaves: readonly Tensor[]): Tensor[] {
  const cots = backward(tape, seeds);
  return leaves.map((x) => cots.get(x) ?? zerosLike(x));
}

/**
 * After a single-use backward: what recorded functions kept with a `dispose()` (the GPU stages of
 * gdn.chunkedForward) is freed now rather than at garbage collection. vjp keeps it (its pullback
 * may run again).
 */
function releaseSaved(tape: Tape): void {
  for (const n of tape.nodes) {
    const s = n.saved as { dispose?: unknown } | undefined;
    if (s && typeof s.dispose === 'function') (s.dispose as () => void)();
  }
  tape.nodes.length = 0;
}

function checkScalar(who: string, v: unknown): Tensor {
  if (!(v instanceof Tensor)) {
    throw new ArgumentError(`${who}: f must return a real scalar tensor, got ${v === null ? 'null' : typeof v} (use vjp for other outputs)`);
  }
  if (v.size !== 1 || isComplex(v.dtype) || !differentiableDtype(v.dtype)) {
    throw new ArgumentError(
      `${who}: f must return a real scalar tensor (one float32/float64 element), got shape [${v.shape.join(", ")}] ${v.dtype}` +
      ' (reduce it, e.g. with sum, or use vjp for non-scalar outputs)',
    );
  }
  return v;
}

/**
 * `valueAndGrad(f, { argnums })(...args)` → `{ value, grads }`: f's value (a real scalar
 * tensor) and its gradient with respect to each differentiated argument, each of the
 * argument's shape, dtype and device. Complex arguments get torch's convention,
 * ∂L/∂Re z + i·∂L/∂Im z. Nothing is recorded outside the call.
 *
 * Example: `valueAndGrad((A, b) => sum(solve(A, b)))(A, b)` → `{ value, grads: [gA, gb] }`
 * Throws: ArgumentError for a non-scalar or complex value, a non-tensor argument, an op
 * without a gradient rule; DTypeError for an integer argument; DeviceError for mixed devices.
 */
export function valueAndGrad<A extends unknown[]>(
  f: (...args: A) => Tensor, opts?: GradOptions,
): (...args: A) => ValueAndGrad {
  return valueAndGradAs('valueAndGrad', f, opts);
}

function valueAndGradAs<A extends unknown[]>(
  who: string, f: (...args: A) => Tensor, opts?: GradOptions,
): (...args: A) => ValueAndGrad {
  if (typeof f !== 'function') throw new ArgumentError(`${who}: f must be a function, got ${f === null ? 'null' : typeof f}`);
  const o = readGradOptions(who, opts);
  return (...args: A) => {
    const nums = readArgnums(who, o, args.length);
    const { tape, value, leaves } = record(who, f, args, nums);
    const v = checkScalar(who, value);
    const grads = gradsOf(tape, new Map([[v, onesLike(v)]]), leaves);
    releaseSaved(tape);
    return { value: v, grads };
  };
}

/**
 * `grad(f, { argnums })(...args)` → the gradients of f (a real scalar tensor) with respect to
 * each differentiated argument, in order. `valueAndGrad` without the value.
 *
 * Example: `const [gA] = grad((A) => linalg.det(A))(A)` → det(A)·A⁻ᵀ
 */
export function grad<A extends unknown[]>(f: (...args: A) => Tensor, opts?: GradOptions): (...args: A) => Tensor[] {
  const vg = valueAndGradAs('grad', f, opts);
  return (...args: A) => vg(...args).grads;
}

function structureError(who: string, path: string, msg: string): never {
  throw new ArgumentError(`${who}: cotangent${path}: ${msg}`);
}

/** Pairs each tensor leaf of the value with the cotangent at the same place. */
function seedsOf(who: string, value: unknown, cot: unknown, seeds: CotMap, path = '', depth = 0): void {
  if (cot === null || cot === undefined) return;
  if (value instanceof Tensor) {
    if (!(cot instanceof Tensor)) structureError(who, path, `expected a tensor or null, got ${typeof cot}`);
    if (cot.ndim !== value.ndim || cot.shape.some((d, i) => d !== value.shape[i])) {
      throw new ShapeError(`${who}: cotangent${path} has shape ${fmtShape(cot.shape)}, the output ${fmtShape(value.shape)}`);
    }
    if (cot.device !== value.device) throw new DeviceError(`${who}: cotangent${path} is on ${cot.device}, the output on ${value.device}`);
    if (!differentiableDtype(value.dtype)) return;
    let c = cot;
    if (isComplex(c.dtype) && !isComplex(value.dtype)) structureError(who, path, `complex for a ${value.dtype} output`);
    if (c.dtype !== value.dtype) c = cast(c, value.dtype);
    const prev = seeds.get(value);
    if (prev) structureError(who, path, 'the same output tensor appears twice in the value');
    seeds.set(value, c);
  } else if (depth < 4 && Array.isArray(value)) {
    if (!Array.isArray(cot)) structureError(who, path, 'expected an array like the output');
    value.forEach((v, i) => seedsOf(who, v, cot[i], seeds, `${path}[${i}]`, depth + 1));
  } else if (depth < 4 && isPlainObject(value)) {
    if (!isPlainObject(cot)) structureError(who, path, 'expected an object like the output');
    for (const k of Object.keys(cot)) if (!(k in value)) structureError(who, `${path}.${k}`, 'the output has no such field');
    for (const [k, v] of Object.entries(value)) seedsOf(who, v, cot[k], seeds, `${path}.${k}`, depth + 1);
  } else {
    structureError(who, path, 'the output holds no tensor here');
  }
}

/**
 * `vjp(f, ...args)` → `{ value, pullback }`: f's value (any tensors: one, an array, an
 * object such as svd's `{ U, S, Vh }`) and a function mapping cotangents shaped like the
 * value (null for leaves that do not contribute) to the gradients of every argument, as JAX's
 * `jax.vjp`. Every argument must be a floating tensor; close over anything else. The
 * pullback can be called any number of times.
 *
 * Example: `const { value, pullback } = vjp((A) => linalg.inv(A), A); const [gA] = pullback(G)`
 */
export function vjp<A extends unknown[], R>(
  f: (...args: A) => R, ...args: A
): { value: R; pullback: (cotangent: Cotangent<R>) => Tensor[] } {
  const who = 'vjp';
  if (typeof f !== 'function') throw new ArgumentError(`${who}: f must be a function, got ${f === null ? 'null' : typeof f}`);
  const nums = [...Array(args.length).keys()];
  const { tape, value, leaves } = record(who, f, args, nums);
  if (tensorLeaves(value).length === 0) throw new ArgumentError(`${who}: f returned no tensor`);
  const pullback = (cotangent: Cotangent<R>): Tensor[] => {
    const seeds: CotMap = new Map();
    seedsOf('vjp pullback', value, cotangent, seeds);
    return gradsOf(tape, seeds, leaves);
  };
  return { value, pullback };
}

/**
 * `stopGradient(x)`: x as a constant (the same values and storage; no gradient flows
 * through it), as JAX's `lax.stop_gradient` and torch's `detach`.
 */
export function stopGradient<T extends Tensor>(x: T | TensorLike): T {
  const t = asTensor(x, 'stopGradient', 'x');
  t.alive('stopGradient');
  return untracked(() => t.reshape(t.shape)) as T;
}
