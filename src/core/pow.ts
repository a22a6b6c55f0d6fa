// pow with C's special cases, and logspace through it, for host code that must give the
// native kernels' results without calling them (the GPU backend never imports the CPU
// backend). Math.pow follows IEEE 754's pow where C99 returns 1: pow(1, y) for every y
// (NaN and ±Inf included) and pow(−1, ±Inf).

/** C99 `pow(b, e)`. */
export function cpow(b: number, e: number): number {
  if (b === 1 || (b === -1 && (e === Infinity || e === -Infinity))) return 1;
  return Math.pow(b, e);
}

// C's pow returns the FPU's default NaN for a negative finite base and a non-integer
// exponent: negative on x86 (0xffc00000 as float32), positive elsewhere (arm64).
const arch = (globalThis as { process?: { arch?: string } }).process?.arch;
const INVALID_NAN_BITS = arch === 'x64' || arch === 'ia32' ? 0xffc00000 : 0x7fc00000;

const invalid = (b: number, e: number): boolean => b < 0 && b > -Infinity && Number.isFinite(e) && !Number.isInteger(e);

/**
 * logspace rounded to float32 as native/src/special/logspace.cpp computes it with pow
 * throughout (its path for bases outside (0, Inf) and for non-finite exponents, where
 * its faster interior formula gives pow's values too): torch's exponents, the first half
 * counting up from start and the second down from end, in double, rounded once.
 */
export function logspacePow(steps: number, start: number, end: number, base: number, out: Float32Array): void {
  if (steps <= 0) return;
  const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  const put = (i: number, e: number) => {
    if (invalid(base, e)) bits[i] = INVALID_NAN_BITS;
    else out[i] = cpow(base, e);
  };
  if (steps === 1) {
    put(0, start);
    return;
  }
  const step = (end - start) / (steps - 1);
  const half = Math.floor(steps / 2);
  for (let i = 0; i < steps; i++) put(i, i < half ? start + step * i : end - step * (steps - 1 - i));
}

/** Bits of logspace's float32 endpoints (base^start, base^end: pow in double, rounded once). */
export function logspaceEndpointBits(steps: number, start: number, end: number, base: number): [number, number] {
  const e = new Float32Array([cpow(base, start), steps === 1 ? cpow(base, start) : cpow(base, end)]);
  const u = new Uint32Array(e.buffer);
  return [u[0], u[1]];
}
