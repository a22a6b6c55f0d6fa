// `node --disallow-code-generation-from-strings no-codegen.mjs` (LAPIS_ABUSE_DIST set): run with --disallow-code-generation-from-strings (what a Content-Security-Policy without
// 'unsafe-eval' does to a page): the CPU backend's option wrappers must not need eval.
// Prints one JSON line: the solve's residual (LAPACK's ratio), the wrapper's error for a bad call, and
// whether code generation was really off.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.env.LAPIS_ABUSE_DIST;
const { linalg, randn, sub } = await import(pathToFileURL(join(dist, 'src/index.js')).href);
const { native } = await import(pathToFileURL(join(dist, 'src/backend/cpu/binding.js')).href);

let evalOff = false;
try { new Function('return 1'); } catch (e) { evalOff = e instanceof EvalError; }
const A = randn([40, 40], { seed: 3 }), B = randn([40, 3], { seed: 4 });
const X = linalg.solve(A, B);
const nrm = (t) => linalg.norm(t).dataSync()[0];
const residual = nrm(sub(linalg.matmul(A, X), B)) / (nrm(A) * nrm(X) * 40 * 2 ** -52);
const lu = linalg.luFactor(A);
let badCall = '';
try { native().luFactor(); } catch (e) { badCall = `${e.constructor.name}: ${e.message}`; }
console.log(JSON.stringify({ evalOff, residual, pivots: lu.pivots.size, badCall }));
