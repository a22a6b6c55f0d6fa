// GPU entries of the elementwise special functions (shaders/special), float32 only.
// Same registry ops and signatures as src/backend/cpu/special.ts.
import { Tensor } from '../../core/tensor.js';
import type { DType } from '../../core/dtype.js';
import type { ElementwiseLayout } from '../../core/broadcast.js';
import { DeviceError, ShapeError } from '../../core/errors.js';
import { register } from '../registry.js';
import { native } from '../cpu/binding.js';
import { runProgram, type GpuProgram, type UniformField } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';

/** Threads per workgroup and elements per thread (a tile of WG·PER per workgroup). */
const WG = 256;
const PER = 4;
const TILE = WG * PER;
const MAX_GPU_DIMS = 8;

const programs = new Map<string, GpuProgram>();

function program(op: string, variant: string, extra: Defines = {}): GpuProgram {
  const id = `${op}|${variant}`;
  let p = programs.get(id);
  if (!p) {
    const defs: Defines = { ...dtypeDefines('float32'), WG, PER, VARIANT: variant, ...extra };
    p = {
      name: `special.${op}`, key: `f32|${variant}|wg${WG}x${PER}`, entryPoint: `${op}_${variant}_f32`,
      workgroupSize: [WG, 1, 1], source: () => loadShader(`special/${op}.wgsl`, defs),
    };
    programs.set(id, p);
  }
  return p;
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
  runProgram(program('frexp', 'bits'), {
    inputs: [x.gpuStorage()], outputs: [mantissa.gpuStorage(), exponent.gpuStorage()],
    uniforms: [{ name: 'total', type: 'u32', value: x.size }],
    workgroups: Math.ceil(x.size / TILE),
  });
  return { mantissa, exponent };
}

/** The variant and uniforms for a broadcast layout (shaders/special/broadcast.wgsl). */
function layoutVariant(a: Tensor, b: Tensor, L: ElementwiseLayout, who: string): { variant: string; uniforms: UniformField[] } {
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
  const uniforms: UniformField[] = [
    { name: 'total', type: 'u32', value: L.size }, { name: 'ndim', type: 'u32', value: variant === 'strided' ? nd : 0 },
    { name: 'pad0', type: 'u32', value: 0 }, { name: 'pad1', type: 'u32', value: 0 },
    { name: 'dims0', type: 'vec4u', value: dims.slice(0, 4) }, { name: 'dims1', type: 'vec4u', value: dims.slice(4, 8) },
    { name: 'sa0', type: 'vec4u', value: sa.slice(0, 4) }, { name: 'sa1', type: 'vec4u', value: sa.slice(4, 8) },
    { name: 'sb0', type: 'vec4u', value: sb.slice(0, 4) }, { name: 'sb1', type: 'vec4u', value: sb.slice(4, 8) },
  ];
  return { variant, uniforms };
}

const VARIANT_DEFINES: Record<string, Defines> = {
  same: { SAME: true }, splat_b: { SPLAT_B: true }, splat_a: { SPLAT_A: true }, strided: {},
};

function binary(op: 'heaviside' | 'laguerre', who: string) {
  return (a: Tensor, b: Tensor, L: ElementwiseLayout): Tensor => {
    requireGpu(a, who, 'x');
    requireGpu(b, who, op === 'heaviside' ? 'values' : 'n');
    check32(L.size, who);
    const out = emptyGpu('float32', L.shape, who);
    if (L.size === 0) return out;
    const { variant, uniforms } = layoutVariant(a, b, L, who);
    runProgram(program(op, variant, VARIANT_DEFINES[variant]), {
      inputs: [a.gpuStorage(), b.gpuStorage()], outputs: [out.gpuStorage()], uniforms,
      workgroups: Math.ceil(L.size / TILE),
    });
    return out;
  };
}

/** f32 endpoints as the CPU computes them (double pow, rounded once). */
function endpoints(steps: number, start: number, end: number, base: number): [number, number] {
  const e = new Float32Array(2);
  native().logspace(0, e, steps === 1 ? 1 : 2, start, end, base);
  const u = new Uint32Array(e.buffer);
  return [u[0], steps === 1 ? u[0] : u[1]];
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
    native().logspace(0, host.dataSync(), steps, start, end, base);
    return host.to('gpu');
  }
  const out = emptyGpu(dtype, [steps], who);
  if (steps === 0) return out;
  const [first, last] = endpoints(steps, start, end, base);
  const [l1, l2, l3] = split12(Math.log2(base));
  const step = steps > 1 ? (end - start) / (steps - 1) : 0;
  runProgram(program('logspace', 'torch'), {
    inputs: [], outputs: [out.gpuStorage()],
    uniforms: [
      { name: 'total', type: 'u32', value: steps }, { name: 'half', type: 'u32', value: Math.floor(steps / 2) },
      { name: 'first', type: 'u32', value: first }, { name: 'last', type: 'u32', value: last },
      { name: 'start', type: 'f32', value: start }, { name: 'end', type: 'f32', value: end },
      { name: 'step', type: 'f32', value: step }, { name: 'l1', type: 'f32', value: l1 },
      { name: 'l2', type: 'f32', value: l2 }, { name: 'l3', type: 'f32', value: l3 },
    ],
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
