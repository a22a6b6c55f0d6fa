// One validator for every public options object and scalar argument, so a bad value is
// the same typed error everywhere: `null` or a non-object for options, unknown keys,
// non-boolean booleans, non-integer integers and NaN/±Inf numbers are refused, never
// coerced (`{ hermitian: 'no' }` must not read as true).
import { ArgumentError, DTypeError } from './errors.js';
import { DTYPES, type DType } from './dtype.js';

/** What one option (or scalar argument) may hold. `undefined` always means "not given". */
export type OptionSpec =
  | { kind: 'boolean' }
  | { kind: 'integer'; min?: number; max?: number }
  | { kind: 'number'; min?: number; max?: number; finite?: boolean; nan?: boolean }
  | { kind: 'oneOf'; values: readonly unknown[] }
  | { kind: 'dtype'; values?: readonly DType[] }
  | { kind: 'array'; of?: OptionSpec }
  | { kind: 'check'; test: (v: unknown) => boolean; want: string }
  | { kind: 'any' };

/** Spec shorthands: `readOptions(who, opts, { left: opt.bool, rcond: opt.num() })`. */
export const opt = {
  bool: { kind: 'boolean' } as OptionSpec,
  int: (min?: number, max?: number): OptionSpec => ({ kind: 'integer', min, max }),
  /** A number; finite by default (`{ finite: false }` allows ±Inf, never NaN unless `nan`). */
  num: (o: { min?: number; max?: number; finite?: boolean; nan?: boolean } = {}): OptionSpec => ({ kind: 'number', ...o }),
  oneOf: (...values: unknown[]): OptionSpec => ({ kind: 'oneOf', values }),
  dtype: (...values: DType[]): OptionSpec => ({ kind: 'dtype', values: values.length ? values : undefined }),
  device: { kind: 'oneOf', values: ['cpu', 'gpu'] } as OptionSpec,
  array: (of?: OptionSpec): OptionSpec => ({ kind: 'array', of }),
  check: (test: (v: unknown) => boolean, want: string): OptionSpec => ({ kind: 'check', test, want }),
  any: { kind: 'any' } as OptionSpec,
};

/** How a value prints in a message: strings quoted, objects by their tag. */
export function show(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return v.length <= 8 ? `[${v.map(show).join(', ')}]` : `an array of ${v.length}`;
  return Object.prototype.toString.call(v);
}

function describe(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'boolean': return 'a boolean';
    case 'integer': {
      const r = spec.min !== undefined && spec.max !== undefined ? ` in [${spec.min}, ${spec.max}]`
        : spec.min !== undefined ? ` ≥ ${spec.min}` : spec.max !== undefined ? ` ≤ ${spec.max}` : '';
      return `an integer${r}`;
    }
    case 'number': {
      const r = spec.min !== undefined ? ` ≥ ${spec.min}` : '';
      return `a ${spec.finite === false ? 'non-NaN' : 'finite'} number${r}${spec.max !== undefined ? ` ≤ ${spec.max}` : ''}`;
    }
    case 'oneOf': return `one of ${spec.values.map(show).join(', ')}`;
    case 'dtype': return `one of ${(spec.values ?? DTYPES).join(', ')}`;
    case 'array': return spec.of ? `an array of ${describe(spec.of)}s` : 'an array';
    case 'check': return spec.want;
    case 'any': return 'anything';
  }
}

function valid(spec: OptionSpec, v: unknown): boolean {
  switch (spec.kind) {
    case 'boolean': return typeof v === 'boolean';
    case 'integer':
      return Number.isSafeInteger(v) && (spec.min === undefined || (v as number) >= spec.min) &&
        (spec.max === undefined || (v as number) <= spec.max);
    case 'number': {
      if (typeof v !== 'number') return false;
      if (Number.isNaN(v)) return spec.nan === true;
      if (spec.finite !== false && !Number.isFinite(v)) return false;
      return (spec.min === undefined || v >= spec.min) && (spec.max === undefined || v <= spec.max);
    }
    case 'oneOf': return spec.values.includes(v);
    case 'dtype': return (spec.values ?? DTYPES).includes(v as DType);
    case 'array': return Array.isArray(v) && (!spec.of || v.every((x) => valid(spec.of!, x)));
    case 'check': return spec.test(v);
    case 'any': return true;
  }
}

/**
 * Checks one scalar argument (or option value) against its spec and returns it.
 * ArgumentError `who: name must be …, got …`; DTypeError for a dtype.
 */
export function checkArg<T = unknown>(who: string, name: string, v: unknown, spec: OptionSpec): T {
  if (!valid(spec, v)) {
    const msg = `${who}: ${name} must be ${describe(spec)}, got ${show(v)}`;
    throw spec.kind === 'dtype' ? new DTypeError(msg) : new ArgumentError(msg);
  }
  return v as T;
}

/**
 * Validates an options object: `undefined` is `{}`; `null`, arrays and non-objects are
 * refused; every key must be in `schema`; every value given (not undefined) must fit its
 * spec. Returns the same object, typed. Errors name `who` and the option.
 */
export function readOptions<T extends object>(
  who: string, opts: T | undefined | null, schema: Record<string, OptionSpec>, name = 'options',
): T {
  if (opts === undefined) return {} as T;
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new ArgumentError(`${who}: ${name} must be an object, got ${show(opts)}`);
  }
  for (const key of Object.keys(opts)) {
    const spec = schema[key];
    if (!spec) {
      const known = Object.keys(schema);
      throw new ArgumentError(`${who}: unknown option '${key}' in ${name}` +
        (known.length ? ` (expected ${known.map((k) => `'${k}'`).join(', ')})` : ' (it takes none)'));
    }
    const v = (opts as Record<string, unknown>)[key];
    if (v !== undefined) checkArg(who, `option ${key}`, v, spec);
  }
  return opts;
}
