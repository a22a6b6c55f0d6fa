import { broadcastShapes, sizeOf } from './shape.js';

/**
 * How two contiguous operands line up with their broadcast result (torch/numpy rules
 * over all dims, not only batch dims). Kernels walk `dims` with the per-operand element
 * strides (0 on a broadcast dim) instead of reading materialised broadcast copies.
 */
export interface ElementwiseLayout {
  /** The broadcast output shape. */
  shape: number[];
  size: number;
  /**
   * Collapsed walk: size-1 dims dropped and neighbours merged where both operands are
   * contiguous across them; never empty (a scalar is [1]). The innermost strides are 0 or 1.
   */
  dims: number[];
  aStrides: number[];
  bStrides: number[];
}

function stridesIn(src: readonly number[], out: readonly number[]): number[] {
  const nd = out.length;
  const s = new Array<number>(nd).fill(0);
  let acc = 1;
  for (let i = nd - 1; i >= 0; i--) {
    const j = src.length - nd + i;
    const d = j >= 0 ? src[j] : 1;
    s[i] = d === 1 ? 0 : acc;
    acc *= d;
  }
  return s;
}

/** The layout of a binary elementwise op on contiguous `a` and `b`. */
export function elementwiseLayout(
  a: readonly number[], b: readonly number[], who: string, names: readonly [string, string] = ['a', 'b'],
): ElementwiseLayout {
  const shape = broadcastShapes(a, b, who, names, '');
  const sa = stridesIn(a, shape), sb = stridesIn(b, shape);
  const dims: number[] = [], as: number[] = [], bs: number[] = [];
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 1) continue;
    const k = dims.length - 1;
    // Merging dim i into the previous one keeps every offset when, for both operands,
    // the previous stride is this stride times this extent (0 = 0·d covers broadcast).
    if (k >= 0 && as[k] === sa[i] * shape[i] && bs[k] === sb[i] * shape[i]) {
      dims[k] *= shape[i];
      as[k] = sa[i];
      bs[k] = sb[i];
    } else {
      dims.push(shape[i]);
      as.push(sa[i]);
      bs.push(sb[i]);
    }
  }
  if (dims.length === 0) { dims.push(1); as.push(0); bs.push(0); }
  return { shape, size: sizeOf(shape), dims, aStrides: as, bStrides: bs };
}

/** How N contiguous operands line up with their broadcast result (see ElementwiseLayout). */
export interface ElementwiseLayoutN {
  shape: number[];
  size: number;
  /** Collapsed walk, never empty; innermost strides are 0 or 1 for every operand. */
  dims: number[];
  /** strides[i][d]: operand i's element stride along dims[d] (0 on a broadcast dim). */
  strides: number[][];
}

/** The layout of an N-ary elementwise op (where(cond, a, b)) on contiguous operands. */
export function elementwiseLayoutN(shapes: readonly (readonly number[])[], who: string, names: readonly string[]): ElementwiseLayoutN {
  let shape: number[] = [];
  for (let i = 0; i < shapes.length; i++) {
    shape = i === 0 ? [...shapes[0]] : broadcastShapes(shape, shapes[i], who, [names.slice(0, i).join('/'), names[i]], '');
  }
  const src = shapes.map((s) => stridesIn(s, shape));
  const dims: number[] = [];
  const strides: number[][] = shapes.map(() => []);
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 1) continue;
    const k = dims.length - 1;
    if (k >= 0 && src.every((s, j) => strides[j][k] === s[i] * shape[i])) {
      dims[k] *= shape[i];
      src.forEach((s, j) => { strides[j][k] = s[i]; });
    } else {
      dims.push(shape[i]);
      src.forEach((s, j) => strides[j].push(s[i]));
    }
  }
  if (dims.length === 0) { dims.push(1); strides.forEach((s) => s.push(0)); }
  return { shape, size: sizeOf(shape), dims, strides };
}
