// Shapes and indexing on the GPU (issue 13, src/backend/gpu/indexing.ts): the kernels behind
// mT, permute, slice, concat, triu, take and put, against torch on CUDA in the same run,
// beside a copy baseline (a buffer-to-buffer copy of the same bytes). The rate column
// counts bytes read and written as "flops": it reads as GB/s. Each result is spot-checked
// against the host data after its timing. On a software adapter (lavapipe) the sizes
// shrink: the paths run, speed is not compared.
import { isGpuOff, registerSuite, type BenchCase } from '../harness.js';
import { gpu, Tensor, matrixTranspose, permute, slice, concat, triu, take, put } from '../../src/index.js';
import { commandEncoder, recordedCommand } from '../../src/backend/gpu/queue.js';
import { bufferOf } from '../../src/backend/gpu/pool.js';

function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
}

function fill(count: number, seed: number): Float32Array {
  const next = lcg(seed);
  return Float32Array.from({ length: count }, () => next() / 2 ** 32);
}

/** A copy of `count` float32 between two GPU buffers (`reps` per sync): the bandwidth baseline. */
function copyCase(count: number, reps: number): BenchCase {
  let a: Tensor | undefined, b: Tensor | undefined;
  return {
    name: `gpu baseline: copy ${count.toLocaleString('en')} float32 (${reps} per sync)`,
    flops: reps * count * 8,
    gpu: async () => {
      if (!a) { a = Tensor.fromStorage('float32', [count], fill(count, 5)).to('gpu'); b = Tensor.fromStorage('float32', [count], new Float32Array(count)).to('gpu'); }
      for (let r = 0; r < reps; r++) {
        commandEncoder('bench').copyBufferToBuffer(bufferOf(a.gpuStorage()), 0, bufferOf(b!.gpuStorage()), 0, count * 4);
        recordedCommand();
      }
      await gpu.sync();
    },
    gpuCheck: async () => { a?.dispose(); b?.dispose(); a = b = undefined; },
    torch: { setup: `a = torch.rand(${count}, device=dev)\nb = torch.empty_like(a)`, stmt: reps > 1 ? `for _ in range(${reps}):\n    b.copy_(a)` : 'b.copy_(a)' },
  };
}

const inputs = new Map<string, { host: Float32Array; x: Tensor }>();
function input(shape: number[], seed = 11): { host: Float32Array; x: Tensor } {
  const key = `${shape.join('x')}|${seed}`;
  let e = inputs.get(key);
  if (!e) {
    const host = fill(shape.reduce((a, b) => a * b, 1), seed);
    e = { host, x: Tensor.fromStorage('float32', shape, host).to('gpu') };
    inputs.set(key, e);
  }
  return e;
}

interface OpCase {
  label: string;
  shape: number[];
  /** Elements read plus written per call. */
  traffic: number;
  run: (x: Tensor) => Tensor;
  /** The expected value at flat output index i, from the host input. */
  want: (h: Float32Array, i: number) => number;
  torchSetup: string;
  torchStmt: string;
}

function opCase(c: OpCase, reps: number): BenchCase {
  return {
    name: `gpu ${c.label} (${reps} per sync)`,
    flops: reps * c.traffic * 4,
    gpu: async () => {
      const { x } = input(c.shape);
      for (let r = 0; r < reps; r++) c.run(x).dispose();
      await gpu.sync();
    },
    gpuCheck: async () => {
      const { host, x } = input(c.shape);
      const got = await c.run(x).data();
      for (let q = 0; q < 64; q++) {
        const i = Math.floor((q * got.length) / 64);
        const want = c.want(host, i);
        if (!(Math.abs(got[i] - want) <= 1e-6 * Math.abs(want))) throw new Error(`indexing-gpu: ${c.label}: entry ${i} is ${got[i]}, expected ${want}`);
      }
    },
    torch: { setup: c.torchSetup, stmt: reps > 1 ? `for _ in range(${reps}):\n    ${c.torchStmt}` : c.torchStmt },
  };
}

function cases(n: number, reps: number): BenchCase[] {
  const m = n; // square matrices of n×n
  const [p0, p1, p2] = [Math.round(n / 16), Math.round(n / 16), 256];
  const idxCount = Math.floor((n * n) / 4);
  const next = lcg(7);
  const idxHost = Int32Array.from({ length: idxCount }, () => next() % (n * n));
  let idx: Tensor<'int32'> | undefined;
  const index = () => (idx ??= Tensor.fromStorage('int32', [idxCount], idxHost).to('gpu') as Tensor<'int32'>);
  const torchIdx = `i = torch.randint(0, ${n * n}, (${idxCount},), device=dev)`;
  const ops: OpCase[] = [
    {
      label: `mT ${m}×${n} float32 (tiled)`, shape: [m, n], traffic: 2 * m * n, run: (x) => matrixTranspose(x),
      want: (h, i) => h[(i % m) * n + Math.floor(i / m)],
      torchSetup: `a = torch.rand(${m}, ${n}, device=dev)`, torchStmt: 'a.mT.contiguous()',
    },
    {
      label: `permute [2, 0, 1] of ${p0}×${p1}×${p2} float32 (general)`, shape: [p0, p1, p2], traffic: 2 * p0 * p1 * p2, run: (x) => permute(x, [2, 0, 1]),
      want: (h, i) => { const c = Math.floor(i / (p0 * p1)), r = i % (p0 * p1); return h[r * p2 + c]; },
      torchSetup: `a = torch.rand(${p0}, ${p1}, ${p2}, device=dev)`, torchStmt: 'a.permute(2, 0, 1).contiguous()',
    },
    {
      label: `slice [:, 1:-1] of ${m}×${n} float32 (contiguous rows)`, shape: [m, n], traffic: 2 * m * (n - 2), run: (x) => slice(x, ':', '1:-1'),
      want: (h, i) => h[Math.floor(i / (n - 2)) * n + (i % (n - 2)) + 1],
      torchSetup: `a = torch.rand(${m}, ${n}, device=dev)`, torchStmt: 'a[:, 1:-1].contiguous()',
    },
    {
      label: `concat 3 × ${m}×${n} float32 along dim 1`, shape: [m, n], traffic: 6 * m * n, run: (x) => concat([x, x, x], 1),
      want: (h, i) => h[Math.floor(i / (3 * n)) * n + (i % n)],
      torchSetup: `a = torch.rand(${m}, ${n}, device=dev)`, torchStmt: 'torch.cat([a, a, a], 1)',
    },
    {
      label: `triu ${m}×${n} float32`, shape: [m, n], traffic: 2 * m * n, run: (x) => triu(x),
      want: (h, i) => ((i % n) >= Math.floor(i / n) ? h[i] : 0),
      torchSetup: `a = torch.rand(${m}, ${n}, device=dev)`, torchStmt: 'torch.triu(a)',
    },
    {
      label: `take ${idxCount.toLocaleString('en')} random of ${m}×${n} float32`, shape: [m, n], traffic: 3 * idxCount, run: (x) => take(x, index()),
      want: (h, i) => h[idxHost[i]],
      torchSetup: `a = torch.rand(${m}, ${n}, device=dev)\n${torchIdx}`, torchStmt: 'torch.take(a, i)',
    },
  ];
  const out = [copyCase(n * n, reps), ...ops.map((c) => opCase(c, reps))];
  // put with accumulate: n² / 4 values into a copy of n² floats (float adds by compare-exchange)
  let vals: Tensor | undefined;
  const values = () => (vals ??= Tensor.fromStorage('float32', [idxCount], fill(idxCount, 3)).to('gpu'));
  out.push({
    name: `gpu put accumulate ${idxCount.toLocaleString('en')} random into ${m}×${n} float32 (${reps} per sync)`,
    flops: reps * (2 * n * n + 4 * idxCount) * 4,
    gpu: async () => {
      const { x } = input([m, n]);
      for (let r = 0; r < reps; r++) put(x, index(), values(), { accumulate: true }).dispose();
      await gpu.sync();
    },
    gpuCheck: async () => {
      const { x } = input([m, n]);
      const got = await put(x, index(), values(), { accumulate: true }).data();
      let total = 0, want = 0;
      const v = await values().data(), h = input([m, n]).host;
      for (let i = 0; i < got.length; i++) { total += got[i]; want += h[i]; }
      for (let i = 0; i < v.length; i++) want += v[i];
      if (!(Math.abs(total - want) <= 1e-5 * want)) throw new Error(`indexing-gpu: put accumulate: total ${total}, expected ${want}`);
    },
    torch: {
      setup: `a = torch.rand(${m}, ${n}, device=dev)\n${torchIdx}\nv = torch.rand(${idxCount}, device=dev)`,
      stmt: reps > 1 ? `for _ in range(${reps}):\n    a.clone().put_(i, v, accumulate=True)` : 'a.clone().put_(i, v, accumulate=True)',
    },
  });
  return out;
}

registerSuite('indexing-gpu', async () => {
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true;
  if (soft) return cases(512, 1); // CPU-emulated adapter: the paths, not the speed
  gpu.memory({ maxPooledBytes: 8 * 2 ** 30 });
  return cases(8192, 10);
});
