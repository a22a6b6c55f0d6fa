// Elementwise special functions. CPU: 10M float64 elements of each op against numpy's
// frexp/heaviside/logspace and scipy's eval_laguerre (n = 50) on the same data. GPU:
// 100M float32 elements of frexp and heaviside beside two copy references of the same
// run (a vec4 copy kernel and copyBufferToBuffer, 800 MB moved each): for GPU cases the
// "rate" column is bytes moved per second (flops = bytes), so frexp (12 B/element) and
// heaviside (12 B/element) read directly against the copies' GB/s. On a software adapter
// the GPU sizes shrink to 4M so the suite stays short.
import { isGpuOff, registerSuite, type BenchCase } from '../harness.js';
import { frexp, heaviside, logspace, special, gpu, tensor, type Tensor } from '../../src/index.js';
import { runProgram, defineProgram } from '../../src/backend/gpu/program.js';
import { preprocess } from '../../src/backend/gpu/preprocess.js';
import { commandEncoder, recordedCommand } from '../../src/backend/gpu/queue.js';
import { bufferOf } from '../../src/backend/gpu/pool.js';
import { emptyGpu } from '../../src/backend/gpu/tensor-ops.js';

const N_CPU = 10_000_000;

/** Deterministic data both sides build the same way: a golden-ratio sequence scaled to [lo, hi). */
function golden(n: number, lo: number, hi: number, C: Float64ArrayConstructor | Float32ArrayConstructor): Float64Array | Float32Array {
  const a = new C(n);
  for (let i = 0; i < n; i++) { const f = (i * 0.6180339887498949) % 1; a[i] = lo + (hi - lo) * f; }
  return a;
}
const pyGolden = (n: number, lo: number, hi: number, dt = 'np.float64') =>
  `np.asarray(${lo} + (${hi} - ${lo}) * np.mod(np.arange(${n}, dtype=np.float64) * 0.6180339887498949, 1.0), dtype=${dt})`;

function cpuCases(): BenchCase[] {
  const x = tensor({ data: golden(N_CPU, -100, 100, Float64Array), shape: [N_CPU] });
  const v = tensor({ data: golden(N_CPU, 0, 1, Float64Array).reverse(), shape: [N_CPU] });
  const xl = tensor({ data: golden(N_CPU, 0, 60, Float64Array), shape: [N_CPU] });
  const target = [{ vs: 'numpy' as const, maxRatio: 2.0 }];
  return [
    {
      name: 'frexp f64 n=10M',
      lapis: () => { frexp(x); },
      python: { setup: `x = ${pyGolden(N_CPU, -100, 100)}`, stmt: 'np.frexp(x)' },
      targets: target,
    },
    {
      name: 'heaviside f64 n=10M',
      lapis: () => { heaviside(x, v); },
      python: { setup: `x = ${pyGolden(N_CPU, -100, 100)}\nv = ${pyGolden(N_CPU, 0, 1)}[::-1].copy()`, stmt: 'np.heaviside(x, v)' },
      targets: target,
    },
    {
      name: 'logspace f64 n=10M (0..10)',
      lapis: () => { logspace(0, 10, N_CPU); },
      python: { setup: '', stmt: `np.logspace(0, 10, ${N_CPU})` },
      targets: target,
    },
    {
      name: 'laguerre n=50 f64 x∈[0,60) n=10M (scipy eval_laguerre)',
      lapis: () => { special.laguerrePolynomialL(xl, 50); },
      python: { setup: `import scipy.special as sps\nx = ${pyGolden(N_CPU, 0, 60)}`, stmt: 'sps.eval_laguerre(50, x)' },
      targets: target,
    },
  ];
}

// ------------------------------------------------------------------------------ GPU

const COPY_WG = 256, COPY_PER = 4;
/** Dispatches per sync on a real GPU, so the host round trip of the sync is not timed as bandwidth. */
const REPS = 10;
const copyProgram = defineProgram({
  name: 'bench.copy', key: `vec4u|wg${COPY_WG}x${COPY_PER}`, entryPoint: 'copy_vec4_u32', workgroupSize: [COPY_WG, 1, 1],
  decl: { inputs: { src: 'vec4u' }, outputs: { dst: 'vec4u' }, uniforms: { n4: 'u32' } },
  body: () => preprocess(`#include "common/linear_id.wgsl"
@compute @workgroup_size(${COPY_WG})
fn copy_vec4_u32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let tile = linear_workgroup_id(wid, nwg) * ${COPY_WG * COPY_PER}u;
  let base = tile + lid;
  if (tile + ${COPY_WG * COPY_PER}u <= p.n4) {
    var b: array<vec4u, ${COPY_PER}>;
    for (var k = 0u; k < ${COPY_PER}u; k++) { b[k] = src[base + k * ${COPY_WG}u]; }
    for (var k = 0u; k < ${COPY_PER}u; k++) { dst[base + k * ${COPY_WG}u] = b[k]; }
    return;
  }
  for (var k = 0u; k < ${COPY_PER}u; k++) {
    let i = base + k * ${COPY_WG}u;
    if (i < p.n4) { dst[i] = src[i]; }
  }
}`, {}, 'bench/copy'),
});

/** Compares sampled GPU results with the CPU backend, so a fast wrong kernel cannot post a figure. */
async function spotCheck(what: string, got: Tensor, want: Tensor): Promise<void> {
  const g = await got.data(), w = want.dataSync();
  const n = w.length;
  for (let s = 0; s < 4096; s++) {
    const i = s === 0 ? n - 1 : Math.floor(((s * 0.6180339887498949) % 1) * n);
    if (!(Object.is(g[i], w[i]) || (Number.isNaN(g[i]) && Number.isNaN(w[i])))) {
      throw new Error(`special bench: GPU ${what} differs from the CPU at ${i}: ${g[i]} vs ${w[i]}`);
    }
  }
}

async function gpuCases(): Promise<BenchCase[]> {
  if (isGpuOff() || !(await gpu.available())) return [];
  const soft = gpu.info()?.isSoftware === true;
  const n = soft ? 4_000_000 : 100_000_000;
  const label = soft ? '4M' : '100M';
  const reps = soft ? 1 : REPS;
  const bytes = 4 * n;
  // REPS dispatches per sync hold REPS sets of outputs: let the pool keep them all, or
  // each sample would create (and Dawn would lazily clear) fresh buffers.
  if (reps > 1) gpu.memory({ maxPooledBytes: reps * 3 * bytes + (2 << 30) });
  const per = reps > 1 ? `, ${reps} per sync` : '';
  // Inputs are made on the host once; mixed classes so no branch is predictable.
  const hostX = golden(n, -100, 100, Float32Array) as Float32Array;
  for (let i = 0; i < n; i += 7) hostX[i] = 0;
  for (let i = 3; i < n; i += 101) hostX[i] = 1e-40; // subnormal
  const hostV = golden(n, 0, 1, Float32Array) as Float32Array;
  let xg: Tensor | undefined, vg: Tensor | undefined, dst: Tensor | undefined;
  const ensure = () => {
    xg ??= tensor({ data: hostX, shape: [n] }).to('gpu');
    vg ??= tensor({ data: hostV, shape: [n] }).to('gpu');
    dst ??= emptyGpu('float32', [n], 'bench');
  };
  let checked = false;
  const check = async () => {
    if (checked) return;
    checked = true;
    const xc = tensor({ data: hostX, shape: [n] }), vc = tensor({ data: hostV, shape: [n] });
    const f = frexp(xg!), fc = frexp(xc);
    await spotCheck('frexp mantissa', f.mantissa, fc.mantissa);
    await spotCheck('frexp exponent', f.exponent, fc.exponent);
    await spotCheck('heaviside', heaviside(xg!, vg!), heaviside(xc, vc));
  };
  const torchSetup = `n = ${n}\nx = (${pyGolden(n, -100, 100, 'np.float32')})\nx[::7] = 0\nx[3::101] = 1e-40\nv = ${pyGolden(n, 0, 1, 'np.float32')}\nx = torch.from_numpy(x).to(dev)\nv = torch.from_numpy(v).to(dev)`;
  return [
    {
      name: `gpu copy kernel f32 n=${label} (vec4, ${(2 * bytes / 1e6).toFixed(0)} MB moved${per}; rate = GB/s)`,
      flops: reps * 2 * bytes,
      gpu: async () => {
        ensure();
        for (let r = 0; r < reps; r++) {
          runProgram(copyProgram, {
            inputs: { src: xg!.gpuStorage() }, outputs: { dst: dst!.gpuStorage() },
            uniforms: { n4: n / 4 },
            workgroups: Math.ceil(n / 4 / (COPY_WG * COPY_PER)),
          });
        }
        await gpu.sync();
      },
      torch: { setup: torchSetup + '\ny = torch.empty_like(x)', stmt: reps > 1 ? `for _ in range(${reps}):\n    y.copy_(x)` : 'y.copy_(x)' },
    },
    {
      name: `gpu copyBufferToBuffer f32 n=${label} (${(2 * bytes / 1e6).toFixed(0)} MB moved${per}; rate = GB/s)`,
      flops: reps * 2 * bytes,
      gpu: async () => {
        ensure();
        for (let r = 0; r < reps; r++) {
          commandEncoder('bench').copyBufferToBuffer(bufferOf(xg!.gpuStorage()), 0, bufferOf(dst!.gpuStorage()), 0, bytes);
          recordedCommand();
        }
        await gpu.sync();
      },
    },
    {
      name: `gpu frexp f32 n=${label} (12 B/element${per}; rate = GB/s)`,
      flops: reps * 3 * bytes,
      gpu: async () => {
        ensure();
        await check();
        // Disposed at once: the pool parks the buffers until the submit, so each
        // dispatch writes fresh ones and the work is the same as one call's.
        for (let r = 0; r < reps; r++) {
          const o = frexp(xg!);
          o.mantissa.dispose();
          o.exponent.dispose();
        }
        await gpu.sync();
      },
      torch: { setup: torchSetup, stmt: reps > 1 ? `for _ in range(${reps}):\n    torch.frexp(x)` : 'torch.frexp(x)' },
    },
    {
      name: `gpu heaviside f32 n=${label} (12 B/element${per}; rate = GB/s)`,
      flops: reps * 3 * bytes,
      gpu: async () => {
        ensure();
        await check();
        for (let r = 0; r < reps; r++) heaviside(xg!, vg!).dispose();
        await gpu.sync();
      },
      torch: { setup: torchSetup, stmt: reps > 1 ? `for _ in range(${reps}):\n    torch.heaviside(x, v)` : 'torch.heaviside(x, v)' },
    },
  ];
}

registerSuite('special', async () => [...cpuCases(), ...(await gpuCases())]);
registerSuite('special-gpu', gpuCases);
