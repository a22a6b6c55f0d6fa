// Backward rules of the shape and indexing ops (src/ops/indexing.ts, Tensor.reshape). Each
// op is linear in x, so each rule is the adjoint map: reshapes reshape back, transposes
// permute back, selections (diagonal, slice, take) scatter the cotangent into zeros with
// `put`, joins (concat, stack) split it and split concatenates it. All public ops, so a GPU
// forward gets a GPU backward and an enclosing tape records it (second derivatives).
import { defineRule } from '../../core/grad.js';
import { Tensor } from '../../core/tensor.js';
import { tensor, zeros, eye, type TensorLike } from '../../core/create.js';
import { eq, mul, where } from '../../ops/elementwise.js';
import {
  adjoint, concat, matrixTranspose, permute, put, split, take, transpose, tril, triu,
  type DiagonalOptions, type PutOptions, type SliceSpec,
} from '../../ops/indexing.js';
import { diagonalIndex, sliceIndex } from '../../ops/views.js';

const asT = (v: unknown): Tensor => v as Tensor;

/** Zeros of `shape` in g's dtype on g's device (what a selection's cotangent is scattered into). */
function zerosFor(g: Tensor, shape: readonly number[]): Tensor {
  return zeros(shape, { dtype: g.dtype, device: g.device });
}

/**
 * `idx` (int32, computed on the host) as a tensor on g's device. Flat positions go to put/take
 * as the Int32Array itself instead (put moves it; its own rule can then read it on the host).
 */
function indexOn(idx: Int32Array, g: Tensor): Tensor {
  const t = tensor(idx);
  return g.device === 'cpu' ? t : t.to(g.device);
}

/** A shape of JS data or a tensor (concat's list may hold arrays). */
function shapeOf(v: unknown): readonly number[] {
  return v instanceof Tensor ? v.shape : tensor(v as TensorLike).shape;
}

// ---- storage-sharing reshapes: the cotangent reshaped back

const reshapeBack = ({ args: [x] }: { args: readonly unknown[] }, g: Tensor) =>
  [x instanceof Tensor ? g.reshape(x.shape) : null];
defineRule('reshape', { backward: reshapeBack });
defineRule('flatten', { backward: reshapeBack });
defineRule('squeeze', { backward: reshapeBack });
defineRule('unsqueeze', { backward: reshapeBack });

// ---- broadcasting copies: the engine's fitGrad sums the cotangent over the expanded dims
// (new leading dims and dims of size 1 in x), which is exactly the adjoint of expand.

defineRule('expand', { backward: (_c, g: Tensor) => [g] });
defineRule('broadcastTo', { backward: (_c, g: Tensor) => [g] });

// ---- transposes: the inverse permutation (adjoint: y = conj(xᵀ), so x̄ = conj(ȳᵀ) = adjoint(ȳ))

defineRule('transpose', {
  backward: ({ args: [, d0, d1] }, g: Tensor) => [transpose(g, d0 as number, d1 as number)],
});
defineRule('permute', {
  backward: ({ args: [x, dims] }, g: Tensor) => {
    const n = asT(x).ndim;
    const inv = new Array<number>(n);
    (dims as readonly number[]).forEach((d, i) => { inv[d < 0 ? d + n : d] = i; });
    return [permute(g, inv)];
  },
});
defineRule('matrixTranspose', { backward: (_c, g: Tensor) => [matrixTranspose(g)] });
defineRule('adjoint', { backward: (_c, g: Tensor) => [adjoint(g)] });

// ---- diagonals and triangles

defineRule('diagonal', {
  // the cotangent written back onto the same diagonal of zeros (offset, dim1, dim2 as the forward)
  backward: ({ args: [x, opts] }, g: Tensor) => {
    const shape = asT(x).shape;
    return [put(zerosFor(g, shape), diagonalIndex(shape, opts as DiagonalOptions), g)];
  },
});
// triu/tril keep a fixed set of entries: the adjoint keeps the same set of the cotangent
defineRule('triu', { backward: ({ args: [, k] }, g: Tensor) => [triu(g, k as number)] });
defineRule('tril', { backward: ({ args: [, k] }, g: Tensor) => [tril(g, k as number)] });
defineRule('trace', {
  // x̄ = ḡ·I for each matrix of the batch (the rectangular identity for non-square x)
  backward: ({ args: [x] }, g: Tensor) => {
    const [m, n] = asT(x).shape.slice(-2);
    const I = eye(m, { m: n, dtype: g.dtype, device: g.device });
    return [mul(g.reshape([...g.shape, 1, 1]), I)];
  },
});

// ---- slicing, joins and splits

defineRule('slice', {
  // the cotangent scattered into zeros at the positions the slice read (distinct, any step sign)
  backward: ({ args: [x, ...specs] }, g: Tensor) => {
    const shape = asT(x).shape;
    return [put(zerosFor(g, shape), sliceIndex(shape, specs as SliceSpec[]), g)];
  },
});
defineRule('concat', {
  backward: ({ args: [xs, dim] }, g: Tensor) => {
    const list = xs as readonly unknown[];
    const d = (dim as number) < 0 ? (dim as number) + g.ndim : (dim as number);
    const parts = split(g, list.map((v) => shapeOf(v)[d]), d);
    return [list.map((v, i) => (v instanceof Tensor ? parts[i] : null)), null];
  },
});
defineRule('stack', {
  backward: ({ args: [xs, dim] }, g: Tensor) => {
    const list = xs as readonly unknown[];
    const d = (dim as number) < 0 ? (dim as number) + g.ndim : (dim as number);
    const parts = split(g, 1, d);
    return [list.map((v, i) => (v instanceof Tensor ? parts[i].reshape(v.shape) : null)), null];
  },
});
defineRule('split', {
  // chunks no gradient reached count as zeros
  backward: ({ args: [, , dim], output }, cot: readonly (Tensor | null)[]) => {
    const outs = output as readonly Tensor[];
    const like = cot.find((c) => c !== null)!;
    return [concat(outs.map((o, i) => cot[i] ?? zerosFor(like, o.shape)), dim as number)];
  },
});

// ---- take / put

defineRule('take', {
  // a scatter-add: an element taken k times gets the sum of its k cotangents
  backward: ({ args: [x, index] }, g: Tensor) =>
    [put(zerosFor(g, asT(x).shape), index as TensorLike, g, { accumulate: true }), null],
});

/** Whether the (host-readable) flat index repeats an element of a tensor of `size` elements. */
function repeats(index: unknown, size: number): boolean {
  if (index instanceof Tensor && index.device !== 'cpu') return true; // unknown without a read: take the general path
  const d = (index instanceof Tensor ? index : tensor(index as TensorLike)).dataSync() as ArrayLike<number>;
  const seen = new Set<number>();
  for (let i = 0; i < d.length; i++) {
    const j = d[i] < 0 ? d[i] + size : d[i];
    if (seen.has(j)) return true;
    seen.add(j);
  }
  return false;
}

defineRule('put', {
  // out = x with out.flat[idx[i]] = values[i] (or += with accumulate). x̄: the cotangent with the
  // written positions zeroed (accumulate: the cotangent itself). values̄[i] = ḡ.flat[idx[i]]; without
  // accumulate a repeated index keeps its last value (the forward's rule on both devices), so
  // only that last writer gets the cotangent (torch gives it to every duplicate).
  backward: ({ args: [x, index, values, opts] }, g: Tensor) => {
    const acc = (opts as PutOptions | undefined)?.accumulate === true;
    const idx = index as TensorLike;
    const gx = x instanceof Tensor ? (acc ? g : put(g, idx, 0)) : null;
    if (!(values instanceof Tensor)) return [gx, null, null, null];
    let gv = take(g, idx);
    if (!acc && repeats(index, g.size)) {
      const n = gv.size;
      const order = indexOn(Int32Array.from({ length: n }, (_, i) => i), g).reshape(gv.shape);
      const winner = put(zeros([g.size], { dtype: 'int32', device: g.device }), idx, order);
      gv = where(eq(take(winner, idx), order), gv, 0);
    }
    // values of index's size were reshaped to index's shape; broadcast ones are summed by the engine
    if (values.size === gv.size) gv = gv.reshape(values.shape);
    return [gx, null, gv, null];
  },
});

// ---- tensor(t, { dtype }) of a tensor: a conversion on the same device (device moves are
// refused at the call). The engine's fitGrad casts the cotangent back to t's dtype (the real
// part for real → complex), which is the adjoint of the conversion.

defineRule('tensor', { backward: (_c, g: Tensor) => [g, null] });
