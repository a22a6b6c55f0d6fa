// The WGSL binding declarations and uniform structs generated from every GPU program's
// declaration (src/backend/gpu/program.ts), snapshotted; no GPU needed: the sources are
// only generated and preprocessed. Each body must leave the declarations to the preamble
// and read only declared uniforms. Update the snapshot with `npx vitest run -u` after a
// deliberate change to a declaration.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wgslPreamble, type GpuProgram } from '../../src/backend/gpu/program.js';
import { matmulProgram, matmulSmallProgram, F32_TILES, C64_TILES } from '../../src/backend/gpu/matmul.js';
import { gemmProgram, GEMM_F32_TILES, GEMM_C64_TILES, type GemmVariant } from '../../src/backend/gpu/gemm.js';
import { invSmallProgram, invDirect } from '../../src/backend/gpu/inv.js';
import { luProgram, luRegProgram, gatherProgram } from '../../src/backend/gpu/lu.js';
import {
  trsmProgram, trsmDiagProgram, unitLowerProgram, unitLowerV4Program, unitLowerPlan, trsmBlockedProgram, trsmStepProgram, trsmCopyProgram,
} from '../../src/backend/gpu/trsm.js';
import { specialProgram } from '../../src/backend/gpu/special.js';
import { svdScalePrograms } from '../../src/backend/gpu/svd_scale.js';
import { svdSmallProgram, svdSmallPlan } from '../../src/backend/gpu/svd_small.js';
import { svdFinalizePrograms } from '../../src/backend/gpu/svd.js';
import { vectorNormProgram, vectorNormPartProgram, vectorNormCombineProgram, normPostProgram } from '../../src/backend/gpu/norm.js';
import { pinvProgram } from '../../src/backend/gpu/pinv.js';
import { lstsqProgram } from '../../src/backend/gpu/lstsq.js';
import { PROBE_DECL, type GpuLimits } from '../../src/backend/gpu/device.js';
import { gdnFinalizeProgram } from '../../src/backend/gpu/gdn_state.js';
import { gdnStateStagedPlan, gdnStateStagedProgram } from '../../src/backend/gpu/gdn_state_staged.js';
import { gdnOutputPlan, gdnOutputProgram } from '../../src/backend/gpu/gdn_output.js';
import { jacobiPairProgram, jacobiInitProgram, jacobiSweepProgram } from '../../src/backend/gpu/svd_jacobi.js';
import { stridedCopyProgram, triangleProgram, concatProgram, takeProgram, putProgram, copyWordsProgram } from '../../src/backend/gpu/indexing.js';
import { qrPanelProgram, qrCopyProgram, qrFinishProgram, qrTwProgram } from '../../src/backend/gpu/qr.js';
import { detProgram, permProgram, permuteProgram, markProgram, unpackProgram } from '../../src/backend/gpu/lu_ops.js';
import {
  luPanelProgram, laswpGatherProgram, laswpSeqProgram, luTrsmProgram, luStatusProgram,
} from '../../src/backend/gpu/lu_blocked.js';
import { elementwiseProgram, castHalfProgram } from '../../src/backend/gpu/elementwise.js';
import { gdnStepProgram, gdnStepBgProgram, gdnStepPlan } from '../../src/backend/gpu/gdn_step.js';
import { gdnBackwardPrograms } from '../../src/backend/gpu/gdn_backward.js';
import { reduceRowsProgram, reduceColsProgram, argReduceProgram, REDUCE_CLASSES, ARG_CLASSES } from '../../src/backend/gpu/reduce.js';
import {
  gdnWyKktProgram, invUnitLowerProgram, invUnitLowerColProgram, gdnWyWuProgram, gdnWyNormProgram, gdnS0CheckProgram,
} from '../../src/backend/gpu/gdn_wy.js';

/** Every kernel the GPU backend builds, over the variants whose declarations differ. */
function everyProgram(): Array<[string, GpuProgram]> {
  const out: Array<[string, GpuProgram]> = [];
  const add = (label: string, p: GpuProgram<never> | GpuProgram) => out.push([label, p as GpuProgram]);
  for (const [name, t] of Object.entries(F32_TILES)) {
    for (const [a, b] of [[true, true], [true, false], [false, true], [false, false]]) add(`matmul f32 ${name} vecA=${a} vecB=${b}`, matmulProgram('float32', t, a, b));
  }
  for (const [name, t] of Object.entries(C64_TILES)) add(`matmul c64 ${name}`, matmulProgram('complex64', t, false, false));
  for (const dt of ['float32', 'complex64'] as const) add(`matmul_small ${dt}`, matmulSmallProgram(dt));
  const gv = (o: Partial<GemmVariant>): GemmVariant => ({
    transA: false, transB: false, vecA: false, vecB: false, wideA: false, wideB: false, vecC: false, aliasA: false, aliasB: false, ...o,
  });
  const wide = { vecA: true, vecB: true, wideA: true, wideB: true, vecC: true };
  add('gemm f32 t128 vec4', gemmProgram('float32', GEMM_F32_TILES.t128, gv(wide)));
  add('gemm f32 t128 scalar, op T/T', gemmProgram('float32', GEMM_F32_TILES.t128, gv({ transA: true, transB: true })));
  add('gemm f32 t64 A, B in C (vec4)', gemmProgram('float32', GEMM_F32_TILES.t64, gv({ ...wide, aliasA: true, aliasB: true })));
  add('gemm f32 t32 A in C (scalar), maps', gemmProgram('float32', GEMM_F32_TILES.t32, gv({ aliasA: true, mapA: true, mapB: true })));
  add('gemm c64 t64r8', gemmProgram('complex64', GEMM_C64_TILES.t64r8, gv({ transB: true })));
  add('gemm c64 t32 A, B in C', gemmProgram('complex64', GEMM_C64_TILES.t32, gv({ aliasA: true, aliasB: true })));
  for (const dt of ['float32', 'complex64'] as const) {
    for (let n = 1; n <= 4; n++) {
      add(`inv_small ${dt} n=${n}`, invSmallProgram(n, dt, false));
      if (invDirect(n, dt)) add(`inv_small ${dt} n=${n} direct`, invSmallProgram(n, dt, true));
    }
  }
  for (const mode of ['FACTOR', 'SOLVE', 'INV', 'LUSOLVE'] as const) {
    for (const dt of ['float32', 'complex64'] as const) {
      add(`lu ${mode} ${dt} n=9`, luProgram(mode, dt, 9, 3, false));
      add(`lu ${mode} ${dt} n=64 A_GLOBAL`, luProgram(mode, dt, 64, 3, true));
    }
  }
  for (const mode of ['FACTOR', 'SOLVE', 'INV'] as const) {
    for (const n of [5, 16, 32]) add(`lu_reg ${mode} n=${n}`, luRegProgram(mode, n, mode === 'SOLVE' ? 3 : mode === 'INV' ? n : 0));
  }
  add('gather i32', gatherProgram());
  for (const dt of ['float32', 'complex64'] as const) {
    add(`lu_panel ${dt} leaf in A`, luPanelProgram(dt, 256, 16, 0));
    add(`lu_panel ${dt} leaf in registers`, luPanelProgram(dt, 256, 8, 4));
    add(`lu_panel ${dt} left-looking, leaf in registers`, luPanelProgram(dt, 256, 8, 4, true));
    add(`lu_panel ${dt} left-looking, leaf in A`, luPanelProgram(dt, 256, 16, 0, true));
    add(`laswp gather ${dt}`, laswpGatherProgram(dt));
    add(`laswp seq ${dt}`, laswpSeqProgram(dt));
    add(`lu_trsm ${dt}`, luTrsmProgram(dt));
  }
  for (const mode of ['INIT', 'FLAG', 'FINISH'] as const) add(`lu_status ${mode}`, luStatusProgram(mode));
  for (const dt of ['float32', 'complex64'] as const) {
    add(`trsm ${dt}`, trsmProgram(dt, 40, 5));
    add(`trsm_diag ${dt}`, trsmDiagProgram(dt));
    add(`trsm_blocked ${dt}`, trsmBlockedProgram(dt, 64, 64, { bc: 32, diagSmem: false, msFull: false }, false));
    add(`trsm_blocked ${dt} A in B's buffer`, trsmBlockedProgram(dt, 8, 32, { bc: 8, diagSmem: true, msFull: true }, true));
    add(`trsm_step ${dt}`, trsmStepProgram(dt, { nb: 128, bc: 8, kc: 16, sb: 16 }, false));
    add(`trsm_step ${dt} A in B's buffer`, trsmStepProgram(dt, { nb: 8, bc: 4, kc: 8, sb: 3 }, true));
  }
  add('trsm_copy', trsmCopyProgram());
  for (const n of [16, 32, 64]) {
    add(`trsm_unit_lower n=${n}`, unitLowerProgram(n, unitLowerPlan(n, 13)));
    add(`trsm_unit_lower_v4 n=${n}`, unitLowerV4Program(n, n === 64 ? 256 : 64));
  }
  for (const dt of ['float32', 'complex64', 'int32'] as const) {
  }
  add('special frexp', specialProgram('frexp', 'bits'));
  for (const v of ['same', 'splat_a', 'splat_b', 'strided']) {
    add(`special heaviside ${v}`, specialProgram('heaviside', v));
    add(`special laguerre ${v}`, specialProgram('laguerre', v));
  }
  add('special logspace', specialProgram('logspace', 'torch'));
  for (const dt of ['float32', 'complex64'] as const) {
    add(`qr_panel ${dt} nc=32 wg=1024`, qrPanelProgram(dt, 32, 1024));
    add(`qr_copy ${dt}`, qrCopyProgram(dt));
    add(`qr_finish ${dt} F in Q`, qrFinishProgram(dt, true));
    add(`qr_finish ${dt} F apart`, qrFinishProgram(dt, false));
    add(`qr_tw ${dt} nb=32`, qrTwProgram(dt, 32));
  }
  for (const p of svdScalePrograms()) add(`svd scale ${p.name}`, p);
  const svdLimits = { maxComputeWorkgroupStorageSize: 32768, maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024 };
  for (const [dt, m, n] of [['float32', 8, 8], ['complex64', 16, 16], ['float32', 32, 32]] as const) {
    add(`svd_small ${dt} ${m}×${n}`, svdSmallProgram(dt, svdSmallPlan(m, n, dt, svdLimits)!));
  }
  for (const p of svdFinalizePrograms()) add(`svd finalize ${p.name} ${p.key}`, p);
  for (const dt of ['float32', 'complex64'] as const) {
    for (const b of [8, 16]) add(`svd jacobi_pair ${dt} b=${b}`, jacobiPairProgram(dt, b));
    add(`svd jacobi_init ${dt}`, jacobiInitProgram(dt));
  }
  add('svd jacobi_sweep', jacobiSweepProgram());
  for (const dt of ['float32', 'complex64'] as const) {
    add(`norm vector_norm ${dt}`, vectorNormProgram(dt));
    add(`norm vector_norm_part ${dt}`, vectorNormPartProgram(dt));
  }
  add('norm vector_norm_combine', vectorNormCombineProgram());
  add('norm norm_post', normPostProgram());
  for (const k of ['weights', 'rank', 'hermitian'] as const) add(`pinv ${k}`, pinvProgram(k));
  for (const k of ['augment', 'gels_check', 'exps', 'resid'] as const) add(`lstsq ${k}`, lstsqProgram(k));
  for (const dt of ['float32', 'complex64'] as const) {
    for (const mode of ['DET', 'SLOGDET', 'SCAN'] as const) add(`lu_ops ${mode} ${dt}`, detProgram(mode, dt, 64));
    add(`lu_ops mark ${dt}`, markProgram(dt));
    add(`lu_ops unpack ${dt}`, unpackProgram(dt));
  }
  for (const dt of ['float32', 'complex64', 'int32'] as const) add(`lu_ops permute ${dt}`, permuteProgram(dt));
  add('lu_ops perm', permProgram());
  for (const c of REDUCE_CLASSES) {
    add(`reduce rows ${c}`, reduceRowsProgram(c));
    add(`reduce cols ${c}`, reduceColsProgram(c));
  }
  for (const c of ARG_CLASSES) add(`reduce arg ${c}`, argReduceProgram(c));
  for (const w of ['b32', 'b64'] as const) {
    add(`indexing stridedCopy ${w}`, stridedCopyProgram(w, false));
    add(`indexing stridedCopy ${w} tiled`, stridedCopyProgram(w, true));
    add(`indexing triangle ${w}`, triangleProgram(w));
    add(`indexing concat ${w}`, concatProgram(w));
    add(`indexing take ${w}`, takeProgram(w));
    add(`indexing put ${w} store`, putProgram(w, false));
    add(`indexing put ${w} accumulate`, putProgram(w, true));
  }
  add('indexing copy_words u32', copyWordsProgram(false));
  add('indexing copy_words vec4', copyWordsProgram(true));
  // elementwise: each declaration shape (vec4 / strided with `lay` / flat; 1- and 2-word elements)
  add('elementwise binary add f32 vec same', elementwiseProgram('binary', 'add', 'float32', 'vec', 'ff'));
  add('elementwise binary add f32 vec scalar b', elementwiseProgram('binary', 'add', 'float32', 'vec', 'fs'));
  add('elementwise binary add f32 strided', elementwiseProgram('binary', 'add', 'float32', 'strided'));
  add('elementwise binary eq c64 strided (bool out)', elementwiseProgram('binary', 'eq', 'complex64', 'strided'));
  add('elementwise binary c64 ops by uniform', elementwiseProgram('binary', 'any:complex64', 'complex64', 'vec', 'ff', 1));
  add('elementwise unary abs c64 vec', elementwiseProgram('unary', 'abs', 'complex64', 'vec', 'f'));
  add('elementwise unary exp c64 flat', elementwiseProgram('unary', 'exp', 'complex64', 'flat', '', 1));
  add('elementwise cast f32 to c64 vec', elementwiseProgram('cast', 'complex64', 'float32', 'vec', 'f'));
  add('elementwise cast c64 to bool flat', elementwiseProgram('cast', 'bool', 'complex64', 'flat'));
  add('elementwise cast f32 to f16 (packed words)', castHalfProgram(true));
  add('elementwise cast f16 to f32 (packed words)', castHalfProgram(false));
  add('elementwise where f32 vec cond splat', elementwiseProgram('where', '', 'float32', 'vec', 'sff'));
  add('elementwise where c64 strided', elementwiseProgram('where', '', 'complex64', 'strided'));
  for (const dt of ['float32', 'float16'] as const) {
    add(`gdn step ${dt} dk=dv=128`, gdnStepProgram(dt, gdnStepPlan(128, 128)));
    add(`gdn step ${dt} dk=dv=128, beta and g in one buffer`, gdnStepBgProgram(dt, gdnStepPlan(128, 128)));
  }
  add('gdn wy kkt C=64 float32', gdnWyKktProgram(64, 32, 4, false, false, true));
  add('gdn wy kkt C=16 float16', gdnWyKktProgram(16, 8, 8, false, true, false));
  for (const C of [16, 32, 64]) add(`gdn inv_unit_lower C=${C}`, invUnitLowerProgram(C, 256));
  add('gdn inv_unit_lower_col C=64', invUnitLowerColProgram(64, 256));
  add('gdn wy W C=64 float32', gdnWyWuProgram(64, 64, 4, true, false, false));
  add('gdn wy U C=64 float32, rt 8 in mirrored blocks, two column quads', gdnWyWuProgram(64, 64, 8, false, false, false, false, 2, true));
  add('gdn wy U C=32 float16, rt 8, T staged', gdnWyWuProgram(32, 32, 8, false, true, true, true));
  add('gdn wy rows qkL2norm float16', gdnWyNormProgram(64, 32, true));
  add('gdn s0 check', gdnS0CheckProgram());
  const bwd = new Set([{ KT: 16, BV: 8, KW: 128 }, { KT: 32, BV: 16 }].flatMap((t) => gdnBackwardPrograms({ qk: 'f32', x: 'f32' }, 128, t)));
  for (const p of bwd) add(`gdn backward ${p.name} ${p.key}`, p);
  const small = { maxComputeWorkgroupStorageSize: 16384, maxComputeInvocationsPerWorkgroup: 256 } as GpuLimits;
  const big = { maxComputeWorkgroupStorageSize: 49152, maxComputeInvocationsPerWorkgroup: 1024 } as GpuLimits;
  add('gdn state staged C=64 dk=dv=128 float32', gdnStateStagedProgram(gdnStateStagedPlan(64, 128, 128, big)!, 'f32'));
  add('gdn state staged C=64 dk=dv=128 float16 keys, default limits', gdnStateStagedProgram(gdnStateStagedPlan(64, 128, 128, small)!, 'f16'));
  add('gdn state staged C=32 dk=6 dv=10 float32 (partial tile)', gdnStateStagedProgram(gdnStateStagedPlan(32, 6, 10, small)!, 'f32'));
  add('gdn state staged C=16 dk=6 dv=10 float16 keys', gdnStateStagedProgram(gdnStateStagedPlan(16, 6, 10, small)!, 'f16'));
  add('gdn finalize', gdnFinalizeProgram());
  add('gdn output C=64 dk=dv=128 float32', gdnOutputProgram(gdnOutputPlan(64, 128, 128, big)!, 'f32', 'f32'));
  add('gdn output C=64 dk=dv=128 float16', gdnOutputProgram(gdnOutputPlan(64, 128, 128, small)!, 'f16', 'f16'));
  add('gdn output C=32 dk=6 dv=10 float32, row blocks', gdnOutputProgram(gdnOutputPlan(32, 6, 10, small, { rbo: 8 })!, 'f32', 'f32'));
  add('gdn output C=16 dk=6 dv=10 normalised float32 q/k, float16 o', gdnOutputProgram(gdnOutputPlan(16, 6, 10, small)!, 'f32', 'f16'));
  return out;
}

describe('generated GPU program preambles', () => {
  const programs = everyProgram();

  it('match the committed snapshot (every program, every declaration variant)', async () => {
    const text = [
      ...programs.map(([label, p]) => `// ---- ${label}: ${p.name} → ${p.entryPoint}\n${p.preamble}`),
      `// ---- device probe (device.ts)\n${wgslPreamble(PROBE_DECL)}`,
    ].join('\n');
    await expect(text).toMatchFileSnapshot('./__snapshots__/preambles.wgsl');
  });

  it('every body leaves bindings to the preamble and reads only declared uniforms', () => {
    for (const [label, p] of programs) {
      const body = p.body();
      expect(body, label).not.toMatch(/@binding|var<uniform>|struct Params\b/);
      expect(p.source().startsWith(p.preamble), label).toBe(true);
      const declared = new Set(Object.keys(p.decl.uniforms));
      for (const m of body.matchAll(/\bp\.(\w+)/g)) expect(declared.has(m[1]), `${label}: p.${m[1]}`).toBe(true);
      // the storage names the body reads are declared (a misspelt binding would fail at pipeline creation)
      for (const name of [...Object.keys(p.decl.inputs), ...Object.keys(p.decl.outputs)]) {
        expect(p.preamble, label).toContain(` ${name}: array<`);
      }
    }
  });

  it('no hand-written binding declarations remain in shaders/', () => {
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.wgsl') ? [join(d, e.name)] : []));
    const files = walk('shaders');
    expect(files.length).toBeGreaterThan(15);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toMatch(/@binding|var<uniform>|^struct Params\b/m);
  });

  it('the GPU backend never imports the CPU backend', () => {
    const dir = 'src/backend/gpu';
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/from '\.\.\/cpu\//);
    }
  });
});
