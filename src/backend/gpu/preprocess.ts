// A tiny WGSL preprocessor, so one source serves several variants (f32 and complex64
// `vec2f`, tile sizes): `#include "path"` (relative to shaders/, once per file),
// `#if NAME` / `#if !NAME` / `#elif NAME` / `#else` / `#endif` on boolean defines, and
// `${NAME}` substitution of any define.
import { ArgumentError } from '../../core/errors.js';
import { shaderText } from './shaders.js';

export type Defines = Record<string, string | number | boolean>;

/** GPU element types a kernel can be specialised for. */
export type GpuDType = 'float32' | 'complex64' | 'int32' | 'uint32' | 'bool';

/**
 * The standard dtype defines: `T` (element type), `S` (scalar type), `IS_COMPLEX`, `IS_INT`,
 * `IS_UINT`, `IS_BOOL`, `DTYPE` (suffix for entry point names: f32, c64, i32, u32, b), `ZERO`, `ONE`.
 * bool is stored as one u32 (0 or 1) per element: WGSL has no 8-bit storage.
 */
export function dtypeDefines(dtype: GpuDType): Defines {
  switch (dtype) {
    case 'float32':
      return { T: 'f32', S: 'f32', IS_COMPLEX: false, IS_INT: false, IS_UINT: false, IS_BOOL: false, DTYPE: 'f32', ZERO: 'f32(0)', ONE: 'f32(1)' };
    case 'complex64':
      return { T: 'vec2f', S: 'f32', IS_COMPLEX: true, IS_INT: false, IS_UINT: false, IS_BOOL: false, DTYPE: 'c64', ZERO: 'vec2f(0)', ONE: 'vec2f(1, 0)' };
    case 'int32':
      return { T: 'i32', S: 'i32', IS_COMPLEX: false, IS_INT: true, IS_UINT: false, IS_BOOL: false, DTYPE: 'i32', ZERO: 'i32(0)', ONE: 'i32(1)' };
    case 'uint32':
      return { T: 'u32', S: 'u32', IS_COMPLEX: false, IS_INT: false, IS_UINT: true, IS_BOOL: false, DTYPE: 'u32', ZERO: 'u32(0)', ONE: 'u32(1)' };
    case 'bool':
      return { T: 'u32', S: 'u32', IS_COMPLEX: false, IS_INT: false, IS_UINT: false, IS_BOOL: true, DTYPE: 'b', ZERO: 'u32(0)', ONE: 'u32(1)' };
  }
}

function truthy(defines: Defines, expr: string, file: string): boolean {
  const e = expr.trim();
  const neg = e.startsWith('!');
  const name = (neg ? e.slice(1) : e).trim();
  if (!/^[A-Za-z_]\w*$/.test(name)) throw new ArgumentError(`wgsl preprocessor: bad condition "${expr}" in ${file}`);
  const v = defines[name];
  const t = v !== undefined && v !== false && v !== 0 && v !== '' && v !== '0' && v !== 'false';
  return neg ? !t : t;
}

/**
 * Expands `source` (named `file` in messages) with `defines`. Unknown `${NAME}` and
 * unbalanced `#if` throw, so a typo fails at pipeline creation, not as wrong output.
 */
export function preprocess(source: string, defines: Defines, file = '<source>', included = new Set<string>()): string {
  const out: string[] = [];
  // Each frame: is the current branch live, has any branch of this #if been taken, is the enclosing block live.
  const stack: Array<{ live: boolean; taken: boolean; outer: boolean }> = [];
  const live = () => stack.length === 0 || stack[stack.length - 1].live;
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = /^\s*#(\w+)\s*(.*)$/.exec(line);
    if (m) {
      const [, dir, rest] = m;
      const where = `${file}:${i + 1}`;
      switch (dir) {
        case 'if': {
          const outer = live();
          const c = outer && truthy(defines, rest, where);
          stack.push({ live: c, taken: c, outer });
          continue;
        }
        case 'elif': {
          const f = stack[stack.length - 1];
          if (!f) throw new ArgumentError(`wgsl preprocessor: #elif without #if at ${where}`);
          const c = f.outer && !f.taken && truthy(defines, rest, where);
          f.live = c;
          f.taken ||= c;
          continue;
        }
        case 'else': {
          const f = stack[stack.length - 1];
          if (!f) throw new ArgumentError(`wgsl preprocessor: #else without #if at ${where}`);
          f.live = f.outer && !f.taken;
          f.taken = true;
          continue;
        }
        case 'endif':
          if (!stack.pop()) throw new ArgumentError(`wgsl preprocessor: #endif without #if at ${where}`);
          continue;
        case 'include': {
          if (!live()) continue;
          const inc = /^"([^"]+)"\s*$/.exec(rest);
          if (!inc) throw new ArgumentError(`wgsl preprocessor: bad #include at ${where}`);
          if (!included.has(inc[1])) {
            included.add(inc[1]);
            out.push(preprocess(shaderText(inc[1]), defines, inc[1], included));
          }
          continue;
        }
        default:
          throw new ArgumentError(`wgsl preprocessor: unknown directive #${dir} at ${where}`);
      }
    }
    if (!live()) continue;
    out.push(line.replace(/\$\{(\w+)\}/g, (_, name: string) => {
      const v = defines[name];
      if (v === undefined) throw new ArgumentError(`wgsl preprocessor: \${${name}} is not defined (${file}:${i + 1})`);
      return String(v);
    }));
  }
  if (stack.length) throw new ArgumentError(`wgsl preprocessor: unterminated #if in ${file}`);
  return out.join('\n');
}

/** Preprocesses `shaders/<path>`. */
export function loadShader(path: string, defines: Defines): string {
  return preprocess(shaderText(path), defines, path, new Set([path]));
}
