// pow with C's special cases, and logspace through it, for host code that must give the
// native kernels' results without calling them (the GPU backend never imports the CPU
// backend). Math.pow follows IEEE 754's pow where C99 returns 1: pow(1, y) for every y
// (NaN and ±Inf included) and pow(−1, ±Inf).

/** C99 `pow(b, e)`. */
export function cpow(b: number, e: number): number {
  if (b === 1 || (b === -1 && (e === Infinity || e === -Infinity))) return 1;
  return Math.pow(b, e);
}

/**
 * logspace rounded to float32 as native/src/special/logspace.cpp computes it with pow
 * throughout (its path for bases outside (0, Inf) and for non-finite exponents, where
 * its faster interior formula gives pow's values too): torch's exponents, the first half
 * counting up from start and the second down from end, in double, rounded once.
 */
export function logspacePow(steps: number, start: number, end: number, base: number, out: Float32Array): void {
  if (steps <= 0) return;
  if (steps === 1) {
    out[0] = cpow(base, start);
    return;
  }
  const step = (end - start) / (steps - 1);
  const half = Math.floor(steps / 2);
  for (let i = 0; i < steps; i++) out[i] = cpow(base, i < half ? start + step * i : end - step * (steps - 1 - i));
}

/** Bits of logspace's float32 endpoints (base^start, base^end: pow in double, rounded once). */
export function logspaceEndpointBits(steps: number, start: number, end: number, base: number): [number, number] {
  const e = new Float32Array([cpow(base, start), steps === 1 ? cpow(base, start) : cpow(base, end)]);
  const u = new Uint32Array(e.buffer);
  return [u[0], u[1]];
}
