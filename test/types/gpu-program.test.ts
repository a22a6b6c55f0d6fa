// tsc rejects a GPU program run whose bindings or uniforms differ from the program's
// declaration (`npx tsc -p .ci/tsconfig.tests.json` checks the @ts-expect-error lines);
// at run time the same mismatch, forced through a cast, is an ArgumentError before any
// GPU work (no adapter needed: the check runs first).
import { describe, expect, it } from 'vitest';
import { defineProgram, runProgram, packUniforms, type RunOptions } from '../../src/backend/gpu/program.js';
import { luRegProgram } from '../../src/backend/gpu/lu.js';
import { ArgumentError } from '../../src/core/errors.js';
import type { GpuStorage } from '../../src/core/tensor.js';

const prog = defineProgram({
  name: 'types.copy', key: 'v1', entryPoint: 'main', workgroupSize: [64, 1, 1],
  decl: { inputs: { src: 'f32' }, outputs: { dst: 'f32' }, uniforms: { n: 'u32', scale: 'f32', lanes: 'vec4u' } },
  body: () => '@compute @workgroup_size(64) fn main() { dst[0] = src[0] * p.scale; }',
});

// A stand-in buffer: the name checks throw before it is touched.
const buf = {} as GpuStorage;
const ok: RunOptions<typeof prog.decl> = {
  inputs: { src: buf }, outputs: { dst: buf }, uniforms: { n: 5, scale: 0.5, lanes: [1, 2, 3, 4] }, workgroups: 1,
};

function typeChecks(): void {
  // @ts-expect-error misspelt input name
  runProgram(prog, { ...ok, inputs: { scr: buf } });
  // @ts-expect-error missing output
  runProgram(prog, { ...ok, outputs: {} });
  // @ts-expect-error misspelt uniform
  runProgram(prog, { ...ok, uniforms: { n: 5, scale: 0.5, lane: [1, 2, 3, 4] } });
  // @ts-expect-error missing uniform
  runProgram(prog, { ...ok, uniforms: { n: 5, scale: 0.5 } });
  // @ts-expect-error a vec4u uniform given one number
  runProgram(prog, { ...ok, uniforms: { n: 5, scale: 0.5, lanes: 7 } });
  // @ts-expect-error the old positional arrays
  runProgram(prog, { ...ok, inputs: [buf] });
  // @ts-expect-error a shipped kernel: lu_reg's SOLVE mode has no LU output
  runProgram(luRegProgram('SOLVE', 8, 1), { inputs: { A: buf, B: buf, bmap: buf }, outputs: { LU: buf, INFO: buf }, uniforms: { count: 1, use_b: 0 }, workgroups: 1 });
  // @ts-expect-error ... and no nrhs uniform
  runProgram(luRegProgram('SOLVE', 8, 1), { inputs: { A: buf, B: buf, bmap: buf }, outputs: { X: buf, INFO: buf }, uniforms: { count: 1, use_b: 0, nrhs: 1 }, workgroups: 1 });
  // @ts-expect-error an unknown uniform type in a declaration
  defineProgram({ ...prog, decl: { inputs: {}, outputs: {}, uniforms: { n: 'u64' } } });
  // the right shape compiles
  runProgram(luRegProgram('SOLVE', 8, 1), { inputs: { A: buf, B: buf, bmap: buf }, outputs: { X: buf, INFO: buf }, uniforms: { count: 1, use_b: 0 }, workgroups: 1 });
}

describe('GPU program declarations', () => {
  it('refuse mismatched bindings and uniforms at run time too (ArgumentError naming them, before any GPU work)', () => {
    expect(typeof typeChecks).toBe('function'); // compiled, never run
    const bad = (run: object) => () => runProgram(prog, run as RunOptions<typeof prog.decl>);
    expect(bad({ ...ok, inputs: { scr: buf } })).toThrow(ArgumentError);
    expect(bad({ ...ok, inputs: { scr: buf } })).toThrow(/types\.copy: inputs \{scr\} differ from the declaration \{src\}/);
    expect(bad({ ...ok, inputs: { src: buf, extra: buf } })).toThrow(/inputs \{src, extra\}/);
    expect(bad({ ...ok, outputs: {} })).toThrow(/outputs \{\} differ from the declaration \{dst\}/);
    expect(bad({ ...ok, uniforms: { n: 5, scale: 0.5 } })).toThrow(/uniforms \{n, scale\} differ from the declaration \{n, scale, lanes\}/);
    expect(bad({ ...ok, uniforms: { n: 5, scale: 0.5, lanes: 7 } })).toThrow(/lanes \(vec4u\) needs 4 values/);
    expect(() => defineProgram({ ...prog, decl: { inputs: { p: 'f32' }, outputs: {}, uniforms: {} } })).toThrow(/binding name p/);
  });

  it('pack uniforms by name at the WGSL offsets', () => {
    const b = new DataView(packUniforms(prog.decl.uniforms, { lanes: [1, 2, 3, 4], scale: 0.5, n: 5 }));
    expect(b.byteLength).toBe(32); // n@0, scale@4, lanes@16 (vec4 alignment)
    expect([b.getUint32(0, true), b.getFloat32(4, true), b.getUint32(16, true), b.getUint32(28, true)]).toEqual([5, 0.5, 1, 4]);
    expect(prog.preamble).toContain('@group(0) @binding(2) var<uniform> p: Params;');
  });
});
