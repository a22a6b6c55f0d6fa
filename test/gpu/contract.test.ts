// The GPU contract of issue 12's operations (luFactor, lu, luSolve, solve, solveTriangular,
// inv, det, slogdet, qr): float32 and complex64 run on the GPU at sizes past the old n ≤ 64
// limit and their results stay there; other dtypes, mixed dtypes or devices and bad shapes
// are typed errors naming the function (and the argument where one is at fault); a result
// or workspace larger than the adapter's maxStorageBufferBindingSize / maxBufferSize is a
// DeviceError naming the byte size, raised before any memory is touched (the inputs here
// are small; only the buffer that would be too large is over the limit), after which the
// device is still usable (no Dawn validation error at the next submit). Numerical status as
// on the CPU: the `Ex` variants return the CPU backend's info per matrix, the plain ones raise
// LinAlgError naming the batch element when the result is read.
// Numerics are the other GPU test files' business; this file checks the interface only.
import { describe, expect } from 'vitest';
import { linalg, gpu, Tensor, ShapeError, DTypeError, DeviceError, LinAlgError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

type D = 'float32' | 'complex64';
const DTYPES: readonly D[] = ['float32', 'complex64'];

/** scale·Uniform(-1, 1) entries plus `shift` on the diagonal of each trailing matrix. */
function cpuTensor(dtype: D | 'int32', shape: number[], seed = 1, shift = 0, scale = 1): Tensor {
  const count = shape.reduce((a, b) => a * b, 1);
  if (dtype === 'int32') return Tensor.fromStorage('int32', shape, Int32Array.from({ length: count }, (_, i) => (i % 3) + 1));
  const w = dtype === 'complex64' ? 2 : 1;
  const a = new Float32Array(count * w);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = scale * (s / 2147483648 - 1);
  }
  if (shift && shape.length >= 2) {
    const [m, n] = shape.slice(-2);
    for (let b = 0; b < count / (m * n); b++) for (let k = 0; k < Math.min(m, n); k++) a[(b * m * n + k * n + k) * w] += shift;
  }
  return Tensor.fromStorage(dtype, shape, a as never);
}
const gpuTensor = (dtype: D | 'int32', shape: number[], seed = 1, shift = 0, scale = 1) => cpuTensor(dtype, shape, seed, shift, scale).to('gpu');

/** The smaller of the two buffer limits: a buffer above it is refused. */
function limit(): number {
  const l = gpu.info()!.limits;
  return Math.min(l.maxStorageBufferBindingSize, l.maxBufferSize);
}

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, the call returned');
}

/** `f` throws `type` whose message starts with `who:` and matches every pattern in `mentions`. */
function expectError(f: () => unknown, type: new (...a: never[]) => Error, who: string, ...mentions: RegExp[]): void {
  const e = thrown(f);
  expect(e, `${who}: ${e.name}: ${e.message}`).toBeInstanceOf(type);
  expect(e.message.startsWith(`${who}: `), e.message).toBe(true);
  for (const m of mentions) expect(e.message).toMatch(m);
}

/**
 * `f` throws a DeviceError from `who` naming a byte size above the limit; nothing invalid was
 * recorded, so the next submit succeeds.
 */
async function expectOverLimit(f: () => unknown, who: string): Promise<void> {
  const e = thrown(f);
  expect(e, `${e.name}: ${e.message}`).toBeInstanceOf(DeviceError);
  expect(e.message.startsWith(`${who}: `), e.message).toBe(true);
  const m = /(\d+) bytes/.exec(e.message);
  expect(m, e.message).not.toBeNull();
  expect(Number(m![1])).toBeGreaterThan(limit());
  await gpu.sync();
}

/** Every result tensor of an op's return value (a tensor, or an object of tensors). */
function tensorsOf(r: unknown): Tensor[] {
  if (r instanceof Tensor) return [r];
  return Object.values(r as Record<string, unknown>).filter((v): v is Tensor => v instanceof Tensor);
}

describe('GPU ops accept float32 and complex64 at any size, results on the GPU', () => {
  // n = 70 is past the one-workgroup kernels (n ≤ 64): the blocked paths run. One test per op,
  // since on a cold shader cache each compiles its kernels (lavapipe: seconds per pipeline).
  const n = 70;
  const ops: Array<[string, (A: Tensor, B: Tensor) => unknown, number[][]]> = [
    ['luFactor', (A) => linalg.luFactor(A), [[n, n], [n], []]],
    ['lu', (A) => linalg.lu(A), [[n, n], [n, n], [n, n]]],
    ['luSolve', (A, B) => { const f = linalg.luFactor(A); return linalg.luSolve(f.LU, f.pivots, B); }, [[n, 3]]],
    ['solve', (A, B) => linalg.solve(A, B), [[n, 3]]],
    ['solveTriangular', (A, B) => linalg.solveTriangular(A, B, { upper: true }), [[n, 3]]],
    ['inv', (A) => linalg.inv(A), [[n, n]]],
    ['det', (A) => linalg.det(A), [[]]],
    ['slogdet', (A) => linalg.slogdet(A), [[], []]],
    ['qr', (A) => linalg.qr(A), [[n, n], [n, n]]],
  ];
  for (const dtype of DTYPES) {
    for (const [who, op, shapes] of ops) {
      gpuIt(`${dtype} ${who} at n = ${n}`, async () => {
        // I + small: well conditioned, |det| of order 1 (finite outputs everywhere)
        const A = gpuTensor(dtype, [n, n], 3, 1, 0.5 / Math.sqrt(n));
        const B = gpuTensor(dtype, [n, 3], 4);
        const ts = tensorsOf(op(A, B));
        expect(ts.map((t) => t.shape)).toEqual(shapes);
        for (const t of ts) {
          expect(t.device).toBe('gpu');
          const d = await t.data();
          for (let i = 0; i < d.length; i++) if (!Number.isFinite(d[i])) throw new Error(`${who}: non-finite output ${d[i]} at ${i}`);
        }
      });
    }
  }
});

describe('dtypes: GPU ops take float32 and complex64 only', () => {
  gpuIt('float64 and complex128 cannot be put on the GPU (DTypeError naming the dtype)', () => {
    for (const dt of ['float64', 'complex128'] as const) {
      const t = Tensor.fromStorage(dt, [2, 2], new Float64Array(dt === 'float64' ? 4 : 8));
      expectError(() => t.to('gpu'), DTypeError, 'to', new RegExp(dt));
    }
  });

  gpuIt('int32 matrices on the GPU: a DTypeError from each op, naming it and the dtype', () => {
    const A = gpuTensor('int32', [3, 3]);
    const B = gpuTensor('int32', [3, 2]);
    expectError(() => linalg.luFactor(A), DTypeError, 'luFactor', /int32/);
    expectError(() => linalg.lu(A), DTypeError, 'lu', /int32/);
    expectError(() => linalg.solve(A, B), DTypeError, 'solve', /int32/);
    expectError(() => linalg.solveTriangular(A, B, { upper: false }), DTypeError, 'solveTriangular', /int32/);
    expectError(() => linalg.inv(A), DTypeError, 'inv', /int32/);
    expectError(() => linalg.det(A), DTypeError, 'det', /int32/);
    expectError(() => linalg.slogdet(A), DTypeError, 'slogdet', /int32/);
    expectError(() => linalg.qr(A), DTypeError, 'qr', /int32/);
    const piv = gpuTensor('int32', [3]);
    expectError(() => linalg.luSolve(A, piv, B), DTypeError, 'luSolve', /int32/);
  });

  gpuIt('mixed float32 / complex64 operands: a DTypeError naming both arguments (no silent promotion on the GPU)', () => {
    const A = gpuTensor('float32', [3, 3], 1, 3);
    const Bc = gpuTensor('complex64', [3, 2]);
    expectError(() => linalg.solve(A, Bc), DTypeError, 'solve', /A is float32/, /B is complex64/);
    expectError(() => linalg.solveTriangular(A, Bc, { upper: true }), DTypeError, 'solveTriangular', /A is float32/, /B is complex64/);
    const f = linalg.luFactor(A);
    expectError(() => linalg.luSolve(f.LU, f.pivots, Bc), DTypeError, 'luSolve', /float32/, /B is complex64/);
  });

  gpuIt('luSolve: pivots must be int32 (DTypeError naming pivots)', () => {
    const f = linalg.luFactor(gpuTensor('float32', [3, 3], 1, 3));
    const B = gpuTensor('float32', [3, 1]);
    expectError(() => linalg.luSolve(f.LU, gpuTensor('float32', [3]), B), DTypeError, 'luSolve', /pivots/);
  });
});

describe('shapes and devices: typed errors naming the function and the argument', () => {
  for (const dtype of DTYPES) {
    gpuIt(`${dtype}: not a matrix, not square, mismatched rows and batches`, () => {
      const v = gpuTensor(dtype, [4]);
      const wide = gpuTensor(dtype, [3, 4]);
      const sq = gpuTensor(dtype, [3, 3], 1, 3);
      const B4 = gpuTensor(dtype, [4, 2]);
      // not a (batch of) matrix
      for (const [who, f] of [
        ['luFactor', () => linalg.luFactor(v)], ['lu', () => linalg.lu(v)], ['qr', () => linalg.qr(v)],
        ['det', () => linalg.det(v)], ['slogdet', () => linalg.slogdet(v)], ['inv', () => linalg.inv(v)],
        ['solve', () => linalg.solve(v, B4)], ['solveTriangular', () => linalg.solveTriangular(v, B4, { upper: true })],
      ] as Array<[string, () => unknown]>) expectError(f, ShapeError, who, /\bA is 4\b/);
      // square operations on a 3×4
      for (const [who, f] of [
        ['det', () => linalg.det(wide)], ['slogdet', () => linalg.slogdet(wide)], ['inv', () => linalg.inv(wide)],
        ['solve', () => linalg.solve(wide, B4)], ['solveTriangular', () => linalg.solveTriangular(wide, B4, { upper: true })],
      ] as Array<[string, () => unknown]>) expectError(f, ShapeError, who, /\bA is 3×4\b/, /square/);
      // B with 4 rows for a 3×3 A
      expectError(() => linalg.solve(sq, B4), ShapeError, 'solve', /\bB is 4×2\b/);
      expectError(() => linalg.solveTriangular(sq, B4, { upper: false }), ShapeError, 'solveTriangular', /\bB is 4×2\b/);
      const f = linalg.luFactor(sq);
      expectError(() => linalg.luSolve(f.LU, f.pivots, B4), ShapeError, 'luSolve', /\bB is 4×2\b/);
      expectError(() => linalg.luSolve(wide, gpuTensor('int32', [3]), B4), ShapeError, 'luSolve', /\bLU is 3×4\b/);
      expectError(() => linalg.luSolve(f.LU, gpuTensor('int32', [4]), gpuTensor(dtype, [3, 1])), ShapeError, 'luSolve', /\bpivots is 4\b/);
      // batches that do not broadcast
      const A2 = gpuTensor(dtype, [2, 3, 3], 2, 3);
      const B3 = gpuTensor(dtype, [3, 3, 1]);
      expectError(() => linalg.solve(A2, B3), ShapeError, 'solve', /\bA\b/, /\bB\b/, /broadcast/);
      expectError(() => linalg.solveTriangular(A2, B3, { upper: true }), ShapeError, 'solveTriangular', /\bA\b/, /\bB\b/, /broadcast/);
      const f2 = linalg.luFactor(A2);
      expectError(() => linalg.luSolve(f2.LU, f2.pivots, B3), ShapeError, 'luSolve', /\bLU\b/, /\bB\b/, /broadcast/);
    });
  }

  gpuIt('operands on different devices: a DeviceError naming both', () => {
    const A = gpuTensor('float32', [3, 3], 1, 3);
    const Bcpu = cpuTensor('float32', [3, 2]);
    expectError(() => linalg.solve(A, Bcpu), DeviceError, 'solve', /A is on gpu/, /B is on cpu/);
    expectError(() => linalg.solveTriangular(A, Bcpu, { upper: true }), DeviceError, 'solveTriangular', /A is on gpu/, /B is on cpu/);
    const f = linalg.luFactor(A);
    expectError(() => linalg.luSolve(f.LU, f.pivots, Bcpu), DeviceError, 'luSolve', /gpu/, /B is on cpu/);
    expectError(() => linalg.luSolve(f.LU, cpuTensor('int32', [3]), gpuTensor('float32', [3, 2])), DeviceError, 'luSolve', /pivots are on cpu/);
  });
});

describe('numerical status as on the CPU: info per matrix, LinAlgError on read', () => {
  for (const dtype of DTYPES) {
    gpuIt(`${dtype} n = 70 (blocked paths): a singular member between regular ones`, async () => {
      const n = 70, zc = 37;
      // members 0 and 2: I + small; member 1: column zc zero, so U[zc, zc] is exactly 0 in any order
      const A = cpuTensor(dtype, [3, n, n], 21, 1, 0.5 / Math.sqrt(n));
      const a = A.dataSync() as Float32Array, w = dtype === 'complex64' ? 2 : 1;
      for (let i = 0; i < n; i++) for (let c = 0; c < w; c++) a[((n + i) * n + zc) * w + c] = 0;
      const T = cpuTensor(dtype, [3, n, n], 22, 1, 0.5 / Math.sqrt(n));
      const t = T.dataSync() as Float32Array;
      for (let c = 0; c < w; c++) t[((n + zc) * n + zc) * w + c] = 0; // a zero on member 1's diagonal
      const B = cpuTensor(dtype, [3, n, 2], 23);
      const [Ag, Tg, Bg] = [A.to('gpu'), T.to('gpu'), B.to('gpu')];
      const ints = async (x: Tensor) => Array.from(await x.data());
      const cpuInfo = {
        luFactor: Array.from(linalg.luFactorEx(A).info.dataSync()),
        solve: Array.from(linalg.solveEx(A, B).info.dataSync()),
        inv: Array.from(linalg.invEx(A).info.dataSync()),
        solveTriangular: Array.from(linalg.solveTriangularEx(T, B, { upper: false }).info.dataSync()),
      };
      expect(cpuInfo.luFactor).toEqual([0, zc + 1, 0]);
      expect(await ints(linalg.luFactorEx(Ag).info)).toEqual(cpuInfo.luFactor);
      expect(await ints(linalg.solveEx(Ag, Bg).info)).toEqual(cpuInfo.solve);
      expect(await ints(linalg.invEx(Ag).info)).toEqual(cpuInfo.inv);
      expect(await ints(linalg.solveTriangularEx(Tg, Bg, { upper: false }).info)).toEqual(cpuInfo.solveTriangular);
      // the plain variants: the error comes with the first read, naming batch element 1
      for (const [who, X] of [
        ['luFactor', linalg.luFactor(Ag).LU], ['solve', linalg.solve(Ag, Bg)], ['inv', linalg.inv(Ag)],
        ['solveTriangular', linalg.solveTriangular(Tg, Bg, { upper: false })],
      ] as Array<[string, Tensor]>) {
        const e = await X.data().then(() => null, (err: unknown) => err as LinAlgError);
        expect(e, who).toBeInstanceOf(LinAlgError);
        expect(e!.message.startsWith(`${who}: (batch element 1)`), e!.message).toBe(true);
        expect([e!.batchIndex, e!.info], who).toEqual([1, who === 'luFactor' ? zc + 1 : cpuInfo[who as 'solve'][1]]);
      }
      // det and slogdet report a singular matrix in their values: 0, and sign 0 with log|det| −∞
      const det = Array.from(await linalg.det(Ag).data());
      const { sign, logabsdet } = linalg.slogdet(Ag);
      const sg = Array.from(await sign.data()), la = Array.from(await logabsdet.data());
      expect(det.slice(w, 2 * w)).toEqual(new Array(w).fill(0));
      expect(sg.slice(w, 2 * w)).toEqual(new Array(w).fill(0));
      expect(la[1]).toBe(-Infinity);
      for (const b of [0, 2]) {
        expect(Math.hypot(...det.slice(b * w, (b + 1) * w))).toBeGreaterThan(0);
        expect(Number.isFinite(la[b])).toBe(true);
      }
    });
  }
});

describe('buffers over the adapter limit: DeviceError naming the size, before any memory is touched', () => {
  for (const dtype of DTYPES) {
    gpuIt(`${dtype}: an over-limit matrix cannot reach the GPU, so luFactor, inv, det, slogdet and qr ('reduced', 'r') never see one`, async () => {
      // Those ops' outputs are no larger than A: the limit is met when A is uploaded. The host
      // array is zero-filled lazily by the OS and never read (the upload refuses it first).
      const per = 1024 * 1024 * (dtype === 'complex64' ? 8 : 4);
      const count = Math.floor(limit() / per) + 1;
      const A = Tensor.fromStorage(dtype, [count, 1024, 1024], new Float32Array((count * per) / 4) as never);
      await expectOverLimit(() => A.to('gpu'), 'to');
    });

    // Where an output outgrows the inputs, the op itself must refuse it.
    gpuIt(`${dtype}: solve, luSolve and solveTriangular whose broadcast result is over the limit`, async () => {
      // A batch of 2×2 systems sharing one 2×k right-hand side: X is batch×2×k
      const k = 16384;
      const bytesPerX = 2 * k * (dtype === 'complex64' ? 8 : 4);
      const batch = Math.floor(limit() / bytesPerX) + 1;
      const A = gpuTensor(dtype, [batch, 2, 2], 9, 3);
      const B = gpuTensor(dtype, [2, k], 10);
      await expectOverLimit(() => linalg.solve(A, B), 'solve');
      await expectOverLimit(() => linalg.solveTriangular(A, B, { upper: true }), 'solveTriangular');
      const piv = Tensor.fromStorage('int32', [batch, 2], Int32Array.from({ length: 2 * batch }, () => 2)).to('gpu');
      await expectOverLimit(() => linalg.luSolve(A, piv, B), 'luSolve');
    });

    gpuIt(`${dtype}: lu's P and qr's complete Q of a tall m×1 matrix (m×m) over the limit`, async () => {
      const m = Math.ceil(Math.sqrt(limit() / 4)) + 1;
      const A = gpuTensor(dtype, [m, 1], 11, 1);
      await expectOverLimit(() => linalg.lu(A), 'lu');
      await expectOverLimit(() => linalg.qr(A, { mode: 'complete' }), 'qr');
      // the reduced Q of the same matrix is m×1: fine
      const { Q, R } = linalg.qr(A);
      expect([Q.shape, R.shape]).toEqual([[m, 1], [1, 1]]);
      await gpu.sync();
    });
  }
});
