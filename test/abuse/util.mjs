// Shared by the abuse children (plain Node, no vitest): loading the built package, the
// typed-error contract, and answer checks computed here in float64 (never by lapis itself).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The built package: $LAPIS_ABUSE_DIST/src/index.js (the harness sets it). */
export async function loadLib() {
  const dist = process.env.LAPIS_ABUSE_DIST;
  if (!dist) throw new Error('LAPIS_ABUSE_DIST is not set (run through test/abuse/*.test.ts)');
  return import(pathToFileURL(join(dist, 'src', 'index.js')).href);
}

/** A scenario's verdict "wrong answer / wrong outcome": the child exits 1 with this text. */
export class Verdict extends Error {}

export function fail(msg) {
  throw new Verdict(msg);
}

export function typedClasses(lib) {
  return [lib.ShapeError, lib.DTypeError, lib.DeviceError, lib.ArgumentError, lib.LinAlgError];
}

export function isTyped(lib, e) {
  return typedClasses(lib).some((C) => e instanceof C);
}

export function describeError(e) {
  if (!(e instanceof Error)) return `a thrown non-Error ${typeof e}: ${String(e).slice(0, 200)}`;
  return `${e.constructor?.name ?? 'Error'} (name ${e.name}): ${e.message.slice(0, 300)}`;
}

/** Runs f (sync or async): { value } or { error }. */
export async function outcome(f) {
  try {
    return { value: await f() };
  } catch (error) {
    return { error };
  }
}

/** `f` must throw one of the library's typed errors (optionally of class `C`). */
export async function expectTyped(lib, what, f, C) {
  const r = await outcome(f);
  if (!('error' in r)) fail(`${what}: returned instead of throwing a typed error`);
  if (!isTyped(lib, r.error)) fail(`${what}: threw ${describeError(r.error)}, not one of the library's typed errors`);
  if (C && !(r.error instanceof C)) fail(`${what}: threw ${describeError(r.error)}, expected ${C.name}`);
  return r.error;
}

/** Either a typed error or a value that `check` accepts; anything else fails. */
export async function typedOrRight(lib, what, f, check) {
  const r = await outcome(f);
  if ('error' in r) {
    if (!isTyped(lib, r.error)) fail(`${what}: threw ${describeError(r.error)}, not a typed error`);
    return `${what}: ${r.error.name}`;
  }
  await check(r.value);
  return `${what}: right answer`;
}

/** Deterministic uniform(-1, 1) stream (xorshift32). */
export function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 2 ** 31 - 1;
  };
}

export function randomArray(len, seed, Ctor = Float64Array) {
  const r = rng(seed);
  const a = new Ctor(len);
  for (let i = 0; i < len; i++) a[i] = r();
  return a;
}

export const EPS = { float32: 2 ** -24, float64: 2 ** -53 };

export function normInf(v) {
  let m = 0;
  for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]));
  return m;
}

/** y = A·x for row-major m×n A (float64 accumulation). */
export function matvec(A, m, n, x) {
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
  return y;
}

/** ‖A‖∞ of a row-major m×n matrix. */
export function matNormInf(A, m, n) {
  let best = 0;
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.abs(A[i * n + j]);
    best = Math.max(best, s);
  }
  return best;
}

/**
 * LAPACK dget02-style ratio of a solve, checked on k columns: ‖B − A·X‖ / (‖A‖·‖X‖·n·eps).
 * A n×n, X and B n×k, row-major. < 30 is a backward-stable solve.
 */
export function solveRatio(A, X, B, n, k, eps) {
  let worst = 0;
  const nA = matNormInf(A, n, n);
  for (let c = 0; c < k; c++) {
    const x = new Float64Array(n), b = new Float64Array(n);
    for (let i = 0; i < n; i++) { x[i] = X[i * k + c]; b[i] = B[i * k + c]; }
    const r = matvec(A, n, n, x);
    for (let i = 0; i < n; i++) r[i] -= b[i];
    const den = nA * normInf(x) * n * eps;
    const ratio = normInf(r) / den;
    if (!(ratio <= worst)) worst = Number.isNaN(ratio) ? NaN : Math.max(worst, ratio);
    if (Number.isNaN(worst)) return NaN;
  }
  return worst;
}

/** The inverse check on a random vector v: ‖A·(X·v) − v‖ / (‖A‖·‖X‖·‖v‖·n·eps). */
export function invRatio(A, X, n, eps, seed = 7) {
  const v = randomArray(n, seed);
  const y = matvec(A, n, n, matvec(X, n, n, v));
  for (let i = 0; i < n; i++) y[i] -= v[i];
  return normInf(y) / (matNormInf(A, n, n) * matNormInf(X, n, n) * normInf(v) * n * eps);
}

/** LAPACK dget01-style check of getrf's packed LU and 1-based pivots on a random vector. */
export function luRatio(A, LU, piv, n, eps) {
  const x = randomArray(n, 11);
  const w = matvec(A, n, n, x); // P·A·x: apply the row swaps in order
  for (let i = 0; i < n; i++) {
    const p = piv[i] - 1;
    if (!(p >= i && p < n)) return NaN;
    const t = w[i]; w[i] = w[p]; w[p] = t;
  }
  const y = new Float64Array(n); // U·x
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = i; j < n; j++) s += LU[i * n + j] * x[j];
    y[i] = s;
  }
  for (let i = 0; i < n; i++) { // w − L·y, L unit lower
    let s = y[i];
    for (let j = 0; j < i; j++) s += LU[i * n + j] * y[j];
    w[i] -= s;
  }
  return normInf(w) / (matNormInf(A, n, n) * normInf(x) * n * eps);
}

export function allFinite(a) {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

export function anyNaN(a) {
  for (let i = 0; i < a.length; i++) if (Number.isNaN(a[i])) return true;
  return false;
}

export function sameShape(t, shape, what) {
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    fail(`${what}: shape [${t.shape}], expected [${shape}]`);
  }
}
