// The WY stage of the GPU Gated DeltaNet forward (docs/gdn.md "GPU kernels") and the batched
// unit-lower inverse behind gdn.invUnitLower. Per (chunk, value head), recorded in order:
//   shaders/gdn/gdn_wy_kkt.wgsl     γ (→ gcum), A = β_i·(k_i·k_j)·exp(γ_i − γ_j) strictly lower, status
//   shaders/gdn/inv_unit_lower.wgsl T = (I + A)⁻¹ (also the registry op invUnitLower)
//   shaders/gdn/gdn_wy_wu.wgsl      W = T·diag(β·Γ)·K, U = T·diag(β)·V, status for v
// plus shaders/gdn/gdn_wy_rows.wgsl (qkL2norm copies qn/kn and their status; without qkL2norm
// the Gram kernel checks q) and shaders/gdn/gdn_s0_check.wgsl (status of the initial state).
// Tile sizes are parameters of the program keys (GdnWyTiles), picked from the device's limits;
// bench/gdn-wy-tune.mjs times them.
import { Tensor } from '../../core/tensor.js';
import { planBatch } from '../../core/batch.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import type { GdnInputs, GdnPlan } from '../ops.js';
import { register } from '../registry.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { checkIndexRange } from './small.js';
import { gpuLimits, type GpuLimits } from './device.js';
import { solveTriangularGpu } from './trsm.js';
import type { GdnChunkTable, GdnWy } from './gdn_chunks.js';

/** Tile sizes of the WY stage's kernels (all part of the program keys). */
export interface GdnWyTiles {
  /** Key columns per staged tile of the Gram kernel (8 … 128, a power of two). */
  dkt: number;
  /** Rows and columns of a thread's tile in the Gram kernel (4 or 8). */
  gr: 4 | 8;
  /** Output columns per workgroup of the W/U kernel (4 … 128, a power of two). */
  nt: number;
  /** Rows per thread of the W/U kernel (4 or 8). */
  rt: 4 | 8;
  /** Column quads per thread of the W/U kernel (1 or 2, at most nt / 4). */
  cw: 1 | 2;
  /** The W/U kernel's rows per thread are two mirrored blocks of rt/2 (equal work per row group over the triangle). */
  bal: boolean;
  /** The W/U kernel stages T in workgroup memory too (else reads it from global memory). */
  stageT: boolean;
  /** Threads per workgroup of the inverse (64, 128 or 256; C/invCols threads per system). */
  invWg: number;
  /** Columns of T per thread of the inverse: 4 (inv_unit_lower.wgsl) or 1 (inv_unit_lower_col.wgsl). */
  invCols: 1 | 4;
}

/** (batch, time, head) element strides of a (heads, dim) tensor in the plan's layout: src/gdn/plan.ts gdnStrides (backends do not import ops). */
function gdnStrides(plan: GdnPlan, heads: number, dim: number): { sB: number; sT: number; sH: number } {
  const T = plan.time;
  return plan.layout === 'bthd' ? { sB: T * heads * dim, sT: heads * dim, sH: dim } : { sB: heads * T * dim, sT: dim, sH: T * dim };
}

// Four columns of T per thread by default: one column per thread (a shorter serial chain per
// thread) measured slower on the H200 (bench/results/gdn-tune-h200-run3.txt)
const INV_COLS: 1 | 4 = 4;

const pow2ceil = (x: number): number => {
  let p = 1;
  while (p < x) p *= 2;
  return p;
};

/** Workgroup bytes of the Gram kernel: the staged K tile (rows skewed by a vec4 per four), γ, β and the status word. */
export function kktBytes(C: number, dkt: number): number {
  return (C * dkt / 4 + C / 4) * 16 + 2 * C * 4 + 4;
}

/** Workgroup bytes of the W/U kernel: the staged X tile (and T), the row scales and the status word. */
export function wuBytes(C: number, nt: number, stageT = false): number {
  return C * nt * 4 + (stageT ? C * C * 4 : 0) + C * 4 + 4;
}

const kktThreads = (C: number, gr: number): number => Math.ceil(((C / gr) * (C / gr + 1)) / 2 / 32) * 32;
const wuThreads = (C: number, nt: number, rt: number, cw = 1): number => (C / rt) * (nt / 4 / cw);

/**
 * The default tiles for C, dk, dv on a device: the widest K tile that fits (one pass over dk
 * when it can), 4×4 Gram tiles per thread, W/U tiles of up to 64 columns with 8 rows per thread
 * in two mirrored blocks, the inverse in 256-thread groups at C = 64 (128 at 32, 64 at 16). `over` replaces any of them (bench, tests).
 */
export function gdnWyTiles(C: number, dk: number, dv: number, limits: Pick<GpuLimits, 'maxComputeWorkgroupStorageSize' | 'maxComputeInvocationsPerWorkgroup'>, over: Partial<GdnWyTiles> = {}): GdnWyTiles {
  const L = limits.maxComputeWorkgroupStorageSize, I = limits.maxComputeInvocationsPerWorkgroup;
  const dk4 = Math.max(4, pow2ceil(dk));
  let dkt = over.dkt ?? 8;
  // K tiles of 32 columns beat 64 and 128 on the H200 (bench/results/gdn-tune-h200.txt)
  if (over.dkt === undefined) for (const t of [32, 16]) if (t <= dk4 && kktBytes(C, t) <= L) { dkt = t; break; }
  const gr = over.gr ?? 4;
  // 4 rows per thread in mirrored blocks: every row group does the same number of steps over the
  // triangle; 8 rows were slower on the H200 (register pressure; bench/results/gdn-tune-h200-run3.txt)
  const rt = over.rt ?? 4;
  const cw = over.cw ?? 1;
  const bal = over.bal ?? true;
  const stageT = over.stageT ?? false;
  let nt = over.nt ?? 4;
  const cols = Math.max(4, pow2ceil(Math.max(dk, dv)));
  if (over.nt === undefined) {
    for (const t of [64, 32, 16, 8]) if (t <= cols && wuBytes(C, t, stageT) <= L && wuThreads(C, t, rt, cw) <= I && 4 * cw <= t) { nt = t; break; }
  }
  const invWg = over.invWg ?? 64;
  const invCols = over.invCols ?? INV_COLS;
  return { dkt, gr, nt, rt, cw, bal, stageT, invWg, invCols };
}

export function checkTiles(C: number, t: GdnWyTiles, limits: GpuLimits, who: string): void {
  const ok = [8, 16, 32, 64, 128].includes(t.dkt) && (t.gr === 4 || t.gr === 8) && [4, 8, 16, 32, 64, 128].includes(t.nt) && (t.rt === 4 || t.rt === 8) && t.rt <= C
    && [64, 128, 256].includes(t.invWg) && (t.invCols === 1 || t.invCols === 4) && t.invWg % (C / t.invCols) === 0 && kktThreads(C, t.gr) <= limits.maxComputeInvocationsPerWorkgroup
    // the Gram kernel's first C threads load β and g
    && kktThreads(C, t.gr) >= C
    && (t.cw === 1 || t.cw === 2) && 4 * t.cw <= t.nt
    && wuThreads(C, t.nt, t.rt, t.cw) <= limits.maxComputeInvocationsPerWorkgroup && t.invWg <= limits.maxComputeInvocationsPerWorkgroup
    && kktBytes(C, t.dkt) <= limits.maxComputeWorkgroupStorageSize && wuBytes(C, t.nt, t.stageT) <= limits.maxComputeWorkgroupStorageSize;
  if (!ok) throw new ArgumentError(`${who}: GDN WY tiles ${JSON.stringify(t)} do not fit chunk ${C} on this device`);
}

// Loaders of the input bindings by element index: float32 words or packed float16 halves.
const LOADER_OF: Record<string, string> = { Q: 'ld_q', K: 'ld_k', X: 'ld_x', beta: 'ld_beta', g: 'ld_g' };
function loaders(names: readonly string[], half: boolean | Record<string, boolean>): string {
  return names.map((n) => ((typeof half === 'boolean' ? half : half[n])
    ? `fn ${LOADER_OF[n]}(e: u32) -> f32 { return unpack2x16float(${n}[e >> 1u])[e & 1u]; }`
    : `fn ${LOADER_OF[n]}(e: u32) -> f32 { return bitcast<f32>(${n}[e]); }`)).join('\n');
}

const STRIDES_K = { k_sB: 'u32', k_sT: 'u32', k_sH: 'u32' } as const;
const STRIDES_B = { b_sB: 'u32', b_sT: 'u32', b_sH: 'u32' } as const;

/** The generated parts of gdn_wy_kkt.wgsl for GR×GR tiles: accumulators, one vec4 column step, the masked A stores. */
function kktBody(gr: number): Record<string, string> {
  const R = Array.from({ length: gr }, (_, r) => r), Q = Array.from({ length: gr / 4 }, (_, q) => q);
  const ACC = R.flatMap((r) => Q.map((q) => `  var a${r}_${q} = vec4f(0.0);`)).join('\n');
  const STEP = [
    ...R.map((r) => `        let x${r} = ks[krow(i0 + ${r}u) + q];`),
    ...R.map((c) => `        let y${c} = ks[krow(j0 + ${c}u) + q];`),
    ...R.flatMap((r) => Q.map((q) => `        a${r}_${q} += vec4f(${[0, 1, 2, 3].map((k) => `dot(x${r}, y${4 * q + k})`).join(', ')});`)),
  ].join('\n');
  const STORE = [
    ...Q.map((q) => `    let gj${q} = vec4f(${[0, 1, 2, 3].map((k) => `gam[j0 + ${4 * q + k}u]`).join(', ')});`),
    ...Q.map((q) => `    let cj${q} = vec4u(${[0, 1, 2, 3].map((k) => `j0 + ${4 * q + k}u`).join(', ')});`),
    ...R.flatMap((r) => Q.map((q) => `    A[(pair * C + i0 + ${r}u) * (C / 4u) + j0 / 4u + ${q}u] = ` +
      `select(vec4f(0.0), bet[i0 + ${r}u] * a${r}_${q} * exp(vec4f(gam[i0 + ${r}u]) - gj${q}), cj${q} < vec4u(i0 + ${r}u));`)),
  ].join('\n');
  return { ACC, STEP, STORE };
}

/**
 * The Gram / A kernel (gdn_wy_kkt.wgsl) for chunk C, K tile dkt, thread tile gr; kHalf: k (and q)
 * are float16 (k is float32 when it is the qkL2norm copy), bHalf: β and g are; checkQ: it also
 * checks q (binding Q, in k's dtype).
 */
export function gdnWyKktProgram(C: number, dkt: number, gr: number, kHalf: boolean, bHalf: boolean, checkQ: boolean) {
  const WG = kktThreads(C, gr);
  const key = `C=${C},DKT=${dkt},GR=${gr},kh=${+kHalf},bh=${+bHalf},q=${+checkQ}`;
  return cachedProgram(`gdn_wy_kkt|${key}`, () => ({
    name: 'gdn_wy_kkt', key, entryPoint: 'gdn_wy_kkt', workgroupSize: [WG, 1, 1] as [number, number, number],
    workgroupBytes: kktBytes(C, dkt),
    decl: {
      inputs: { K: 'u32', beta: 'u32', g: 'u32', Q: 'u32', table: 'vec4u' },
      outputs: { gcum: 'f32', A: 'vec4f', status: 'atomic<i32>' },
      uniforms: { pairs: 'u32', hv_count: 'u32', group: 'u32', dk: 'u32', ...STRIDES_K, ...STRIDES_B },
    } as const,
    body: () => loadShader('gdn/gdn_wy_kkt.wgsl', { C, DKT: dkt, GR: gr, WG, CHECK_Q: checkQ, LOADERS: loaders(['K', 'beta', 'g', 'Q'], { K: kHalf, Q: kHalf, beta: bHalf, g: bHalf }), ...kktBody(gr) }),
  }));
}

/** The generated parts of inv_unit_lower.wgsl: identity init, the update by block J, the unit triangle, the stores. */
function invBody(): Record<string, string> {
  const lane = ['x', 'y', 'z', 'w'];
  const r16 = Array.from({ length: 16 }, (_, r) => r);
  const ZERO = r16.map((r) => `      T[xb + ${r}u * Q] = vec4f(0.0);`).join('\n');
  const INIT = r16.map((r) => `    var a${r} = eye4(i32(I * 16u + ${r}u) - c4);`).join('\n');
  const UPDATE: string[] = [];
  for (let q = 0; q < 4; q++) {
    UPDATE.push(`      { ${[0, 1, 2, 3].map((k) => `let x${k} = T[xr + ${4 * q + k}u * Q];`).join(' ')}`);
    for (const r of r16) {
      UPDATE.push(`        { let l = A[lb + (I * 16u + ${r}u) * Q + J * 4u + ${q}u]; ` +
        `a${r} = fma(vec4f(-l.x), x0, fma(vec4f(-l.y), x1, fma(vec4f(-l.z), x2, fma(vec4f(-l.w), x3, a${r})))); }`);
    }
    UPDATE.push('      }');
  }
  const tri: string[] = [];
  for (let r = 1; r < 16; r++) {
    tri.push(`    { let row = lb + (I * 16u + ${r}u) * Q + I * 4u;`);
    for (let q = 0; 4 * q < r; q++) {
      tri.push(`      { let l = A[row + ${q}u];`);
      for (let k = 0; k < 4 && 4 * q + k < r; k++) tri.push(`        a${r} = fma(vec4f(-l.${lane[k]}), a${4 * q + k}, a${r});`);
      tri.push('      }');
    }
    tri.push('    }');
  }
  // exact +0 above the diagonal: NVIDIA's contraction of the updates can leave −0 there
  const STORE = r16.map((r) => `    T[xb + ${r}u * Q] = select(a${r}, vec4f(0.0), vec4i(c4) + vec4i(0, 1, 2, 3) > vec4i(i32(I * 16u + ${r}u)));`).join('\n');
  return { ZERO, INIT, UPDATE: UPDATE.join('\n'), TRIANGLE: tri.join('\n'), STORE };
}

/** The generated parts of inv_unit_lower_col.wgsl (one column per thread, scalar accumulators). */
function invColBody(): Record<string, string> {
  const lane = ['x', 'y', 'z', 'w'];
  const r16 = Array.from({ length: 16 }, (_, r) => r);
  const ZERO = r16.map((r) => `      T[xb + ${r}u * C] = 0.0;`).join('\n');
  const INIT = r16.map((r) => `    var a${r} = select(0.0, 1.0, I * 16u + ${r}u == c);`).join('\n');
  const UPDATE: string[] = [];
  for (let q = 0; q < 4; q++) {
    UPDATE.push(`      { ${[0, 1, 2, 3].map((k) => `let x${k} = T[xr + ${4 * q + k}u * C];`).join(' ')}`);
    for (const r of r16) {
      UPDATE.push(`        { let l = A[lb + (I * 16u + ${r}u) * Q + J * 4u + ${q}u]; ` +
        `a${r} = fma(-l.x, x0, fma(-l.y, x1, fma(-l.z, x2, fma(-l.w, x3, a${r})))); }`);
    }
    UPDATE.push('      }');
  }
  const tri: string[] = [];
  for (let r = 1; r < 16; r++) {
    tri.push(`    { let row = lb + (I * 16u + ${r}u) * Q + I * 4u;`);
    for (let q = 0; 4 * q < r; q++) {
      tri.push(`      { let l = A[row + ${q}u];`);
      for (let k = 0; k < 4 && 4 * q + k < r; k++) tri.push(`        a${r} = fma(-l.${lane[k]}, a${4 * q + k}, a${r});`);
      tri.push('      }');
    }
    tri.push('    }');
  }
  // exact +0 above the diagonal (a contraction of the updates can leave −0 there)
  const STORE = r16.map((r) => `    T[xb + ${r}u * C] = select(a${r}, 0.0, c > I * 16u + ${r}u);`).join('\n');
  return { ZERO, INIT, UPDATE: UPDATE.join('\n'), TRIANGLE: tri.join('\n'), STORE };
}

/** The one-column-per-thread inverse (inv_unit_lower_col.wgsl) for C ∈ {16, 32, 64} in groups of wg threads. */
export function invUnitLowerColProgram(C: number, wg: number) {
  const key = `C=${C},WG=${wg}`;
  return cachedProgram(`inv_unit_lower_col|${key}`, () => ({
    name: 'inv_unit_lower_col', key, entryPoint: 'inv_unit_lower_col', workgroupSize: [wg, 1, 1] as [number, number, number],
    decl: { inputs: { A: 'vec4f' }, outputs: { T: 'f32' }, uniforms: { count: 'u32' } } as const,
    body: () => loadShader('gdn/inv_unit_lower_col.wgsl', { C, WG: wg, ...invColBody() }),
  }));
}

/** The batched unit-lower inverse (inv_unit_lower.wgsl) for C ∈ {16, 32, 64} in groups of wg threads. */
export function invUnitLowerProgram(C: number, wg: number) {
  const key = `C=${C},WG=${wg}`;
  return cachedProgram(`inv_unit_lower|${key}`, () => ({
    name: 'inv_unit_lower', key, entryPoint: 'inv_unit_lower_f32', workgroupSize: [wg, 1, 1] as [number, number, number],
    decl: { inputs: { A: 'vec4f' }, outputs: { T: 'vec4f' }, uniforms: { count: 'u32' } } as const,
    body: () => loadShader('gdn/inv_unit_lower.wgsl', { C, WG: wg, ...invBody() }),
  }));
}

/** The generated parts of gdn_wy_wu.wgsl: the staging loads and stores of X, the products by row block with their bounded stores. */
function wuBody(rt: number, cw: number, bal: boolean, stageT: boolean): Record<string, string> {
  const S = Array.from({ length: rt * cw }, (_, s) => s), J = Array.from({ length: cw }, (_, j) => j), Q4 = [0, 1, 2, 3];
  const lane = ['x', 'y', 'z', 'w'];
  const STAGE_LOAD = S.map((s) => [
    `  let i${s} = (lid + ${s}u * WG) / NQ;`,
    `  let d${s} = ((lid + ${s}u * WG) % NQ) * 4u;`,
    `  var v${s} = vec4f(0.0);`,
    `  if (i${s} < len) {`,
    `    let e = base + i${s} * p.x_sT + d${s};`,
    `    if (col0 + d${s} + 3u < ncols) { v${s} = vec4f(ld_x(e), ld_x(e + 1u), ld_x(e + 2u), ld_x(e + 3u)); }`,
    `    else { ${Q4.map((k) => `if (col0 + d${s} + ${k}u < ncols) { v${s}.${lane[k]} = ld_x(e + ${k}u); }`).join(' ')} }`,
    `    nf = nf || !(is_finite(v${s}.x) && is_finite(v${s}.y) && is_finite(v${s}.z) && is_finite(v${s}.w));`,
    '  }',
  ].join('\n')).join('\n');
  const STAGE_STORE = S.map((s) => `  xs[lid + ${s}u * WG] = sc[i${s}] * v${s};`).join('\n');
  // bal: block a (rows rg·rt/2 …) and the mirrored block b share the k steps up to a's end
  // (each X vec4 read feeds all rt rows), then b alone runs on to its own diagonal
  const half = rt / 2;
  const segs = bal ? [{ id: 'a', r0: `rg * ${half}u`, n: half }, { id: 'b', r0: `C - (rg + 1u) * ${half}u`, n: half }] : [{ id: 'a', r0: `rg * ${rt}u`, n: rt }];
  const out = ['  let cq = lid % NQC;', '  let rg = lid / NQC;'];
  const rows = (sg: { n: number }) => Array.from({ length: sg.n }, (_, r) => r);
  for (const sg of segs) {
    out.push(`  let r0${sg.id} = ${sg.r0};`, `  let tb${sg.id} = ${stageT ? `r0${sg.id} * (C / 4u)` : `(pair * C + r0${sg.id}) * (C / 4u)`};`);
    for (const r of rows(sg)) for (const j of J) out.push(`  var a${sg.id}${r}_${j} = vec4f(0.0);`);
  }
  const loop = (from: string, to: string, ss: typeof segs) => {
    out.push(`  for (var k4 = ${from}; k4 < ${to}; k4++) {`, '    let xb = k4 * 4u * NQ + cq;');
    for (const j of J) for (const q of Q4) out.push(`    let x${j}_${q} = xs[xb + ${q}u * NQ${j ? ` + ${j}u * NQC` : ''}];`);
    for (const sg of ss) for (const r of rows(sg)) {
      out.push(`    { let t = ${stageT ? 'ts' : 'T'}[tb${sg.id} + ${r}u * (C / 4u) + k4];`);
      for (const j of J) out.push(`      a${sg.id}${r}_${j} = fma(vec4f(t.x), x${j}_0, fma(vec4f(t.y), x${j}_1, fma(vec4f(t.z), x${j}_2, fma(vec4f(t.w), x${j}_3, a${sg.id}${r}_${j}))));`);
      out.push('    }');
    }
    out.push('  }');
  };
  const end = (sg: { id: string; n: number }) => `(r0${sg.id} + ${sg.n + 3}u) / 4u`;
  loop('0u', end(segs[0]), segs);
  if (bal) loop(end(segs[0]), end(segs[1]), [segs[1]]);
  for (const j of J) out.push(`  let cl${j} = col0 + (cq${j ? ` + ${j}u * NQC` : ''}) * 4u;`);
  for (const sg of segs) for (const j of J) for (const r of rows(sg)) {
    out.push(`  { let ob = (pair * C + r0${sg.id} + ${r}u) * ncols + cl${j};`);
    for (const k of Q4) out.push(`    if (cl${j} + ${k}u < ncols) { O[ob + ${k}u] = a${sg.id}${r}_${j}.${lane[k]}; }`);
    out.push('  }');
  }
  return { STAGE_LOAD, STAGE_STORE, COMPUTE: out.join('\n') };
}

/**
 * The W (isW) or U kernel (gdn_wy_wu.wgsl) for chunk C, nt columns, rt rows and cw column quads
 * per thread, bal: mirrored row blocks; xHalf: K or V is float16 (K is float32 when it is the
 * qkL2norm copy of float16 keys); bHalf: β is.
 */
export function gdnWyWuProgram(C: number, nt: number, rt: number, isW: boolean, xHalf: boolean, bHalf: boolean, stageT = false, cw = 1, bal = false) {
  const WG = wuThreads(C, nt, rt, cw);
  const key = `C=${C},NT=${nt},RT=${rt},CW=${cw},bal=${+bal},W=${+isW},xh=${+xHalf},bh=${+bHalf},st=${+stageT}`;
  return cachedProgram(`gdn_wy_wu|${key}`, () => ({
    name: 'gdn_wy_wu', key, entryPoint: 'gdn_wy_wu', workgroupSize: [WG, 1, 1] as [number, number, number],
    workgroupBytes: wuBytes(C, nt, stageT),
    decl: {
      inputs: { X: 'u32', beta: 'u32', gcum: 'f32', T: 'vec4f', table: 'vec4u' },
      outputs: { O: 'f32', status: 'atomic<i32>' },
      uniforms: { pairs: 'u32', ntiles: 'u32', ncols: 'u32', hv_count: 'u32', group: 'u32', x_sB: 'u32', x_sT: 'u32', x_sH: 'u32', ...STRIDES_B },
    } as const,
    body: () => loadShader('gdn/gdn_wy_wu.wgsl', { C, NT: nt, RT: rt, CW: cw, WG, IS_W: isW, STAGE_T: stageT, LOADERS: loaders(['X', 'beta'], { X: xHalf, beta: bHalf }), ...wuBody(rt, cw, bal, stageT) }),
  }));
}

const ROWS_WG = 256;
const ROWS_UNIFORMS = { chunks: 'u32', heads: 'u32', hv_count: 'u32', group: 'u32', dk: 'u32', sB: 'u32', sT: 'u32', sH: 'u32' } as const;

/** Threads per row of the row kernel: enough to cover dk in a few steps, at most 32. */
export function rowsTpr(dk: number): number {
  return Math.min(32, Math.max(4, pow2ceil(Math.ceil(dk / 4))));
}

/** The qkL2norm copies qn, kn and the status of q and k (gdn_wy_rows.wgsl). */
export function gdnWyNormProgram(C: number, tpr: number, half: boolean) {
  const key = `C=${C},TPR=${tpr},half=${+half}`;
  return cachedProgram(`gdn_wy_rows|${key}`, () => ({
    name: 'gdn_wy_rows', key, entryPoint: 'gdn_wy_rows', workgroupSize: [ROWS_WG, 1, 1] as [number, number, number],
    workgroupBytes: ROWS_WG * 4 + 4,
    decl: {
      inputs: { Q: 'u32', K: 'u32', table: 'vec4u' }, outputs: { qn: 'f32', kn: 'f32', status: 'atomic<i32>' }, uniforms: ROWS_UNIFORMS,
    } as const,
    body: () => loadShader('gdn/gdn_wy_rows.wgsl', { C, TPR: tpr, WG: ROWS_WG, LOADERS: loaders(['Q', 'K'], half) }),
  }));
}

/** The initial state's status pass (gdn_s0_check.wgsl). */
export function gdnS0CheckProgram() {
  return cachedProgram('gdn_s0_check|', () => ({
    name: 'gdn_s0_check', key: '', entryPoint: 'gdn_s0_check', workgroupSize: [256, 1, 1] as [number, number, number],
    workgroupBytes: 4,
    decl: { inputs: { S0: 'f32' }, outputs: { status: 'atomic<i32>' }, uniforms: { count: 'u32', size: 'u32' } } as const,
    body: () => loadShader('gdn/gdn_s0_check.wgsl', {}),
  }));
}

/** Records T = (I + A)⁻¹ for `count` C×C systems of A's storage into T's (C ∈ {16, 32, 64}); cols: columns per thread (1 or 4). */
function recordInverse(A: Tensor, T: Tensor, C: number, count: number, wg: number, cols: 1 | 4): void {
  const S = wg / (C / cols);
  const run = { inputs: { A: A.gpuStorage() }, outputs: { T: T.gpuStorage() }, workgroups: Math.ceil(count / S), uniforms: { count } };
  if (cols === 1) runProgram(invUnitLowerColProgram(C, wg), run);
  else runProgram(invUnitLowerProgram(C, wg), run);
}

/**
 * The WY stage for every (chunk, value head) of a call (GdnWy in gdn_chunks.ts): gcum, W, U,
 * T (opts.keepT), the qkL2norm copies, and the status of every check of the plan contract (q,
 * k, v, β, g, the initial state). opts.checkQ false leaves q's check out (without qkL2norm it
 * costs the Gram kernel a read of q: for a caller whose later kernel checks q as it reads it).
 * Records only; scratch is disposed after recording. `tiles` overrides the device's default
 * tiles (bench, tests).
 */
export function gdnWyGpu(
  x: GdnInputs, plan: GdnPlan, chunks: GdnChunkTable, opts: { keepT: boolean; checkQ?: boolean }, who: string,
  tiles: Partial<GdnWyTiles> = {},
): GdnWy {
  if (plan.dtype === 'float64') throw new ArgumentError(`${who}: the GPU WY stage takes float32 or float16 inputs`);
  const C = plan.chunk, HV = plan.vHeads, dk = plan.dk, dv = plan.dv, N = plan.seqs, count = chunks.count;
  const limits = gpuLimits(who);
  const t = gdnWyTiles(C, dk, dv, limits, tiles);
  checkTiles(C, t, limits, who);
  checkIndexRange(Math.max(count * HV * C * Math.max(C, dk, dv), plan.batch * plan.time * Math.max(plan.heads * dk, HV * dv)), who);
  const qShape = plan.layout === 'bthd' ? [plan.batch, plan.time, plan.heads, dk] : [plan.batch, plan.heads, plan.time, dk];
  const bufs: GdnWyBuffers = {
    status: Tensor.fromStorage('int32', [N, HV], new Int32Array(N * HV)).to('gpu') as Tensor<'int32'>,
    gcum: emptyGpu('float32', [count, HV, C], who),
    W: emptyGpu('float32', [count, HV, C, dk], who),
    U: emptyGpu('float32', [count, HV, C, dv], who),
    qn: plan.qkL2norm ? emptyGpu('float32', qShape, who) : null,
    kn: plan.qkL2norm ? emptyGpu('float32', qShape, who) : null,
    A: emptyGpu('float32', [count, HV, C, C], who),
    T: emptyGpu('float32', [count, HV, C, C], who),
  };
  recordWyStage(x, plan, chunks, t, bufs, undefined, opts.checkQ ?? true);
  bufs.A.dispose();
  if (!opts.keepT) bufs.T.dispose();
  return { gcum: bufs.gcum, W: bufs.W, U: bufs.U, T: opts.keepT ? bufs.T : null, qn: bufs.qn, kn: bufs.kn, status: bufs.status };
}

/** The buffers the WY stage's kernels write (A: scratch between the Gram and the inverse). */
export interface GdnWyBuffers {
  status: Tensor<'int32'>;
  gcum: Tensor;
  W: Tensor;
  U: Tensor;
  qn: Tensor | null;
  kn: Tensor | null;
  A: Tensor;
  T: Tensor;
}

/** The WY stage's kernels, each of the kernel groups `only` names (all by default), recorded with tiles `t` into `bufs`. */
export function recordWyStage(
  x: GdnInputs, plan: GdnPlan, chunks: GdnChunkTable, t: GdnWyTiles, bufs: GdnWyBuffers,
  only: ReadonlySet<'check' | 'kkt' | 'inv' | 'wu'> = new Set(['check', 'kkt', 'inv', 'wu']), checkQ = true,
): void {
  const C = plan.chunk, HV = plan.vHeads, H = plan.heads, dk = plan.dk, dv = plan.dv, N = plan.seqs;
  const half = plan.dtype === 'float16';
  const count = chunks.count, pairs = count * HV, group = HV / H;
  const { gcum, W, U, qn, kn, A, T } = bufs;
  const sk = gdnStrides(plan, H, dk), sv = gdnStrides(plan, HV, dv), sb = gdnStrides(plan, HV, 1);
  const kS = { k_sB: sk.sB, k_sT: sk.sT, k_sH: sk.sH };
  const bS = { b_sB: sb.sB, b_sT: sb.sT, b_sH: sb.sH };
  const st = bufs.status.gpuStorage();
  const table = chunks.table.gpuStorage();
  if (x.initialState && only.has('check')) {
    runProgram(gdnS0CheckProgram(), {
      inputs: { S0: x.initialState.gpuStorage() }, outputs: { status: st }, workgroups: N * HV, uniforms: { count: N * HV, size: dk * dv },
    });
  }
  if (count === 0) return;
  if (qn && kn && only.has('check')) {
    runProgram(gdnWyNormProgram(C, rowsTpr(dk), half), {
      inputs: { Q: x.q.gpuStorage(), K: x.k.gpuStorage(), table }, outputs: { qn: qn.gpuStorage(), kn: kn.gpuStorage(), status: st },
      workgroups: count * H, uniforms: { chunks: count, heads: H, hv_count: HV, group, dk, sB: sk.sB, sT: sk.sT, sH: sk.sH },
    });
  }
  // the Gram and W read the normalised keys when asked (their status came from the row pass)
  const K = kn ?? x.k;
  const kHalf = half && !kn;
  if (only.has('kkt')) {
    // without qkL2norm the Gram kernel checks q as it reads k (q and k share shape and dtype)
    runProgram(gdnWyKktProgram(C, t.dkt, t.gr, kHalf, half, checkQ && !kn), {
      inputs: { K: K.gpuStorage(), beta: x.beta.gpuStorage(), g: x.g.gpuStorage(), Q: x.q.gpuStorage(), table },
      outputs: { gcum: gcum.gpuStorage(), A: A.gpuStorage(), status: st },
      workgroups: pairs, uniforms: { pairs, hv_count: HV, group, dk, ...kS, ...bS },
    });
  }
  if (only.has('inv')) recordInverse(A, T, C, pairs, t.invWg, t.invCols);
  if (!only.has('wu')) return;
  // β is read in the inputs' dtype by both; K is float32 when it is the qkL2norm copy
  for (const [isW, X, ncols, xs, xHalf] of [[true, K, dk, sk, kHalf], [false, x.v, dv, sv, half]] as const) {
    const ntiles = Math.ceil(ncols / t.nt);
    runProgram(gdnWyWuProgram(C, t.nt, t.rt, isW, xHalf, half, t.stageT, t.cw, t.bal), {
      inputs: { X: X.gpuStorage(), beta: x.beta.gpuStorage(), gcum: gcum.gpuStorage(), T: T.gpuStorage(), table },
      outputs: { O: (isW ? W : U).gpuStorage(), status: st },
      workgroups: pairs * ntiles,
      uniforms: { pairs, ntiles, ncols, hv_count: HV, group, x_sB: xs.sB, x_sT: xs.sT, x_sH: xs.sH, ...bS },
    });
  }
}

/** T = (I + tril(A, −1))⁻¹ on the GPU: the inverse kernel for float32 C ∈ {16, 32, 64}, else a unit-lower solve against I. */
export function invUnitLowerGpu(A: Tensor, tiles: Partial<Pick<GdnWyTiles, 'invWg' | 'invCols'>> = {}): Tensor {
  const who = 'gdn.invUnitLower';
  const C = A.cols;
  if (A.ndim < 2 || A.rows !== C) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected (…, C, C)`);
  const count = A.shape.slice(0, -2).reduce((a, b) => a * b, 1);
  if (A.dtype === 'float32' && (C === 16 || C === 32 || C === 64)) {
    const T = emptyGpu('float32', A.shape, who);
    if (count === 0) return T;
    checkIndexRange(count * C * C, who);
    const wg = tiles.invWg ?? (C === 64 ? 256 : C === 32 ? 128 : 64);
    const cols = tiles.invCols ?? INV_COLS;
    if (![64, 128, 256].includes(wg) || wg > gpuLimits(who).maxComputeInvocationsPerWorkgroup || (cols !== 1 && cols !== 4) || wg % (C / cols) !== 0) {
      throw new ArgumentError(`${who}: inverse workgroup size ${wg} must be 64, 128 or 256, a multiple of C/${cols}, and fit the device`);
    }
    recordInverse(A, T, C, count, wg, cols);
    return T;
  }
  const eye = new Float32Array(C * C);
  for (let i = 0; i < C; i++) eye[i * C + i] = 1;
  const I = Tensor.fromStorage('float32', [C, C], eye).to('gpu');
  const X = solveTriangularGpu(A, I, planBatch(A, I, who), { upper: false, unitriangular: true }).X;
  I.dispose();
  return X;
}

export function registerGdnWyGpu(): void {
  register('invUnitLower', ['float32'], 'gpu', (A) => invUnitLowerGpu(A));
}
