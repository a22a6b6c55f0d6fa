// Smoke test of an installed lapis (scripts/test-install.sh, scripts/test-runtimes.sh): solve,
// inv and svd on the CPU with residual checks, and the CPU backend's name, which must be the
// one named on the command line. Plain JS over toArray(), so it runs under Node, Bun and Deno.
//   node smoke-installed.mjs native|wasm
import { linalg, tensor, cpuBackend } from 'lapis';

const expected = process.argv[2];
if (expected !== 'native' && expected !== 'wasm') {
  console.error('usage: smoke-installed.mjs native|wasm');
  process.exit(2);
}

const n = 40;
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => rand() + (i === j ? 4 : 0)));
const b = Array.from({ length: n }, () => [rand()]);
const mul = (X, Y) => X.map((row) => Y[0].map((_, j) => row.reduce((s, x, k) => s + x * Y[k][j], 0)));
const fro = (X) => Math.sqrt(X.flat().reduce((s, x) => s + x * x, 0));
const sub = (X, Y) => X.map((row, i) => row.map((x, j) => x - Y[i][j]));
const eps = Number.EPSILON;
const failures = [];
const check = (what, value, bound) => {
  const ok = Number.isFinite(value) && value <= bound;
  console.log(`  ${what}: ${value.toExponential(2)} (bound ${bound.toExponential(1)}) ${ok ? 'ok' : 'FAIL'}`);
  if (!ok) failures.push(what);
};

const At = tensor(A, { dtype: 'float64' });
const x = linalg.solve(At, tensor(b, { dtype: 'float64' })).toArray();
check('solve ‖Ax − b‖ / (‖A‖‖x‖)', fro(sub(mul(A, x), b)) / (fro(A) * fro(x)), 100 * n * eps);

const Ainv = linalg.inv(At).toArray();
const I = A.map((row, i) => row.map((_, j) => (i === j ? 1 : 0)));
check('inv ‖A·inv(A) − I‖ / (‖A‖‖inv(A)‖)', fro(sub(mul(A, Ainv), I)) / (fro(A) * fro(Ainv)), 100 * n * eps);

const { U, S, Vh } = linalg.svd(At);
const s = S.toArray();
const US = U.toArray().map((row) => row.map((u, j) => u * s[j]));
check('svd ‖U·diag(S)·Vh − A‖ / ‖A‖', fro(sub(mul(US, Vh.toArray()), A)) / fro(A), 100 * n * eps);

const backend = cpuBackend();
console.log(`cpuBackend() = ${backend}`);
if (backend !== expected) failures.push(`cpuBackend() is '${backend}', expected '${expected}'`);
if (failures.length) {
  console.error(`smoke: FAILED: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('smoke: ok');
