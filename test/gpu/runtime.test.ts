import { describe, expect } from 'vitest';
import { tensor, gpu, Tensor, DTypeError, DeviceError, linalg } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

describe('gpu runtime', () => {
  gpuIt('reports the adapter', () => {
    const info = gpu.info()!;
    expect(info.limits.maxComputeWorkgroupsPerDimension).toBeGreaterThanOrEqual(65535);
    expect(typeof info.isSoftware).toBe('boolean');
  });

  gpuIt('round-trips float32, complex64 and int32', async () => {
    const f = new Float32Array(37).map((_, i) => i * 0.5 - 3);
    const a = tensor({ data: f, shape: [37] }).to('gpu');
    expect(a.device).toBe('gpu');
    expect(Array.from(await a.data())).toEqual(Array.from(f));
    const c = tensor({ data: new Float32Array([1, 2, 3, 4]), shape: [2], dtype: 'complex64' }).to('gpu');
    expect(Array.from(await c.data())).toEqual([1, 2, 3, 4]);
    const i = Tensor.fromStorage('int32', [3], new Int32Array([-1, 0, 2147483647])).to('gpu');
    expect(Array.from(await i.data())).toEqual([-1, 0, 2147483647]);
    const back = await i.toAsync('cpu');
    expect(back.device).toBe('cpu');
    expect(Array.from(back.dataSync())).toEqual([-1, 0, 2147483647]);
  });

  gpuIt('transposes batches with conjugation', async () => {
    const { transpose } = { transpose: lookup('transpose', 'complex64', 'gpu') };
    const c = tensor({ data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [1, 3], dtype: 'complex64' }).to('gpu');
    const ct = transpose(c, true) as Tensor;
    expect(ct.shape).toEqual([3, 1]);
    expect(Array.from(await ct.data())).toEqual([1, -2, 3, -4, 5, -6]);
  });

  gpuIt('transposes tiled and untiled shapes of every GPU dtype', async () => {
    const shapes = [[2, 33, 65], [40, 32], [3, 31, 70], [1, 5], [2, 64, 64]];
    for (const dtype of ['float32', 'complex64', 'int32'] as const) {
      for (const shape of shapes) {
        const [m, n] = shape.slice(-2);
        const batch = shape.length > 2 ? shape[0] : 1;
        const w = dtype === 'complex64' ? 2 : 1;
        const count = batch * m * n * w;
        const src = dtype === 'int32' ? new Int32Array(count) : new Float32Array(count);
        for (let i = 0; i < count; i++) src[i] = (i * 7919) % 1000 - 500;
        const A = Tensor.fromStorage(dtype, shape, src as never).to('gpu');
        for (const conj of [false, true]) {
          const T = lookup('transpose', dtype, 'gpu')(A, conj) as Tensor;
          expect(T.shape).toEqual([...shape.slice(0, -2), n, m]);
          const got = await T.data();
          let bad = 0;
          for (let b = 0; b < batch; b++) for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
            for (let c = 0; c < w; c++) {
              const want = src[((b * m + i) * n + j) * w + c] * (conj && c === 1 ? -1 : 1);
              if (got[((b * n + j) * m + i) * w + c] !== want) bad++;
            }
          }
          expect(bad).toBe(0);
          T.dispose();
        }
        A.dispose();
      }
    }
  });

  gpuIt('refuses float64 on the GPU', () => {
    expect(() => tensor([[1]], { dtype: 'float64' }).to('gpu')).toThrow(DTypeError);
    expect(() => tensor([[1]], { dtype: 'float64' }).to('gpu')).toThrow(/WGSL has no f64/);
  });

  gpuIt('refuses mixed devices', () => {
    const a = tensor([[1]], { dtype: 'float32' });
    const b = a.to('gpu');
    expect(() => linalg.matmul(a, b)).toThrow(DeviceError);
  });
});

import { preprocess, dtypeDefines } from '../../src/backend/gpu/preprocess.js';
import { packUniforms, foldWorkgroups, runProgram, defineProgram } from '../../src/backend/gpu/program.js';
import { allocStorage, poolStats, bucketSize } from '../../src/backend/gpu/pool.js';
import { expect as ex, it } from 'vitest';

describe('wgsl preprocessor', () => {
  it('selects branches and substitutes defines', () => {
    const src = ['#if A', 'a ${X}', '#elif B', 'b', '#else', 'c', '#endif', '#if !A', 'not-a', '#endif'].join('\n');
    ex(preprocess(src, { A: true, X: 7 }).trim()).toBe('a 7');
    ex(preprocess(src, { A: false, B: true }).split('\n').filter(Boolean)).toEqual(['b', 'not-a']);
    ex(preprocess(src, { A: false, B: false }).split('\n').filter(Boolean)).toEqual(['c', 'not-a']);
  });
  it('handles nesting and refuses unknown names and unbalanced blocks', () => {
    const src = ['#if A', '#if B', 'ab', '#else', 'a!b', '#endif', '#else', '#if B', '!ab', '#endif', '#endif'].join('\n');
    ex(preprocess(src, { A: true, B: false }).trim()).toBe('a!b');
    ex(preprocess(src, { A: true, B: true }).trim()).toBe('ab');
    ex(preprocess(src, { A: false, B: true }).trim()).toBe('!ab');
    ex(preprocess(src, { A: false, B: false }).trim()).toBe('');
    ex(() => preprocess('${NOPE}', {})).toThrow(/not defined/);
    ex(() => preprocess('#if A\nx', { A: true })).toThrow(/unterminated/);
    ex(() => preprocess('#endif', {})).toThrow(/without/);
  });
  it('includes the complex helpers for both dtypes', () => {
    const c = preprocess('#include "common/complex.wgsl"', dtypeDefines('complex64'));
    ex(c).toContain('fn tmul(a: vec2f, b: vec2f) -> vec2f { return cmul(a, b); }');
    const r = preprocess('#include "common/complex.wgsl"', dtypeDefines('float32'));
    ex(r).toContain('fn tmul(a: f32, b: f32) -> f32 { return a * b; }');
  });
});

describe('uniform packing and folding', () => {
  it('follows WGSL alignment', () => {
    const b = packUniforms(
      { a: 'u32', v: 'vec2f', i: 'i32', w: 'vec4u', f: 'f32' },
      // by name, in any order: the declaration fixes the layout
      { f: 0.5, w: [5, 6, 7, 8], i: -4, v: [2, 3], a: 1 },
    );
    // a@0, v@8, i@16, w@32, f@48 → 52 → 64
    ex(b.byteLength).toBe(64);
    const dv = new DataView(b);
    ex(dv.getUint32(0, true)).toBe(1);
    ex(dv.getFloat32(8, true)).toBe(2);
    ex(dv.getFloat32(12, true)).toBe(3);
    ex(dv.getInt32(16, true)).toBe(-4);
    ex(dv.getUint32(32, true)).toBe(5);
    ex(dv.getUint32(44, true)).toBe(8);
    ex(dv.getFloat32(48, true)).toBe(0.5);
    ex(() => packUniforms({ x: 'u32' }, { x: -1 })).toThrow(/u32/);
    ex(() => packUniforms({ x: 'u32', y: 'u32' }, { x: 1 } as never)).toThrow(/differ from the declaration/);
  });
  it('folds large counts into a grid that covers them', () => {
    for (const n of [0, 1, 65535, 65536, 70000, 65535 * 65535, 65535 * 65535 + 1, 5e9]) {
      const g = foldWorkgroups(n);
      ex(g.every((d) => d <= 65535)).toBe(true);
      const cap = g[0] * g[1] * g[2];
      ex(cap).toBeGreaterThanOrEqual(n);
      ex(cap - n).toBeLessThan(g[0] * g[1] + 65535 + 1);
    }
  });
  it('buckets sizes with bounded slack', () => {
    for (const n of [1, 255, 256, 257, 1000, 4096, 4097, 1e6, 123456789]) {
      const b = bucketSize(n);
      ex(b).toBeGreaterThanOrEqual(n);
      ex(b % 4).toBe(0);
      if (n > 256) ex(b / n).toBeLessThanOrEqual(1.25 + 1e-9);
    }
  });
});

describe('dispatch folding on the device', () => {
  gpuIt('runs a kernel over more than 65,535 workgroups', async () => {
    const n = 70001;
    const prog = defineProgram({
      name: 'test_fold', key: 'v1', entryPoint: 'main', workgroupSize: [1, 1, 1],
      decl: { inputs: {}, outputs: { out: 'u32' }, uniforms: { total: 'u32' } },
      body: () => preprocess([
        '#include "common/linear_id.wgsl"',
        '@compute @workgroup_size(1)',
        'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {',
        '  let i = linear_workgroup_id(wid, nwg);',
        '  if (i >= p.total) { return; }',
        '  out[i] = i * 3u + 1u;',
        '}',
      ].join('\n'), {}),
    });
    const s = allocStorage(n * 4, 'test');
    runProgram(prog, { inputs: {}, outputs: { out: s }, uniforms: { total: n }, workgroups: n });
    const t = Tensor.fromGpu('int32', [n], s);
    const d = await t.data();
    let bad = 0;
    for (let i = 0; i < n; i++) if (d[i] !== i * 3 + 1) bad++;
    ex(bad).toBe(0);
    t.dispose();
  });

  gpuIt('transposes a batch needing a folded grid', async () => {
    // 16,800,000 elements: 65,625 workgroups of 256 threads, past the 65,535 limit of one dimension
    const batch = 1_400_000, m = 3, n = 4;
    const f = new Float32Array(batch * m * n);
    for (let i = 0; i < f.length; i++) f[i] = i % 16_777_216; // exact in float32
    const a = tensor({ data: f, shape: [batch, m, n] }).to('gpu');
    const t = lookup('transpose', 'float32', 'gpu')(a, false) as Tensor;
    const d = await t.data();
    let bad = 0;
    for (let b = 0; b < batch; b++) for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
      if (d[b * m * n + j * m + i] !== f[b * m * n + i * n + j]) bad++;
    }
    ex(bad).toBe(0);
    ex(poolStats().bytesLive).toBeGreaterThan(0);
    a.dispose(); t.dispose();
  });
});

import { gpuDevice, destroyGpu } from '../../src/backend/gpu/device.js';

describe('buffer pool', () => {
  gpuIt('reuses released buffers, shares on reshape, and respects the idle cap', async () => {
    const { setPoolCap } = await import('../../src/backend/gpu/pool.js');
    const s0 = poolStats();
    const a = allocStorage(10_000, 'test');
    const live1 = poolStats().bytesLive;
    ex(live1 - s0.bytesLive).toBe(bucketSize(10_000));
    a.release();
    a.release(); // twice is harmless
    ex(poolStats().bytesLive).toBe(s0.bytesLive);
    const created = poolStats().buffersCreated;
    const b = allocStorage(9_000, 'test'); // same bucket as 10,000: reused
    ex(poolStats().buffersCreated).toBe(created);
    b.release();
    // reshape shares the buffer: the data survives disposing the original
    const t = tensor({ data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [2, 3] }).to('gpu');
    const r = t.reshape([3, 2]);
    t.dispose();
    ex(Array.from(await r.data())).toEqual([1, 2, 3, 4, 5, 6]);
    r.dispose();
    // the cap bounds idle bytes
    setPoolCap(4096);
    const many = [1, 2, 3, 4].map(() => allocStorage(3000, 'test'));
    for (const m of many) m.release();
    await gpu.sync();
    ex(poolStats().bytesPooled).toBeLessThanOrEqual(4096);
    setPoolCap(1 << 30);
  });
});

describe('dispatch recording', () => {
  gpuIt('a loop of identical calls stops creating bind groups and buffers', async () => {
    const { bindGroupStats } = await import('../../src/backend/gpu/program.js');
    const { linalg, randn } = await import('../../src/index.js');
    const A = randn([5, 16, 16], { dtype: 'float32', seed: 1 }).to('gpu');
    const B = randn([5, 16, 8], { dtype: 'float32', seed: 2 }).to('gpu');
    const round = async () => {
      for (let i = 0; i < 40; i++) linalg.solveTriangular(A, B, { upper: false, unitriangular: true }).dispose();
      await gpu.sync();
    };
    await round();
    await round();
    const bg = bindGroupStats().cached, created = poolStats().buffersCreated;
    for (let r = 0; r < 3; r++) await round();
    ex(bindGroupStats().cached).toBe(bg);
    ex(poolStats().buffersCreated).toBe(created);
    // and the cached groups still compute the right thing
    const X = linalg.solveTriangular(A, B, { upper: false, unitriangular: true });
    const ref = linalg.solveTriangular(await A.toAsync('cpu'), await B.toAsync('cpu'), { upper: false, unitriangular: true });
    const x = await X.data(), r = ref.dataSync();
    let d = 0;
    for (let i = 0; i < r.length; i++) d = Math.max(d, Math.abs(x[i] - r[i]) / (1 + Math.abs(r[i])));
    ex(d).toBeLessThan(1e-5);
    for (const t of [A, B, X]) t.dispose();
  });

  gpuIt('a kernel output reuses a buffer released before the submit, after the commands that read it', async () => {
    const { linalg, randn } = await import('../../src/index.js');
    const opts = { upper: false, unitriangular: true };
    // well-conditioned unit lower systems (strict lower entries ~ N(0,1)/16)
    const a = randn([3, 16, 16], { dtype: 'float32', seed: 3 }).dataSync().map((v) => v / 16);
    const A = Tensor.fromStorage('float32', [3, 16, 16], a);
    const Ag = A.to('gpu');
    const Bs = Array.from({ length: 12 }, (_, i) => randn([3, 16, 8], { dtype: 'float32', seed: 10 + i }));
    const Bg = Bs.map((B) => B.to('gpu'));
    await gpu.sync();
    const created = poolStats().buffersCreated;
    const outs = [];
    for (const B of Bg) {
      // X is released while the solve reading it is still unsubmitted; the next call's X
      // takes its buffer and must not overwrite it before that solve has run.
      const X = linalg.solveTriangular(Ag, B, opts);
      outs.push(linalg.solveTriangular(Ag, X, opts));
      X.dispose();
    }
    ex(poolStats().buffersCreated - created).toBeLessThanOrEqual(Bs.length + 1); // the outputs, not one X per call
    for (let i = 0; i < Bs.length; i++) {
      const ref = linalg.solveTriangular(A, linalg.solveTriangular(A, Bs[i], opts), opts).dataSync();
      const got = await outs[i].data();
      let d = 0;
      for (let j = 0; j < ref.length; j++) d = Math.max(d, Math.abs(got[j] - ref[j]) / (1 + Math.abs(ref[j])));
      ex(d).toBeLessThan(1e-5);
    }
  });
});

describe('adapter probes and limits (issue 10: subnormals, portability)', () => {
  gpuIt('gpu.info().subnormals says what the kernels do with float32 subnormals', async () => {
    const info = gpu.info()!;
    expect(typeof info.subnormals).toBe('boolean');
    // a kernel's multiply (matmul of 1×1 matrices) either keeps the subnormal or flushes it
    const a = Tensor.fromStorage('float32', [1, 2], new Float32Array([2 ** -140, 2 ** -126])).to('gpu');
    const b = Tensor.fromStorage('float32', [2, 2], new Float32Array([1, 0, 0, 0.5])).to('gpu');
    const c = Array.from(await linalg.matmul(a, b).data());
    expect(c).toEqual(info.subnormals ? [2 ** -140, 2 ** -127] : [0, 0]);
  });

  gpuIt("limits: 'default' creates the device with WebGPU's defaults, and the kernels fit them", async () => {
    await expect(gpu.init({ limits: 'small' as 'default' })).rejects.toThrow(TypeError);
    destroyGpu();
    try {
      const info = await gpu.init({ limits: 'default' });
      expect(info.limitsMode).toBe('default');
      expect(info.limits.maxComputeWorkgroupStorageSize).toBe(16384);
      expect(info.limits.maxComputeInvocationsPerWorkgroup).toBe(256);
      expect(info.limits.maxStorageBufferBindingSize).toBe(128 * 1024 * 1024);
      // the 64×64 float32 and complex64 LU keep the matrix in a storage buffer here (it
      // needs more than 16 KiB of workgroup memory): results as with the adapter's limits
      const { randomMatrix, toTensor, fromTensor, ratioSolve, roundTo } = await import('../helpers/matrices.js');
      const { Rng } = await import('../../src/index.js');
      const rng = new Rng(64);
      for (const dtype of ['float32', 'complex64'] as const) {
        const As = [0, 1].map(() => roundTo(randomMatrix(64, 64, rng, { complex: dtype === 'complex64' }), dtype));
        const Bs = As.map(() => roundTo(randomMatrix(64, 2, rng, { complex: dtype === 'complex64' }), dtype));
        const r = linalg.solveEx(toTensor(As, dtype).to('gpu'), toTensor(Bs, dtype).to('gpu'));
        const X = await r.result.toAsync('cpu');
        expect(Array.from(await r.info.data())).toEqual([0, 0]);
        for (let i = 0; i < 2; i++) expect(ratioSolve(As[i], fromTensor(X, i), Bs[i], dtype)).toBeLessThan(30);
      }
      // a variant that needs more than the device gives is refused by name, not by Dawn
      const { matmulGpu } = await import('../../src/backend/gpu/matmul.js');
      const { planBatch } = await import('../../src/core/batch.js');
      const t128k16 = { BM: 128, BN: 128, BK: 16, TM: 8, TN: 8 }; // 32 KiB of workgroup memory
      const a = Tensor.fromStorage('float32', [128, 128], new Float32Array(128 * 128)).to('gpu');
      expect(() => matmulGpu(a, a, planBatch(a, a, 'test'), 128, 128, 128, t128k16)).toThrow(/workgroup memory/);
    } finally {
      destroyGpu();
      await gpu.init();
    }
  });
});

describe('device loss', () => {
  // Last in this file: it replaces the device (vitest gives each file its own modules).
  gpuIt('reports a lost device, refuses its tensors, and re-initialises', async () => {
    const t = tensor([[1, 2]], { dtype: 'float32' }).to('gpu');
    gpuDevice('test').destroy(); // as a driver reset would
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 100 && gpu.info(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(gpu.info()).toBeUndefined();
    expect(() => tensor([[1]], { dtype: 'float32' }).to('gpu')).toThrow(/lost/);
    await gpu.init();
    await expect(t.data()).rejects.toThrow(DeviceError);
    const u = tensor([[3, 4]], { dtype: 'float32' }).to('gpu');
    expect(Array.from(await u.data())).toEqual([3, 4]);
    u.dispose();
    t.dispose();
  });

  gpuIt('without an adapter, says why and what to install, then recovers', async () => {
    destroyGpu();
    // Dawn in Node only: an adapter name that matches nothing stands in for a machine with none.
    if (gpu.info() === undefined && !(globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu) {
      const err = await gpu.init({ dawnFlags: ['adapter=no-such-adapter-lapis'] }).then(() => null, (e: unknown) => e as Error);
      expect(err).toBeInstanceOf(DeviceError);
      expect(err!.message).toMatch(/adapter/);
      expect(err!.message).toMatch(/Vulkan|Metal|D3D12/);
      expect(() => tensor([[1]], { dtype: 'float32' }).to('gpu')).toThrow(/no GPU/);
    }
    await gpu.init();
    expect(await gpu.available()).toBe(true);
  });
});
