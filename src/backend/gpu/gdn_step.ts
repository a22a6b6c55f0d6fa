// One token of the gated delta rule on the GPU (registry op gdnRecurrentStep, gdn.recurrentStep):
// one dispatch of shaders/gdn/step.wgsl (after two small copies on devices with 8 storage
// buffers per stage), one workgroup per (sequence, value head), the state
// read and written once (a decoding step is memory-bound). float32, and float16 storage (two
// halves per u32 word) with float32 arithmetic and a float32 state. No host reads.
import type { Tensor } from '../../core/tensor.js';
import { DTypeError, ShapeError, fmtShape } from '../../core/errors.js';
import type { GdnPlan } from '../ops.js';
import { register } from '../registry.js';
import { runProgram, cachedProgram, type ProgramDecl } from './program.js';
import { loadShader } from './preprocess.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';
import { gpuLimits } from './device.js';
import { bufferOf } from './pool.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { checkIndexRange } from './small.js';

/** Threads per workgroup: within WebGPU's default limit (256 invocations). */
const WG = 256;
/** Rows of the state a thread keeps in registers before the columns per tile shrink. */
const MAX_ROWS = 16;

/** The thread layout: RG row groups × CW columns per tile (≤ WG threads), ROWS = ⌈dk / RG⌉ rows per thread. */
export interface GdnStepPlan {
  RG: number;
  CW: number;
  ROWS: number;
}

const pow2ceil = (x: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

/**
 * Up to 32 columns per tile (one warp's coalesced row segment); fewer (down to 2, a float16
 * word) for a large dk so that a thread keeps at most MAX_ROWS rows. `cw` (benchmarks only,
 * bench/gdn-step-tune.mjs) asks for another tile width (a power of two, 2 … WG).
 */
export function gdnStepPlan(dk: number, dv: number, cw?: number): GdnStepPlan {
  if (cw !== undefined) return { RG: WG / cw, CW: cw, ROWS: Math.max(1, Math.ceil(dk / (WG / cw))) };
  let CW = Math.max(2, Math.min(32, pow2ceil(dv)));
  while (CW > 2 && Math.ceil(dk / (WG / CW)) > MAX_ROWS) CW /= 2;
  // no more row groups than rows: small heads get small workgroups
  const RG = Math.min(WG / CW, pow2ceil(dk));
  return { RG, CW, ROWS: Math.max(1, Math.ceil(dk / RG)) };
}

const UNIFORMS = {
  count: 'u32', H: 'u32', HV: 'u32', dk: 'u32', dv: 'u32', scale: 'f32', l2: 'u32',
} as const;

const declOf = (e: 'f32' | 'u32') => ({
  inputs: { S: 'f32' as const, q: e, k: e, v: e, beta: e, g: e },
  outputs: { o: e, Snew: 'f32' as const, status: 'i32' as const },
  uniforms: UNIFORMS,
});

/** beta and g in one buffer (8 storage bindings: WebGPU's default maxStorageBuffersPerShaderStage). */
const declBg = (e: 'f32' | 'u32') => ({
  inputs: { S: 'f32' as const, q: e, k: e, v: e, bg: e },
  outputs: { o: e, Snew: 'f32' as const, status: 'i32' as const },
  uniforms: { ...UNIFORMS, goff: 'u32' as const },
});

function stepSpec<D extends ProgramDecl>(dtype: 'float32' | 'float16', plan: GdnStepPlan, bg: boolean, decl: D) {
  const half = dtype === 'float16';
  const DTYPE = half ? 'f16' : 'f32';
  const key = `${DTYPE}|rg${plan.RG}|cw${plan.CW}|rows${plan.ROWS}${bg ? '|bg' : ''}`;
  return cachedProgram(`gdn.step|${key}`, () => ({
    name: 'gdn.step', key, entryPoint: `gdn_step_${DTYPE}`,
    workgroupSize: [plan.RG * plan.CW, 1, 1] as [number, number, number],
    workgroupBytes: (2 * plan.RG * plan.CW + 2 * plan.RG + 1) * 4,
    decl,
    body: () => loadShader('gdn/step.wgsl', {
      HALF: half, BG: bg, DTYPE, RG: plan.RG, CW: plan.CW, ROWS: plan.ROWS, WG: plan.RG * plan.CW,
    }),
  }));
}

/** The kernel variant for a dtype and plan (the shapes, scale and qkL2norm are uniforms). */
export function gdnStepProgram(dtype: 'float32' | 'float16', plan: GdnStepPlan) {
  return stepSpec(dtype, plan, false, declOf(dtype === 'float16' ? 'u32' : 'f32'));
}

/** The variant reading beta and g from one buffer (devices with 8 storage buffers per stage). */
export function gdnStepBgProgram(dtype: 'float32' | 'float16', plan: GdnStepPlan) {
  return stepSpec(dtype, plan, true, declBg(dtype === 'float16' ? 'u32' : 'f32'));
}

function gdnRecurrentStepGpu(
  state: Tensor, q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, plan: GdnPlan,
): { o: Tensor; state: Tensor; status: Tensor<'int32'> } {
  const who = 'gdn.recurrentStep';
  const dtype = plan.dtype;
  if (dtype !== 'float32' && dtype !== 'float16') {
    throw new DTypeError(`${who}: q is ${dtype}; the GPU takes float32 or float16`);
  }
  for (const [t, name] of [[state, 'state'], [q, 'q'], [k, 'k'], [v, 'v'], [beta, 'beta'], [g, 'g']] as const) requireGpu(t, who, name);
  const { seqs: N, heads: H, vHeads: HV, dk, dv } = plan;
  if (state.dtype !== 'float32') throw new DTypeError(`${who}: state is ${state.dtype}; expected float32 on the GPU`);
  const want = (t: Tensor, shape: number[], name: string): void => {
    if (t.size !== shape.reduce((x, y) => x * y, 1)) throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape)}, expected ${fmtShape(shape)}`);
  };
  want(q, [N, H, dk], 'q');
  want(k, [N, H, dk], 'k');
  want(v, [N, HV, dv], 'v');
  want(beta, [N, HV], 'beta');
  want(g, [N, HV], 'g');
  want(state, [N, HV, dk, dv], 'state');
  const o = emptyGpu(dtype, [N, HV, dv], who);
  const Snew = emptyGpu('float32', [N, HV, dk, dv], who);
  const status = emptyGpu('int32', [N, HV], who);
  const count = N * HV;
  if (count === 0) return { o, state: Snew, status };
  checkIndexRange(count * dk * dv, who);
  const sp = gdnStepPlan(dk, dv);
  const common = { S: state.gpuStorage(), q: q.gpuStorage(), k: k.gpuStorage(), v: v.gpuStorage() };
  const outputs = { o: o.gpuStorage(), Snew: Snew.gpuStorage(), status: status.gpuStorage() };
  const uniforms = { count, H, HV, dk, dv, scale: plan.scale, l2: plan.qkL2norm ? 1 : 0 };
  if (gpuLimits(who).maxStorageBuffersPerShaderStage >= 9) {
    runProgram(gdnStepProgram(dtype, sp), {
      inputs: { ...common, beta: beta.gpuStorage(), g: g.gpuStorage() }, outputs, uniforms, workgroups: count,
    });
  } else {
    // beta's words, then g's, copied into one buffer (a few bytes per head)
    const bytes = dtype === 'float16' ? 4 * Math.ceil(count / 2) : 4 * count;
    const bg = emptyGpu('uint32', [(2 * bytes) / 4], who);
    const enc = commandEncoder(who);
    enc.copyBufferToBuffer(bufferOf(beta.gpuStorage()), 0, bufferOf(bg.gpuStorage()), 0, bytes);
    enc.copyBufferToBuffer(bufferOf(g.gpuStorage()), 0, bufferOf(bg.gpuStorage()), bytes, bytes);
    recordedCommand();
    runProgram(gdnStepBgProgram(dtype, sp), {
      inputs: { ...common, bg: bg.gpuStorage() }, outputs, uniforms: { ...uniforms, goff: bytes / 4 }, workgroups: count,
    });
    bg.dispose();
  }
  return { o, state: Snew, status };
}

export function registerGdnStepGpu(): void {
  register('gdnRecurrentStep', ['float32', 'float16'], 'gpu', gdnRecurrentStepGpu);
}
