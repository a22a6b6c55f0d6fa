// GPU entries of the tensor API's elementwise ops (shaders/elementwise): cast, unary,
// binary, where for float32, complex64, int32, uint32 and bool (one u32 per element).
// Same registry ops and semantics as the CPU entries (src/backend/ops.ts). cast also
// takes float16 on either side (two halves per u32 word: elementwise/cast_f16.wgsl).
//
// One dispatch per op, one kernel per (op, dtypes, path), compiled on first use:
//   vec      every operand is the whole output (same shape) or one element (a scalar),
//            or, on a 2-D layout whose rows are whole quads, a row or column broadcast:
//            vec4 loads and stores of four elements, PER quads per thread; the bindings
//            are padded to whole quads (pool buffers are 16-byte multiples), so the last
//            partial quad computes on padding instead of a bounds check per element.
//   strided  any broadcast: the collapsed dims and each operand's strides in a small
//            storage buffer (any rank), PER elements per thread.
//   flat     unary and cast when a buffer cannot be padded, and the complex
//            transcendental functions: element i to element i.
import { Tensor, type GpuStorage } from '../../core/tensor.js';
import type { DType } from '../../core/dtype.js';
import type { ElementwiseLayout, ElementwiseLayoutN } from '../../core/broadcast.js';
import { ArgumentError, DeviceError, DTypeError } from '../../core/errors.js';
import { register } from '../registry.js';
import { unaryOutDtype, binaryOutDtype, UNARY_OPS, BINARY_OPS, type UnaryOp, type BinaryOp } from '../ops.js';
import { runProgram, cachedProgram, type GpuProgram, type ProgramDecl, type StorageType } from './program.js';
import { loadShader, preprocess, dtypeDefines, type Defines, type GpuDType } from './preprocess.js';
import { shaderText } from './shaders.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';
import { allocStorage, bufferOf } from './pool.js';
import { gpuDevice } from './device.js';
import { commandEncoder, recordedCommand } from './queue.js';

/** Threads per workgroup and items (quads on the vec path, elements otherwise) per thread. */
export const EW_WG = 256;
export const EW_PER = 4;
const launch = { wg: EW_WG, per: EW_PER };

/**
 * Sets the launch shape of the elementwise kernels (bench tuning: bench/suites/tensor-gpu.ts
 * LAPIS_EW_LAUNCH); each shape compiles its own variants. Returns the previous one.
 */
export function setElementwiseLaunch(o: { wg?: number; per?: number }): { wg: number; per: number } {
  const prev = { ...launch };
  const wg = o.wg ?? launch.wg, per = o.per ?? launch.per;
  if (![32, 64, 128, 256, 512, 1024].includes(wg)) throw new ArgumentError(`setElementwiseLaunch: wg must be a power of two from 32 to 1024, got ${wg}`);
  if (!Number.isInteger(per) || per < 1 || per > 16) throw new ArgumentError(`setElementwiseLaunch: per must be an integer from 1 to 16, got ${per}`);
  launch.wg = wg;
  launch.per = per;
  return prev;
}

const GPU_EW_DTYPES: readonly GpuDType[] = ['float32', 'complex64', 'int32', 'uint32', 'bool'];

export type EwKind = 'cast' | 'unary' | 'binary' | 'where';
export type EwPath = 'vec' | 'strided' | 'flat';
/** Per operand on the vec path: 'f' (whole output), 's' (one element), 'r' (a row over 2-D rows), 'c' (a column). */
export type OperandModes = string;

const WGSL_TYPE: Record<GpuDType, string> = { float32: 'f32', complex64: 'vec2f', int32: 'i32', uint32: 'u32', bool: 'u32' };
const SHORT: Record<GpuDType, string> = { float32: 'f32', complex64: 'c64', int32: 'i32', uint32: 'u32', bool: 'b' };
const words = (d: GpuDType) => (d === 'complex64' ? 2 : 1);

function asGpuDType(d: DType, who: string, name: string): GpuDType {
  if ((GPU_EW_DTYPES as readonly string[]).includes(d)) return d as GpuDType;
  throw new DTypeError(`${who}: ${name} has dtype ${d}, which GPU tensors do not hold`);
}

/** The operands of a kernel: names in binding order with their dtypes. */
function operandsOf(kind: EwKind, inDtype: GpuDType): Array<[string, GpuDType]> {
  switch (kind) {
    case 'cast': case 'unary': return [['x', inDtype]];
    case 'binary': return [['a', inDtype], ['b', inDtype]];
    case 'where': return [['c', 'bool'], ['a', inDtype], ['b', inDtype]];
  }
}

/** The generated load/store helpers of one variant (see shaders/elementwise/driver.wgsl). */
function ioHelpers(ops: Array<[string, GpuDType]>, out: GpuDType, path: EwPath, modes: OperandModes): string {
  const L: string[] = [];
  ops.forEach(([n, d], k) => {
    const T = WGSL_TYPE[d];
    if (path === 'vec') {
      L.push(`fn ld4_${n}(q: u32) -> array<${T}, 4> {`);
      const md = modes[k];
      if (md === 's' || md === 'c') {
        // one element: the first (splat) or the row's (column operand, p.nd quads per row)
        if (md === 's') L.push(`  let e = bitcast<${T}>(${n}[0].${words(d) === 2 ? 'xy' : 'x'});`);
        else if (words(d) === 1) L.push('  let row = q / p.nd;', `  let e = bitcast<${T}>(${n}[row >> 2u][row & 3u]);`);
        else L.push('  let row = q / p.nd;', `  let w = ${n}[row >> 1u];`, `  let e = bitcast<${T}>(select(w.xy, w.zw, (row & 1u) == 1u));`);
        L.push(`  return array<${T}, 4>(e, e, e, e);`);
      } else {
        // whole output ('f': quad q) or one row broadcast over the rows ('r': quad q mod p.nd)
        const qq = md === 'r' ? '(q % p.nd)' : 'q';
        if (words(d) === 1) {
          L.push(`  let v = ${n}[${qq}];`, `  return array<${T}, 4>(bitcast<${T}>(v.x), bitcast<${T}>(v.y), bitcast<${T}>(v.z), bitcast<${T}>(v.w));`);
        } else {
          L.push(`  let v0 = ${n}[2u * ${qq}];`, `  let v1 = ${n}[2u * ${qq} + 1u];`,
            `  return array<${T}, 4>(bitcast<${T}>(v0.xy), bitcast<${T}>(v0.zw), bitcast<${T}>(v1.xy), bitcast<${T}>(v1.zw));`);
        }
      }
      L.push('}');
    } else {
      L.push(`fn ld_${n}(i: u32) -> ${T} { return bitcast<${T}>(${n}[i]); }`);
    }
  });
  const R = WGSL_TYPE[out];
  if (path === 'vec') {
    L.push(`fn st4_out(q: u32, r: array<${R}, 4>) {`);
    if (words(out) === 1) L.push('  out[q] = vec4u(bitcast<u32>(r[0]), bitcast<u32>(r[1]), bitcast<u32>(r[2]), bitcast<u32>(r[3]));');
    else {
      L.push('  out[2u * q] = vec4u(bitcast<vec2u>(r[0]), bitcast<vec2u>(r[1]));', '  out[2u * q + 1u] = vec4u(bitcast<vec2u>(r[2]), bitcast<vec2u>(r[3]));');
    }
    L.push('}');
  } else {
    L.push(`fn st_out(i: u32, r: ${R}) { out[i] = bitcast<${words(out) === 2 ? 'vec2u' : 'u32'}>(r); }`);
  }
  return `// Generated operand loads and the output store (src/backend/gpu/elementwise.ts).\n${L.join('\n')}\n`;
}

/**
 * Drops the module-scope functions the entry point never reaches: every kernel includes
 * all of elementwise/math.wgsl, and lavapipe's compile time grows with the source it is
 * given (seconds per variant otherwise).
 */
export function pruneFunctions(src: string, entry: string): string {
  const fns = new Map<string, { start: number; end: number }>();
  const re = /^fn (\w+)\s*\(/gm;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    let i = src.indexOf('{', m.index);
    let depth = 0;
    for (; i < src.length; i++) {
      if (src[i] === '{') depth++;
      else if (src[i] === '}' && --depth === 0) break;
    }
    // a preceding comment block goes with the function
    let start = m.index;
    while (start > 0) {
      const prev = src.lastIndexOf('\n', start - 2);
      if (!src.slice(prev + 1, start).startsWith('//')) break;
      start = prev + 1;
    }
    fns.set(m[1], { start, end: i + 1 });
  }
  const keep = new Set<string>();
  const visit = (text: string) => {
    for (const w of text.matchAll(/\b(\w+)\s*\(/g)) {
      const f = fns.get(w[1]);
      if (f && !keep.has(w[1])) {
        keep.add(w[1]);
        visit(src.slice(f.start, f.end));
      }
    }
  };
  // the entry point and everything outside function bodies
  let outside = '', at = 0;
  for (const f of [...fns.values()].sort((x, y) => x.start - y.start)) {
    outside += src.slice(at, f.start);
    at = f.end;
  }
  const e = fns.get(entry);
  if (e) {
    keep.add(entry);
    visit(src.slice(e.start, e.end));
  }
  visit(outside + src.slice(at));
  let out = '';
  at = 0;
  for (const [name, f] of [...fns.entries()].sort((x, y) => x[1].start - y[1].start)) {
    out += src.slice(at, f.start);
    if (keep.has(name)) out += src.slice(f.start, f.end);
    at = f.end;
  }
  return (out + src.slice(at)).replace(/\n{3,}/g, '\n\n');
}

/** The ops of `kind` a (dtype, output dtype) kernel group holds. */
function groupOps(kind: 'unary' | 'binary', dtype: GpuDType, out: GpuDType): string[] {
  return kind === 'unary'
    ? UNARY_OPS.filter((o) => unaryOk(o, dtype) && unaryOutDtype(o, dtype) === out)
    : BINARY_OPS.filter((o) => binaryOk(o, dtype) && binaryOutDtype(o, dtype) === out);
}

/** op_<name> for every op of the group, and `fn op` choosing one by the uniform p.op (its index in UNARY_OPS/BINARY_OPS). */
function opGroup(kind: 'unary' | 'binary', dtype: GpuDType, out: GpuDType, defs: Defines): string {
  const names = groupOps(kind, dtype, out);
  const list: readonly string[] = kind === 'unary' ? UNARY_OPS : BINARY_OPS;
  const file = `elementwise/${kind}_op.wgsl`;
  const fns = names.map((o) => preprocess(shaderText(file), { ...defs, OP_UNIFORM: false, [`OP_${o.toUpperCase()}`]: true }, file)
    .replace(/\bfn op\(/, `fn op_${o}(`));
  const T = WGSL_TYPE[dtype], R = WGSL_TYPE[out];
  const params = kind === 'unary' ? `x: ${T}` : `a: ${T}, b: ${T}`, args = kind === 'unary' ? 'x' : 'a, b';
  const cases = names.map((o) => `    case ${list.indexOf(o)}u: { return op_${o}(${args}); }`);
  return `${fns.join('\n')}\nfn op(${params}) -> ${R} {\n  switch p.op {\n${cases.join('\n')}\n    default: { return op_${names[0]}(${args}); }\n  }\n}\n`;
}

type EwDecl = ProgramDecl & { uniforms: { count: 'u32'; nd: 'u32'; zero: 'u32'; op: 'u32' } };

/**
 * The kernel for `kind` (`op`: the unary/binary op, or the destination dtype for cast),
 * input dtype `dtype`, `path`, and on the vec path each operand's mode ('f'/'s').
 */
export function elementwiseProgram(
  kind: EwKind, op: string, dtype: GpuDType, path: EwPath, modes: OperandModes = '', per = launch.per, wg = launch.wg,
): GpuProgram<EwDecl> {
  const ops = operandsOf(kind, dtype);
  const m = path === 'vec' ? (modes || 'f'.repeat(ops.length)) : '';
  const anyOut = op.startsWith('any:') ? op.slice(4) as GpuDType : null;
  const out: GpuDType = anyOut ?? (kind === 'cast' ? op as GpuDType
    : kind === 'unary' ? unaryOutDtype(op as UnaryOp, dtype) as GpuDType
      : kind === 'binary' ? binaryOutDtype(op as BinaryOp, dtype) as GpuDType : dtype);
  const opName = anyOut ? `any_${SHORT[anyOut]}` : kind === 'cast' ? SHORT[op as GpuDType] : kind === 'where' ? '' : op;
  const variant = `${path}${m ? `_${m}` : ''}${per !== EW_PER ? `_p${per}` : ''}${wg !== EW_WG ? `_wg${wg}` : ''}`;
  const entry = [kind, opName, SHORT[dtype], variant].filter(Boolean).join('_');
  return cachedProgram(`elementwise|${entry}`, () => {
    const inputs: Record<string, StorageType> = {};
    for (const [n, d] of ops) inputs[n] = path === 'vec' ? 'vec4u' : words(d) === 2 ? 'vec2u' : 'u32';
    if (path === 'strided') inputs.lay = 'u32';
    const decl: EwDecl = {
      inputs, outputs: { out: path === 'vec' ? 'vec4u' : words(out) === 2 ? 'vec2u' : 'u32' }, uniforms: { count: 'u32', nd: 'u32', zero: 'u32', op: 'u32' },
    };
    const defs: Defines = {
      ...dtypeDefines(dtype), IS_FLOAT: dtype === 'float32', R: WGSL_TYPE[out], WG: wg, PER: per, ENTRY: entry,
      VEC: path === 'vec', STRIDED: path === 'strided', NOPS: ops.length,
    };
    if (anyOut) defs.OP_UNIFORM = true;
    else if (kind === 'unary' || kind === 'binary') defs[`OP_${op.toUpperCase()}`] = true;
    if (kind === 'cast') {
      Object.assign(defs, {
        SRC_COMPLEX: dtype === 'complex64', SRC_FLOAT: dtype === 'float32', SRC_INT: dtype === 'int32',
        DST_SAME: op === dtype, DST_BOOL: op === 'bool' && dtype !== 'bool', DST_COMPLEX: op === 'complex64',
        DST_FLOAT: op === 'float32', DST_INT: op === 'int32', DST_UINT: op === 'uint32',
      });
    }
    return {
      name: `elementwise.${kind}`, key: `${entry}|wg${wg}x${per}`, entryPoint: entry,
      workgroupSize: [wg, 1, 1] as [number, number, number], decl,
      body: () => pruneFunctions(ioHelpers(ops, out, path, m) + (anyOut ? opGroup(kind as 'unary' | 'binary', dtype, anyOut, defs) : '')
        + loadShader(`elementwise/${kind}.wgsl`, defs), entry),
    };
  });
}

// ---------------------------------------------------------------- dispatch

let opsByUniform = false;
/**
 * Tests on a software adapter: unary/binary kernels shared by every op of a (dtype,
 * output dtype, path), the op chosen by a uniform, one item per thread — lavapipe takes
 * ~0.4 s to compile each kernel, and the specialised set runs to hundreds. The op bodies
 * are the specialised kernels' own (elementwise/{unary,binary}_op.wgsl).
 */
export function setElementwiseOpsByUniform(on: boolean): void {
  opsByUniform = on;
}

// Complex transcendental unary ops are compute-bound and long: one element per thread on
// the flat path (the vec path inlines the function 16 times, and lavapipe then takes
// seconds to compile each variant).
const HEAVY_COMPLEX: ReadonlySet<string> = new Set(['sqrt', 'exp', 'log', 'log1p', 'expm1', 'sin', 'cos', 'tanh', 'sigmoid', 'sign']);

/** A binding of `s` padded to `bytes` (its buffer is large enough): lives for one runProgram call. */
function padded(s: GpuStorage, bytes: number): GpuStorage {
  return { buffer: s.buffer, byteLength: bytes, release() { /* the tensor owns the buffer */ } };
}

function check32(words32: number, who: string): void {
  if (words32 > 0xffffffff) throw new DeviceError(`${who}: ${words32} words exceed the GPU kernels' 32-bit indexing`);
}

interface Operand { t: Tensor; dtype: GpuDType }

/**
 * Records the kernel over `n` output elements: the vec path when every operand is the
 * whole output or one element and every full binding pads to whole quads, else the
 * strided path over (dims, strides) — or the flat path when there is no layout (cast).
 */
function dispatch(
  kind: EwKind, op: string, dtype: GpuDType, inputs: Operand[], out: Tensor, n: number,
  layout: { dims: readonly number[]; strides: ReadonlyArray<readonly number[]> } | null, who: string,
): void {
  const outD = out.dtype as GpuDType;
  check32(n * Math.max(words(outD), ...inputs.map((o) => words(o.dtype))), who);
  const quads = Math.ceil(n / 4);
  const fits = (t: Tensor, d: GpuDType) => bufferOf(t.gpuStorage()).size >= quads * 16 * words(d);
  const full = inputs.map((o) => o.t.size === n);
  let opIndex = 0;
  let per = launch.per;
  const wg = launch.wg;
  let heavy = kind === 'unary' && dtype === 'complex64' && HEAVY_COMPLEX.has(op);
  if (opsByUniform && (kind === 'unary' || kind === 'binary')) {
    // one kernel per (kind, dtype, output dtype, path): op by uniform, one item per thread
    opIndex = (kind === 'unary' ? UNARY_OPS as readonly string[] : BINARY_OPS as readonly string[]).indexOf(op);
    op = `any:${outD}`;
    per = 1;
    heavy ||= kind === 'unary';
  }
  // vec modes: every operand whole ('f') or one element ('s'); or, for a 2-D layout
  // [rows, cols] with cols a multiple of 4, also a row broadcast over the rows ('r') or a
  // column broadcast over the columns ('c') — p.nd then holds the quads per row.
  let modes: string | null = inputs.every((o, k) => full[k] || o.t.size === 1) ? full.map((f) => (f ? 'f' : 's')).join('') : null;
  let quadsPerRow = 0;
  if (!modes && layout && layout.dims.length === 2 && layout.dims[1] % 4 === 0) {
    const cols = layout.dims[1];
    const m = layout.strides.map(([so, si]) => (so === cols && si === 1 ? 'f' : so === 0 && si === 1 ? 'r' : so === 1 && si === 0 ? 'c' : so === 0 && si === 0 ? 's' : '?'));
    if (!m.includes('?')) { modes = m.join(''); quadsPerRow = cols / 4; }
  }
  const need = (o: Operand, md: string) => (md === 'f' ? quads : md === 'c' ? Math.ceil(o.t.size / 4) : md === 'r' ? o.t.size / 4 : 0);
  const vecOk = !heavy && modes !== null && fits(out, outD)
    && inputs.every((o, k) => bufferOf(o.t.gpuStorage()).size >= need(o, modes![k]) * 16 * words(o.dtype));
  const names = operandsOf(kind, dtype).map(([nm]) => nm);
  const io: Record<string, GpuStorage> = {};
  if (vecOk && modes) {
    inputs.forEach((o, k) => {
      const q = need(o, modes![k]);
      io[names[k]] = q > 0 ? padded(o.t.gpuStorage(), q * 16 * words(o.dtype)) : o.t.gpuStorage();
    });
    const prog = elementwiseProgram(kind, op, dtype, 'vec', modes, per, wg);
    runProgram(prog, {
      inputs: io, outputs: { out: padded(out.gpuStorage(), quads * 16 * words(outD)) },
      uniforms: { count: quads, nd: quadsPerRow, zero: 0, op: opIndex }, workgroups: Math.ceil(quads / (wg * per)),
    });
    return;
  }
  inputs.forEach((o, k) => { io[names[k]] = o.t.gpuStorage(); });
  if (!layout || heavy) {
    if (heavy) per = 1;
    runProgram(elementwiseProgram(kind, op, dtype, 'flat', '', per, wg), {
      inputs: io, outputs: { out: out.gpuStorage() }, uniforms: { count: n, nd: 0, zero: 0, op: opIndex }, workgroups: Math.ceil(n / (wg * per)),
    });
    return;
  }
  const nd = layout.dims.length;
  const host = new Uint32Array(nd * (1 + inputs.length));
  host.set(layout.dims, 0);
  layout.strides.forEach((s, k) => host.set(s, nd * (k + 1)));
  // A fresh pool buffer: no recorded command uses it yet, so a queue write is ordered.
  const lay = allocStorage(host.byteLength, who);
  try {
    gpuDevice(who).queue.writeBuffer(bufferOf(lay), 0, host.buffer, host.byteOffset, host.byteLength);
    io.lay = lay;
    runProgram(elementwiseProgram(kind, op, dtype, 'strided', '', per, wg), {
      inputs: io, outputs: { out: out.gpuStorage() }, uniforms: { count: n, nd, zero: 0, op: opIndex }, workgroups: Math.ceil(n / (wg * per)),
    });
  } finally {
    lay.release(); // parked by the pool until the submit that reads it
  }
}

// ---------------------------------------------------------------- registry entries

const INT_UNARY: readonly UnaryOp[] = ['neg', 'abs', 'sign', 'conj', 'real', 'imag', 'logicalNot'];

function unaryOk(op: UnaryOp, d: GpuDType): boolean {
  return d === 'float32' || d === 'complex64' || (INT_UNARY.includes(op) && !(d === 'bool' && op === 'neg'));
}

function binaryOk(op: BinaryOp, d: GpuDType): boolean {
  return !(d === 'complex64' && !COMPLEX_BINARY.includes(op)) && !(d === 'bool' && (op === 'sub' || op === 'div' || op === 'pow'));
}

/** Throws DTypeError for a (op, dtype) pair the caller should have promoted or refused. */
function checkUnary(op: UnaryOp, d: GpuDType): void {
  if (!unaryOk(op, d)) throw new DTypeError(`${op}: x has dtype ${d}; the GPU kernel takes float32 or complex64 here (the caller promotes)`);
}

const COMPLEX_BINARY: readonly BinaryOp[] = ['add', 'sub', 'mul', 'div', 'pow', 'eq', 'ne', 'logicalAnd', 'logicalOr'];

function checkBinary(op: BinaryOp, d: GpuDType): void {
  if (d === 'complex64' && !COMPLEX_BINARY.includes(op)) throw new DTypeError(`${op}: not defined for complex64 operands`);
  if (d === 'bool' && (op === 'sub' || op === 'div' || op === 'pow')) {
    throw new DTypeError(`${op}: not defined for two bool operands on the GPU (the caller computes in int32)`);
  }
}

type HalfCastDecl = ProgramDecl & { inputs: { x: 'u32' }; outputs: { out: 'u32' }; uniforms: { count: 'u32'; words: 'u32' } };

/** The float16 ↔ float32 cast (shaders/elementwise/cast_f16.wgsl): toHalf, float32 → float16. */
export function castHalfProgram(toHalf: boolean): GpuProgram<HalfCastDecl> {
  const entry = toHalf ? 'cast_f16_f32' : 'cast_f32_f16';
  return cachedProgram(`elementwise|${entry}`, () => ({
    name: 'elementwise.cast', key: `${entry}|wg${EW_WG}x${EW_PER}`, entryPoint: entry, workgroupSize: [EW_WG, 1, 1],
    decl: { inputs: { x: 'u32' }, outputs: { out: 'u32' }, uniforms: { count: 'u32', words: 'u32' } } as HalfCastDecl,
    body: () => loadShader('elementwise/cast_f16.wgsl', { TO_HALF: toHalf, WG: EW_WG, PER: EW_PER, ENTRY: entry }),
  }));
}

/** Records x (float32) → float16 or x (float16) → float32 into a new tensor. */
function castHalf(x: Tensor, toHalf: boolean, who: string): Tensor {
  const n = x.size;
  check32(n, who);
  const out = emptyGpu(toHalf ? 'float16' : 'float32', x.shape, who);
  const words = Math.ceil(n / 2);
  if (n > 0) {
    runProgram(castHalfProgram(toHalf), {
      inputs: { x: x.gpuStorage() }, outputs: { out: out.gpuStorage() },
      uniforms: { count: n, words }, workgroups: Math.ceil(words / (EW_WG * EW_PER)),
    });
  }
  return out;
}

/**
 * A cast with float16 on one side: float32 ↔ float16 in one kernel; any other dtype
 * through float32 (exact: halves are float32 values, and integers beyond 2^24 overflow a
 * half anyway, so float32 → float16 is the one rounding). The float32 middle is disposed
 * once recorded (the pool keeps it until the submit).
 */
function castWithHalf(x: Tensor, to: DType, who: string): Tensor {
  if (x.dtype === to) return x;
  if (x.dtype === 'float16') {
    const f = castHalf(x, false, who);
    if (to === 'float32') return f;
    try { return cast(f, to); } finally { f.dispose(); }
  }
  if (x.dtype === 'complex64') throw new DTypeError(`${who}: complex64 to float16 would drop the imaginary part (take real() first)`);
  if (x.dtype === 'float32') return castHalf(x, true, who);
  const f = cast(x, 'float32');
  try { return castHalf(f, true, who); } finally { f.dispose(); }
}

function cast(x: Tensor, to: DType): Tensor {
  const who = 'cast';
  requireGpu(x, who, 'x');
  if (x.dtype === 'float16' || to === 'float16') return castWithHalf(x, to, who);
  const src = asGpuDType(x.dtype, who, 'x');
  const dst = asGpuDType(to, who, 'the target');
  if (src === 'complex64' && dst !== 'complex64' && dst !== 'bool') {
    throw new DTypeError(`${who}: complex64 to ${dst} would drop the imaginary part (take real() first)`);
  }
  const out = emptyGpu(dst, x.shape, who);
  if (x.size > 0) dispatch('cast', dst, src, [{ t: x, dtype: src }], out, x.size, null, who);
  return out;
}

/**
 * The tensor a kernel writes: `out`, or a fresh one where out shares a buffer with an input
 * (one buffer cannot be bound read-only and writable in one dispatch; it is copied in after).
 */
function target(out: Tensor | undefined, dtype: DType, shape: readonly number[], inputs: readonly Tensor[], who: string): Tensor {
  if (out) requireGpu(out, who, 'out');
  if (out && !inputs.some((t) => bufferOf(t.gpuStorage()) === bufferOf(out.gpuStorage()))) return out;
  return emptyGpu(dtype, shape, who);
}

/** out after the kernel wrote res: the copy where they differ; out's old pending check dropped (its data were replaced). */
function finish(res: Tensor, out: Tensor | undefined, who: string): Tensor {
  if (!out) return res;
  if (res === out) return out.dropCheck();
  const bytes = res.gpuStorage().byteLength;
  if (bytes > 0) {
    commandEncoder(who).copyBufferToBuffer(bufferOf(res.gpuStorage()), 0, bufferOf(out.gpuStorage()), 0, bytes);
    recordedCommand();
  }
  res.dispose();
  return out;
}

function unary(x: Tensor, op: UnaryOp, out?: Tensor): Tensor {
  requireGpu(x, op, 'x');
  const d = asGpuDType(x.dtype, op, 'x');
  checkUnary(op, d);
  const res = target(out, unaryOutDtype(op, d), x.shape, [x], op);
  const n = x.size;
  if (n > 0) dispatch('unary', op, d, [{ t: x, dtype: d }], res, n, null, op);
  return finish(res, out, op);
}

function binary(a: Tensor, b: Tensor, op: BinaryOp, L: ElementwiseLayout, out?: Tensor): Tensor {
  requireGpu(a, op, 'a');
  requireGpu(b, op, 'b');
  const d = asGpuDType(a.dtype, op, 'a');
  if (b.dtype !== a.dtype) throw new DTypeError(`${op}: a is ${a.dtype} and b is ${b.dtype}; the caller promotes to one dtype`);
  checkBinary(op, d);
  const res = target(out, binaryOutDtype(op, d), L.shape, [a, b], op);
  if (L.size > 0) {
    dispatch('binary', op, d, [{ t: a, dtype: d }, { t: b, dtype: d }], res, L.size, { dims: L.dims, strides: [L.aStrides, L.bStrides] }, op);
  }
  return finish(res, out, op);
}

function where(cond: Tensor<'bool'>, a: Tensor, b: Tensor, L: ElementwiseLayoutN): Tensor {
  const who = 'where';
  requireGpu(cond, who, 'cond');
  requireGpu(a, who, 'a');
  requireGpu(b, who, 'b');
  if (cond.dtype !== 'bool') throw new DTypeError(`${who}: cond has dtype ${cond.dtype}, expected bool`);
  const d = asGpuDType(a.dtype, who, 'a');
  if (b.dtype !== a.dtype) throw new DTypeError(`${who}: a is ${a.dtype} and b is ${b.dtype}; the caller promotes to one dtype`);
  const out = emptyGpu(d, L.shape, who);
  if (L.size > 0) {
    dispatch('where', '', d, [{ t: cond, dtype: 'bool' }, { t: a, dtype: d }, { t: b, dtype: d }], out, L.size, { dims: L.dims, strides: L.strides }, who);
  }
  return out;
}

export function registerElementwiseGpu(): void {
  register('cast', [...GPU_EW_DTYPES, 'float16'], 'gpu', cast);
  register('unary', GPU_EW_DTYPES, 'gpu', unary);
  register('binary', GPU_EW_DTYPES, 'gpu', binary);
  register('where', GPU_EW_DTYPES, 'gpu', where);
}
