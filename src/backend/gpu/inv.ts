// GPU batched inverse. n ≤ 4: shaders/inv/inv_small.wgsl (one thread per matrix, tiles
// staged through workgroup memory, closed form with a pivoted fallback). 4 < n ≤ 64: the
// LU kernel's Gauss–Jordan variant (shaders/lu, one workgroup per matrix). n > 64: the
// blocked LU, P·I and two blocked triangular solves (lu_ops.ts).
import type { Tensor } from '../../core/tensor.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram } from './program.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, floatsPer, batchCount, infoTensor, checkIndexRange } from './small.js';
import { invLuGpu, LU_MAX_N, zeroInfo } from './lu.js';
import { invBlockedGpu } from './lu_ops.js';

/** Matrices per workgroup: 64 (measured best on an H200; docs/decisions.md). */
function invLayout(n: number, dtype: 'float32' | 'complex64') {
  const S = n * n * floatsPer(dtype);
  const PAD = S % 2 === 1 ? S : S + 1;
  const WG = 64;
  return { S, PAD, WG, TILE: WG * PAD };
}

/**
 * Whether (n, dtype) takes the direct kernel by default (each thread loads its own matrix
 * as vec4s) instead of staging through workgroup memory: 2×2 and 4×4 float32.
 */
export function invDirect(n: number, dtype: string): boolean {
  return dtype === 'float32' && (n === 2 || n === 4);
}

/** The kernel's per-element statements, written out with constant indices. */
export function unrolled(n: number, direct = false): Record<string, string> {
  const ks = Array.from({ length: n * n }, (_, k) => k);
  const cols = Array.from({ length: n }, (_, j) => j);
  const line = (t: string) => `  ${t}`;
  const quads = Array.from({ length: (n * n) / 4 }, (_, q) => q);
  return {
    LOAD: direct
      ? quads.map((q) => line(`{ let v = A[m4 + ${q}u]; ` +
        ['x', 'y', 'z', 'w'].map((c, k) => `a[${4 * q + k}] = v.${c};`).join(' ') +
        ' mx = max(mx, max(max(abs(v.x), abs(v.y)), max(abs(v.z), abs(v.w)))); }')).join('\n')
      : ks.map((k) => line(`a[${k}] = ld(lid, ${k}u); mx = max(mx, tmaxabs(a[${k}]));`)).join('\n'),
    SCALE_IN: ks.map((k) => line(`sa[${k}] = tscale(a[${k}], s);`)).join('\n'),
    NORMS: cols.map((j) => {
      const rows = cols.map((i) => i * n + j);
      return [
        ...rows.map((e) => line(`x[${e}] = tmul(x[${e}], rd);`)),
        line(`na = max(na, ${rows.map((e) => `tmag(sa[${e}])`).join(' + ')});`),
        line(`nx = max(nx, ${rows.map((e) => `tmag(x[${e}])`).join(' + ')});`),
      ].join('\n');
    }).join('\n'),
    SCALE_OUT: ks.map((k) => line(`x[${k}] = tscale(x[${k}], s);`)).join('\n'),
    STORE: direct
      ? quads.map((q) => line(`X[m4 + ${q}u] = vec4f(x[${4 * q}], x[${4 * q + 1}], x[${4 * q + 2}], x[${4 * q + 3}]);`)).join('\n')
      : ks.map((k) => line(`st(lid, ${k}u, x[${k}]);`)).join('\n'),
  };
}

/** The n ≤ 4 inverse kernel (shaders/inv/inv_small.wgsl); `direct` only for 2×2 and 4×4 float32. */
export function invSmallProgram(n: number, dtype: 'float32' | 'complex64', direct: boolean) {
  const L = invLayout(n, dtype);
  const E = direct ? 'vec4f' as const : 'f32' as const;
  return smallProgram('inv_small', 'inv/inv_small.wgsl', 'inv_small', dtype, L.WG, {
    N: n, N1: n === 1, N2: n === 2, N3: n === 3, N4: n === 4, NN: n * n, W2: 2 * n * n,
    S: L.S, PAD: L.PAD, TILE: L.TILE, DIRECT: direct, ...unrolled(n, direct),
  }, { inputs: { A: E }, outputs: { X: E, info: 'i32' }, uniforms: { count: 'u32' } });
}

/**
 * X = A⁻¹ and info for a batch of n ≤ 4 matrices, one dispatch. `direct`: the direct-load
 * kernel (the default where it applies) or the staged one (tests compare their bits).
 */
export function invSmallGpu(A: Tensor, direct = invDirect(A.cols, A.dtype)): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'inv';
  const dtype = gpuFloatDType(A, who, 'A');
  const n = A.cols;
  const count = batchCount(A);
  const X = emptyGpu(dtype, A.shape, who);
  if (n === 0) return { X, info: zeroInfo(A.shape.slice(0, -2)) }; // 0×0 matrices invert trivially
  const info = infoTensor(A.shape.slice(0, -2), who);
  if (count === 0) return { X, info };
  const L = invLayout(n, dtype);
  checkIndexRange(count * L.S + L.WG * L.S, who);
  if (direct && !invDirect(n, dtype)) throw new ArgumentError(`${who}: the direct-load kernel takes 2×2 and 4×4 float32 only`);
  runProgram(invSmallProgram(n, dtype, direct), {
    inputs: { A: A.gpuStorage() }, outputs: { X: X.gpuStorage(), info: info.gpuStorage() },
    uniforms: { count },
    workgroups: Math.ceil(count / L.WG),
  });
  return { X, info };
}

function invGpu(A: Tensor): { X: Tensor; info: Tensor<'int32'> } {
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`inv: A is ${fmtShape(A.shape)}, expected square matrices`);
  if (n <= 4) return invSmallGpu(A);
  if (n <= LU_MAX_N) return invLuGpu(A);
  return invBlockedGpu(A);
}

export function registerInvGpu(): void {
  register('inv', ['float32', 'complex64'], 'gpu', invGpu);
}
