// The declaration of a GPU program's bindings and uniforms, and the WGSL generated from
// it (no device code here: device.ts uses it for its probe kernel too).
import { ArgumentError } from '../../core/errors.js';

/** Element types of a storage binding (`array<T>`); the atomic ones for outputs only (WGSL has no read-only atomics). */
export type StorageType = 'f32' | 'i32' | 'u32' | 'vec2f' | 'vec4f' | 'vec2u' | 'vec4u' | 'vec2i' | 'vec4i' | 'atomic<u32>' | 'atomic<i32>';
/** Types of a uniform field. */
export type UniformType = 'u32' | 'i32' | 'f32' | 'vec2u' | 'vec2f' | 'vec4u' | 'vec4f';

/**
 * What a kernel binds, in `@group(0)`: the inputs (`var<storage, read>`, bindings 0…, in
 * declaration order), then the outputs (`var<storage, read_write>`), then, when there are
 * uniform fields, `var<uniform> p: Params` with the fields in declaration order.
 */
export interface ProgramDecl {
  readonly inputs: Readonly<Record<string, StorageType>>;
  readonly outputs: Readonly<Record<string, StorageType>>;
  readonly uniforms: Readonly<Record<string, UniformType>>;
}

/** A uniform's value: a number, or a tuple for vector types. */
export type UniformValue<T extends UniformType> = T extends 'vec4u' | 'vec4f' ? readonly [number, number, number, number]
  : T extends 'vec2u' | 'vec2f' ? readonly [number, number] : number;

/** The uniform values of a declaration, by field name. */
export type UniformValues<U extends ProgramDecl['uniforms']> = { readonly [K in keyof U]: UniformValue<U[K]> };

/** A uniform field's place in the packed struct. */
export interface UniformSlotLayout { name: string; type: UniformType; offset: number }

// WGSL host-shareable layout: size and alignment of each uniform member type.
export const LAYOUT: Record<UniformType, { size: number; align: number; n: number; kind: 'u' | 'i' | 'f' }> = {
  u32: { size: 4, align: 4, n: 1, kind: 'u' },
  i32: { size: 4, align: 4, n: 1, kind: 'i' },
  f32: { size: 4, align: 4, n: 1, kind: 'f' },
  vec2u: { size: 8, align: 8, n: 2, kind: 'u' },
  vec2f: { size: 8, align: 8, n: 2, kind: 'f' },
  vec4u: { size: 16, align: 16, n: 4, kind: 'u' },
  vec4f: { size: 16, align: 16, n: 4, kind: 'f' },
};
export const STORAGE_TYPES = new Set<string>(['f32', 'i32', 'u32', 'vec2f', 'vec4f', 'vec2u', 'vec4u', 'vec2i', 'vec4i', 'atomic<u32>', 'atomic<i32>']);
export const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Offsets of the uniform fields as the WGSL struct with the same members in the same
 * order lays them out (each member at its alignment; the struct rounded up to 16 bytes,
 * the uniform address space's rule for struct sizes).
 */
export function uniformLayout(uniforms: ProgramDecl['uniforms'], who = 'uniformLayout'): { fields: UniformSlotLayout[]; bytes: number } {
  let off = 0;
  const fields: UniformSlotLayout[] = [];
  for (const [name, type] of Object.entries(uniforms)) {
    const l = LAYOUT[type];
    if (!l) throw new ArgumentError(`${who}: unknown uniform type ${String(type)} for ${name}`);
    if (!IDENT.test(name)) throw new ArgumentError(`${who}: bad uniform name "${name}"`);
    off = Math.ceil(off / l.align) * l.align;
    fields.push({ name, type, offset: off });
    off += l.size;
  }
  return { fields, bytes: fields.length ? Math.max(16, Math.ceil(off / 16) * 16) : 0 };
}

/**
 * The WGSL declarations of `decl`: the uniform struct `Params` and the `@group(0)
 * @binding(i)` variables, numbered inputs, outputs, uniform.
 */
export function wgslPreamble(decl: ProgramDecl): string {
  const lines = ['// Bindings generated from the program declaration (src/backend/gpu/program.ts).'];
  const u = Object.entries(decl.uniforms);
  if (u.length) lines.push('struct Params {', ...u.map(([n, t]) => `  ${n}: ${t},`), '}');
  let b = 0;
  for (const [n, t] of Object.entries(decl.inputs)) lines.push(`@group(0) @binding(${b++}) var<storage, read> ${n}: array<${t}>;`);
  for (const [n, t] of Object.entries(decl.outputs)) lines.push(`@group(0) @binding(${b++}) var<storage, read_write> ${n}: array<${t}>;`);
  if (u.length) lines.push(`@group(0) @binding(${b}) var<uniform> p: Params;`);
  return lines.join('\n') + '\n';
}

