import type { DType, Device } from '../core/dtype.js';
import { ArgumentError, DTypeError } from '../core/errors.js';
import type { Tensor } from '../core/tensor.js';
import { readOptions, opt, show } from '../core/options.js';
import { lookup } from '../backend/registry.js';

export interface LogspaceOptions {
  /** Base of the powers (default 10). */
  base?: number;
  /** float64 (default), float32 or int32 (GPU: float32). */
  dtype?: 'float32' | 'float64' | 'int32';
  device?: Device;
}

/**
 * `steps` values from `base^start` to `base^end`, evenly spaced in the exponent
 * (torch.logspace). The exponents follow torch: `start + step·i` in the first half and
 * `end − step·(steps − 1 − i)` in the second, so both endpoints get their exponent exactly
 * and the ends are exact wherever the power is representable (`logspace(0, 3, 4)` is
 * exactly `[1, 10, 100, 1000]`). `steps = 1` gives `[base^start]`, `steps = 0` an empty
 * tensor. int32 output truncates start and end to integers first (torch), then each power
 * toward zero, saturating at the int32 range (NaN → 0).
 *
 * Syntax: `logspace(start, end, steps, { base, dtype, device })`
 * Example: `logspace(0, 2, 3, { base: 2 })` → `[1, 2, 4]`
 * Throws: ArgumentError if steps is not a non-negative integer, start/end/base are not
 * numbers (NaN and ±Inf are numbers: they give NaN/Inf/0 as in torch), options is not an
 * object or has an unknown key or device; DTypeError for other dtypes (and for anything
 * but float32 on the GPU).
 * See also: `frexp`, docs/special.md.
 */
export function logspace(start: number, end: number, steps: number, opts: LogspaceOptions = {}): Tensor {
  const who = 'logspace';
  opts = readOptions(who, opts, {
    base: opt.check((v) => typeof v === 'number', 'a number'), dtype: opt.dtype('float32', 'float64', 'int32'), device: opt.device,
  });
  const base = opts.base ?? 10;
  const dtype: DType = opts.dtype ?? 'float64';
  const device: Device = opts.device ?? 'cpu';
  for (const [name, v] of [['start', start], ['end', end], ['base', base]] as const) {
    if (typeof v !== 'number') throw new ArgumentError(`${who}: ${name} must be a number, got ${typeof v}`);
  }
  if (!Number.isSafeInteger(steps) || steps < 0) {
    throw new ArgumentError(`${who}: steps must be a non-negative integer, got ${show(steps)}`);
  }
  if (dtype !== 'float32' && dtype !== 'float64' && dtype !== 'int32') {
    throw new DTypeError(`${who}: dtype ${String(dtype)} is not supported (float32, float64 or int32)`);
  }
  return lookup(who, dtype, device, who)(steps, start, end, base, dtype);
}
