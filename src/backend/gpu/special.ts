// GPU entries of the elementwise special functions (shaders/special), float32 only.
// Same registry ops and signatures as src/backend/cpu/special.ts.
import { Tensor } from '../../core/tensor.js';
import type { DType } from '../../core/dtype.js';
import type { ElementwiseLayout } from '../../core/broadcast.js';
import { DeviceError, ShapeError } from '../../core/errors.js';
import { register } from '../registry.js';
import { logspacePow, logspaceEndpointBits } from '../../core/pow.js';
import { runProgram, cachedProgram, type GpuProgram, type ProgramDecl, type UniformValues } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';

/** Threads per workgroup and elements per thread (a tile of WG·PER per workgroup). */
const WG = 256;
const PER = 4;
const TILE = WG * PER;
const MAX_GPU_DIMS = 8;

/** The broadcast layout's uniforms (shaders/special/broadcast.wgsl). */
const BROADCAST_UNIFORMS = {
  total: 'u32', ndim: 'u32', dims0: 'vec4u', dims1: 'vec4u', sa0: 'vec4u', sa1: 'vec4u', sb0: 'vec4u', sb1: 'vec4u',
} as const;

/** The bindings of each kernel of shaders/special. */
const SPECIAL_DECLS = {
  frexp: { inputs: { x: 'u32' }, outputs: { mant: 'u32', expo: 'i32' }, uniforms: { total: 'u32' } },
  heaviside: { inputs: { x: 'u32', v: 'u32' }, outputs: { out: 'u32' }, uniforms: BROADCAST_UNIFORMS },
  laguerre: { inputs: { xs: 'f32', ns: 'f32' }, outputs: { out: 'u32' }, uniforms: BROADCAST_UNIFORMS },
  logspace: {
    inputs: {}, outputs: { out: 'u32' },
    uniforms: {
      total: 'u32', half: 'u32', first: 'u32', last: 'u32', start: 'f32', end: 'f32', step: 'f32', l1: 'f32', l2: 'f32', l3: 'f32',
    },
  },
} as const satisfies Record<string, ProgramDecl>;
type SpecialOp = keyof typeof SPECIAL_DECLS;

const VARIANT_DEFINES: Record<string, Defines> = {
  same: { SAME: true }, splat_b: { SPLAT_B: true }, splat_a: { SPLAT_A: true }, strided: {},
};

/** The kernel of shaders/special/<op>.wgsl for a variant (broadcast layouts: same, splat_a, splat_b, strided). */
export function specialProgram<K extends SpecialOp>(op: K, variant: string): GpuProgram<(typeof SPECIAL_DECLS)[K]> {
  return cachedProgram(`special.${op}|${variant}`, () => {
    const defs: Defines = { ...dtypeDefines('float32'), WG, PER, VARIANT: variant, ...(VARIANT_DEFINES[variant] ?? {}) };
    return {
      name: `special.${op}`, key: `f32|${variant}|wg${WG}x${PER}`, entryPoint: `${op}_${variant}_f32`,
      workgroupSize: [WG, 1, 1] as [number, number, number], decl: SPECIAL_DECLS[op],
      body: () => loadShader(`special/${op}.wgsl`, defs),
    };
  });
}

function check32(total: number, who: string): void {
  if (total > 0xffffffff) throw new DeviceError(`${who}: ${total} elements exceed the GPU kernels' 32-bit indexing`);
}

function frexp(x: Tensor): { mantissa: Tensor; exponent: Tensor<'int32'> } {
  const who = 'frexp';
  requireGpu(x, who, 'x');
  const mantissa = emptyGpu('float32', x.shape, who);
  const exponent = emptyGpu('int32', x.shape, who);
  check32(x.size, who);
  runProgram(specialProgram('frexp', 'bits'), {
    inputs: { x: x.gpuStorage() }, outputs: { mant: mantissa.gpuStorage(), expo: exponent.gpuStorage() },
    uniforms: { total: x.size },
    workgroups: Math.ceil(x.size / TILE),
  });
  return { mantissa, exponent };
}

/** The variant and uniforms for a broadcast layout (shaders/special/broadcast.wgsl). */
function layoutVariant(a: Tensor, b: Tensor, L: ElementwiseLayout, who: string): { variant: string; uniforms: UniformValues<typeof BROADCAST_UNIFORMS> } {
  const nd = L.dims.length;
  let variant = 'strided';
  if (a.size === L.size && b.size === L.size) variant = 'same';
  else if (a.size === L.size && b.size === 1) variant = 'splat_b';
  else if (a.size === 1 && b.size === L.size) variant = 'splat_a';
  else if (nd > MAX_GPU_DIMS) {
    throw new ShapeError(`${who}: this broadcast needs ${nd} dims after merging; the GPU kernel takes up to ${MAX_GPU_DIMS}`);
  }
  const pad = (v: number[]) => [...v, ...new Array<number>(8 - v.length).fill(0)];
  const dims = variant === 'strided' ? pad(L.dims) : pad([]);
  const sa = variant === 'strided' ? pad(L.aStrides) : pad([]);
  const sb = variant === 'strided' ? pad(L.bStrides) : pad([]);
  if (variant === 'strided') for (let i = nd; i < 8; i++) dims[i] = 1;
  const v4 = (v: number[], i: number) => [v[i], v[i + 1], v[i + 2], v[i + 3]] as const;
  const uniforms = {
    total: L.size, ndim: variant === 'strided' ? nd : 0,
    dims0: v4(dims, 0), dims1: v4(dims, 4), sa0: v4(sa, 0), sa1: v4(sa, 4), sb0: v4(sb, 0), sb1: v4(sb, 4),
  };
  return { variant, uniforms };
}

function binary(op: 'heaviside' | 'laguerre', who: string) {
  return (a: Tensor, b: Tensor, L: ElementwiseLayout): Tensor => {
    requireGpu(a, who, 'x');
    requireGpu(b, who, op === 'heaviside' ? 'values' : 'n');
    check32(L.size, who);
    const out = emptyGpu('float32', L.shape, who);
    if (L.size === 0) return out;
    const { variant, uniforms } = layoutVariant(a, b, L, who);
    const outputs = { out: out.gpuStorage() };
    if (op === 'heaviside') runProgram(specialProgram(op, variant), { inputs: { x: a.gpuStorage(), v: b.gpuStorage() }, outputs, uniforms, workgroups: Math.ceil(L.size / TILE) });
    else runProgram(specialProgram(op, variant), { inputs: { xs: a.gpuStorage(), ns: b.gpuStorage() }, outputs, uniforms, workgroups: Math.ceil(L.size / TILE) });
    return out;
  };
}

/** v ≈ a + b + c with a and b f32 values of at most 12 significant bits (shaders/special/logspace.wgsl). */
function split12(v: number): [number, number, number] {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const top = (x: number) => { f[0] = x; u[0] &= 0xfffff000; return f[0]; };
  const a = top(v);
  const b = top(v - a);
  return [a, b, Math.fround(v - a - b)];
}

function logspace(steps: number, start: number, end: number, base: number, dtype: DType): Tensor {
  const who = 'logspace';
  check32(steps, who);
  if (!(base > 0 && base < Infinity) || !Number.isFinite(start) || !Number.isFinite(end)) {
    // Negative or zero bases (signs, pow's special cases) and non-finite exponents: the
    // CPU kernel's exact semantics, then one upload.
    const host = Tensor.empty('float32', [steps]);
    logspacePow(steps, start, end, base, host.dataSync() as Float32Array);
    return host.to('gpu');
  }
  const out = emptyGpu(dtype, [steps], who);
  if (steps === 0) return out;
  // the host's double pow rounded once, as the CPU computes them (src/core/pow.ts)
  const [first, last] = logspaceEndpointBits(steps, start, end, base);
  const [l1, l2, l3] = split12(Math.log2(base));
  const step = steps > 1 ? (end - start) / (steps - 1) : 0;
  runProgram(specialProgram('logspace', 'torch'), {
    inputs: {}, outputs: { out: out.gpuStorage() },
    uniforms: { total: steps, half: Math.floor(steps / 2), first, last, start, end, step, l1, l2, l3 },
    workgroups: Math.ceil(steps / TILE),
  });
  return out;
}

export function registerSpecialGpu(): void {
  register('frexp', ['float32'], 'gpu', frexp);
  register('heaviside', ['float32'], 'gpu', binary('heaviside', 'heaviside'));
  register('laguerrePolynomialL', ['float32'], 'gpu', binary('laguerre', 'laguerrePolynomialL'));
  register('logspace', ['float32'], 'gpu', logspace);
}
