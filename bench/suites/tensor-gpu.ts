// The tensor API's elementwise ops on the GPU (issue 13): add of 100 M float32 against the
// bandwidth of a copy kernel (target ≥ 80 %), complex64 mul, a row-broadcast add, with
// torch on CUDA beside each in the same run. Suite `tensor-gpu`.
// The "GFLOP/s" column of these cases is GB/s: `flops` holds the bytes each case reads and
// writes (add: 12 bytes per element, the copy 8). The add/copy ratio of the target is
// add GB/s ÷ copy GB/s of the WGSL copy kernel — cast float32 → float32, which runs the
// same vec4 kernel driver as add (shaders/elementwise/cast.wgsl, DST_SAME: a plain load and
// store, no copyBufferToBuffer); the copyBufferToBuffer case beside it is the driver's own
// copy, for reference. Every case checks sampled outputs on the host after its timing.
// On a software adapter (lavapipe) the sizes shrink: the paths run, speed is not compared.
// LAPIS_EW_LAUNCH=wg,per sets the elementwise kernels' workgroup size and items per thread
// (default 256,4; an item is a vec4 on the same-shape path); LAPIS_EW_TUNE=1 adds the
// add of 100 M float32 and the broadcast add over a grid of launch shapes.
import { isGpuOff, registerSuite, type BenchCase } from '../harness.js';
import { uniformFloats } from '../gpu-case.js';
import { add, mul, gpu, Tensor } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import { commandEncoder, recordedCommand } from '../../src/backend/gpu/queue.js';
import { bufferOf } from '../../src/backend/gpu/pool.js';
import { setElementwiseLaunch } from '../../src/backend/gpu/elementwise.js';
import { targetSumCases } from './reduce-gpu.js';

const M = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n.toLocaleString('en'));
const rep = (stmt: string, r: number) => (r > 1 ? `for _ in range(${r}):\n    ${stmt}` : stmt);

/** Checks 64 sampled outputs (the last included) against `want` on the host. */
async function spot(who: string, out: Tensor, n: number, want: (i: number) => number, tol = 0): Promise<void> {
  const got = (await out.data()) as Float32Array;
  for (let s = 0; s < 64; s++) {
    const i = s === 0 ? n - 1 : Math.floor((s / 64) * n);
    const w = Math.fround(want(i));
    if (!(Math.abs(got[i] - w) <= tol * Math.abs(w))) throw new Error(`tensor-gpu ${who}: element ${i} is ${got[i]}, expected ${w}`);
  }
}

/** The WGSL copy kernel (cast to the same dtype) or the driver's buffer copy, `reps` per sync. */
function copyCase(n: number, reps: number, kind: 'wgsl' | 'buffer'): BenchCase {
  let host: Float32Array, a: Tensor | undefined, b: Tensor | undefined;
  const castF32 = lookup('cast', 'float32', 'gpu', 'bench');
  const run = () => {
    if (kind === 'wgsl') castF32(a!, 'float32').dispose();
    else {
      commandEncoder('bench').copyBufferToBuffer(bufferOf(a!.gpuStorage()), 0, bufferOf(b!.gpuStorage()), 0, n * 4);
      recordedCommand();
    }
  };
  return {
    name: `gpu copy ${M(n)} float32, ${kind === 'wgsl' ? 'WGSL kernel (cast float32 → float32)' : 'copyBufferToBuffer'} (${reps} per sync; GB/s)`,
    flops: reps * n * 8,
    gpu: async () => {
      if (!a) {
        host = uniformFloats(n, 3);
        a = Tensor.fromStorage('float32', [n], host).to('gpu');
        b = Tensor.fromStorage('float32', [n], new Float32Array(n)).to('gpu');
      }
      for (let r = 0; r < reps; r++) run();
      await gpu.sync();
    },
    gpuCheck: async () => {
      if (kind === 'wgsl') await spot('copy', castF32(a!, 'float32'), n, (i) => host[i]);
      else await spot('copy', b!, n, (i) => host[i]);
      a?.dispose(); b?.dispose(); a = b = undefined;
    },
    torch: { setup: `a = torch.rand(${n}, device=dev)\nb = torch.empty_like(a)`, stmt: rep('b.copy_(a)', reps) },
  };
}

/**
 * out = a ∘ b through the public function on GPU tensors of the given shapes (`reps` per
 * sync), bytes = both inputs read once and the output written.
 */
function binaryCase(
  label: string, dtype: 'float32' | 'complex64', sa: number[], sb: number[], reps: number, op: 'add' | 'mul',
  launch?: { wg: number; per: number },
): BenchCase {
  const w = dtype === 'complex64' ? 2 : 1;
  const size = (s: number[]) => s.reduce((p, q) => p * q, 1);
  const na = size(sa), nb = size(sb), n = Math.max(na, nb);
  let ha: Float32Array, hb: Float32Array, a: Tensor | undefined, b: Tensor | undefined;
  const f = op === 'add' ? add : mul;
  const tdt = dtype === 'complex64' ? 'torch.complex64' : 'torch.float32';
  const shape = (s: number[]) => `(${s.join(', ')}${s.length === 1 ? ',' : ''})`;
  return {
    name: `gpu ${label}${launch ? ` wg ${launch.wg} per ${launch.per}` : ''} (${reps} per sync; GB/s)`,
    flops: reps * 4 * w * (na + nb + n),
    gpu: async () => {
      if (!a) {
        ha = uniformFloats(na * w, 5); hb = uniformFloats(nb * w, 7);
        a = Tensor.fromStorage(dtype, sa, ha).to('gpu');
        b = Tensor.fromStorage(dtype, sb, hb).to('gpu');
      }
      const prev = launch ? setElementwiseLaunch(launch) : null;
      try {
        for (let r = 0; r < reps; r++) f(a, b!).dispose();
      } finally {
        if (prev) setElementwiseLaunch(prev);
      }
      await gpu.sync();
    },
    gpuCheck: async () => {
      const out = f(a!, b!);
      const ib = (i: number) => (nb === n ? i : i % nb); // b is the same shape or a trailing row
      if (dtype === 'float32') await spot(label, out, n, (i) => ha[i] + hb[ib(i)]);
      else {
        // check the real parts of sampled products (the flat index of element i's re is 2i)
        const got = (await out.data()) as Float32Array;
        for (let s = 0; s < 64; s++) {
          const i = s === 0 ? n - 1 : Math.floor((s / 64) * n);
          const re = ha[2 * i] * hb[2 * ib(i)] - ha[2 * i + 1] * hb[2 * ib(i) + 1];
          if (!(Math.abs(got[2 * i] - re) <= 1e-6)) throw new Error(`tensor-gpu ${label}: element ${i} is ${got[2 * i]}, expected ${re}`);
        }
      }
      out.dispose(); a?.dispose(); b?.dispose(); a = b = undefined;
    },
    torch: launch ? undefined : {
      setup: `a = torch.rand(${shape(sa)}, device=dev, dtype=${tdt})\nb = torch.rand(${shape(sb)}, device=dev, dtype=${tdt})`,
      stmt: rep(`a ${op === 'add' ? '+' : '*'} b`, reps),
    },
  };
}

/**
 * Cases other helpers append (same conventions: `soft` shrinks the sizes, `flops` = bytes):
 * the reductions helper adds "sum 100 M float32" here.
 */
function moreCases(soft: boolean): BenchCase[] {
  // sum of 100 M float32 (issue target ≥ 70 % of the WGSL copy's GB/s) and over the last dim
  // of 10000×10000, from suite reduce-gpu (which adds more shapes and a parameter grid)
  return targetSumCases(soft);
}

async function cases(): Promise<BenchCase[]> {
  const env = process.env.LAPIS_EW_LAUNCH;
  if (env) {
    const [wg, per] = env.split(',').map(Number);
    setElementwiseLaunch({ wg, per });
  }
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true || process.env.LAPIS_BENCH_QUICK === '1';
  if (soft) {
    // a CPU-emulated adapter (or --quick): small sizes, to show the paths work
    const n = 1_000_000;
    return [
      copyCase(n, 1, 'wgsl'), copyCase(n, 1, 'buffer'),
      binaryCase(`add ${M(n)} float32`, 'float32', [n], [n], 1, 'add'),
      binaryCase('mul 100,000 complex64', 'complex64', [100_000], [100_000], 1, 'mul'),
      binaryCase('broadcast add 1000×1000 + 1000 float32', 'float32', [1000, 1000], [1000], 1, 'add'),
      ...moreCases(true),
    ];
  }
  gpu.memory({ maxPooledBytes: 8 * 2 ** 30 });
  const n = 100_000_000;
  return [
    copyCase(n, 10, 'wgsl'),
    copyCase(n, 10, 'buffer'),
    // issue 13's target: ≥ 80 % of the WGSL copy's GB/s
    binaryCase(`add ${M(n)} float32`, 'float32', [n], [n], 10, 'add'),
    binaryCase('mul 10 M complex64', 'complex64', [10_000_000], [10_000_000], 10, 'mul'),
    binaryCase('broadcast add 10000×10000 + 10000 float32', 'float32', [10_000, 10_000], [10_000], 10, 'add'),
    ...moreCases(false),
    ...(process.env.LAPIS_EW_TUNE === '1' ? tuneCases(n) : []),
  ];
}

/** The add of n float32 and the 10000² row-broadcast add over launch shapes (no torch). */
function tuneCases(n: number): BenchCase[] {
  const out: BenchCase[] = [];
  for (const wg of [128, 256, 512]) {
    for (const per of [1, 2, 4, 8]) {
      out.push(binaryCase(`tune add ${M(n)} float32`, 'float32', [n], [n], 10, 'add', { wg, per }));
      out.push(binaryCase('tune broadcast add 10000×10000 + 10000 float32', 'float32', [10_000, 10_000], [10_000], 10, 'add', { wg, per }));
    }
  }
  return out;
}

registerSuite('tensor-gpu', cases);
