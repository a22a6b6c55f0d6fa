// Worker-thread side of the abuse scenarios (scenarios.mjs): loads the built package in
// the worker and runs one task given by workerData.
import { parentPort, workerData } from 'node:worker_threads';
import { loadLib, randomArray, invRatio, EPS } from './util.mjs';

const lib = await loadLib();
const { task } = workerData;

function wellConditioned(n, seed) {
  const a = randomArray(n * n, seed);
  for (let i = 0; i < n; i++) a[i * n + i] += n;
  return a;
}

if (task === 'asyncLoop') {
  // invAsync in flight all the time, until the main thread terminates this worker
  const n = workerData.n;
  const A = lib.tensor({ data: wellConditioned(n, 5), shape: [n, n] });
  parentPort.postMessage({ type: 'started' });
  for (;;) await Promise.all([lib.linalg.invAsync(A), lib.linalg.solveAsync(A, A), lib.linalg.luFactorAsync(A)]);
} else if (task === 'exitMidCall') {
  const n = workerData.n;
  const A = lib.tensor({ data: wellConditioned(n, 6), shape: [n, n] });
  void lib.linalg.invAsync(A);
  void lib.linalg.luFactorAsync(A);
  void lib.linalg.solveAsync(A, A);
  setTimeout(() => process.exit(7), workerData.delay);
} else if (task === 'invLoop') {
  const { n, iters, seed } = workerData;
  let bad = '';
  for (let i = 0; i < iters && !bad; i++) {
    const a = wellConditioned(n, seed * 100000 + i);
    const q = invRatio(a, lib.linalg.inv(lib.tensor({ data: a, shape: [n, n] })).dataSync(), n, EPS.float64);
    if (!(q < 30)) bad = `inv ${i} (n ${n}): ratio ${q}`;
  }
  parentPort.postMessage({ type: 'done', bad });
} else if (task === 'flipThreads') {
  const end = Date.now() + workerData.ms;
  for (let i = 0; Date.now() < end; i++) {
    lib.setNumThreads(1 + (i % 2));
    await new Promise((r) => setTimeout(r, 1));
  }
} else {
  throw new Error(`unknown worker task ${task}`);
}
