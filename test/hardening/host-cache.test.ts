// The native cache of large CPU outputs (src/backend/cpu/alloc.ts, native/binding/host_alloc.cpp):
// outputs ≥ 1 MiB are external ArrayBuffers over cached 2 MiB-aligned blocks that return to
// the cache when V8 collects them. Checks: results stay correct and independent, blocks are
// reused after a collection, the cap holds, and worker threads share the cache safely.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { native } from '../../src/backend/cpu/binding.js';
import { HOST_CACHE_MIN_BYTES, setHostCache } from '../../src/backend/cpu/alloc.js';
import { add, mul, sum, neg } from '../../src/index.js';
import { Tensor } from '../../src/core/tensor.js';

// A full collection on demand (vitest does not pass --expose-gc).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects, then lets the deferred ArrayBuffer finalizers (run from setImmediate) return their blocks. */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
}

const stats = (trim = false) => native().hostCacheStats({ trim });
const MiB = 1 << 20;

function ramp(n: number, scale: number): Tensor<'float32'> {
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = ((i % 1000) - 500) * scale;
  return Tensor.fromStorage('float32', [n], d);
}

describe('host output cache (LAPIS_HOST_CACHE=1)', () => {
  let was = false;
  beforeAll(() => { was = setHostCache(true); });
  afterAll(() => { setHostCache(was); });

  it('large outputs are correct, come from the cache and never share a block while alive', () => {
    const n = 600_000; // 2.4 MB of float32
    const a = ramp(n, 0.5), b = ramp(n, 0.25);
    const before = stats();
    const s = add(a, b), p = mul(a, b), q = neg(a);
    const after = stats();
    expect(after.liveBlocks - before.liveBlocks).toBeGreaterThanOrEqual(3);
    const bufs = [s, p, q].map((t) => t.dataSync().buffer);
    expect(new Set(bufs).size).toBe(3);
    const [sd, pd, qd] = [s, p, q].map((t) => t.dataSync() as Float32Array);
    const ad = a.dataSync(), bd = b.dataSync();
    for (let i = 0; i < n; i += 997) {
      expect(sd[i]).toBe(Math.fround(ad[i] + bd[i]));
      expect(pd[i]).toBe(Math.fround(ad[i] * bd[i]));
      expect(qd[i]).toBe(-ad[i]);
    }
    // writing one output leaves the others alone
    sd.fill(7);
    expect(pd[3]).toBe(Math.fround(ad[3] * bd[3]));
    expect(qd[3]).toBe(-ad[3]);
    const want = -Array.from(ad).reduce((x, y) => x + y, 0);
    expect(Math.abs((sum(q).dataSync() as Float32Array)[0] - want)).toBeLessThan(1e-3 * Math.abs(want));
  });

  it('small outputs stay ordinary buffers', () => {
    const before = stats();
    const n = HOST_CACHE_MIN_BYTES / 4 - 1;
    const out = add(ramp(n, 1), 1);
    const after = stats();
    expect(after.hits + after.misses).toBe(before.hits + before.misses);
    expect(out.dataSync()[1]).toBe(-498);
  });

  it('a collected output returns its block and the next output of that size reuses it', async () => {
    const n = 1_500_000; // 6 MB: rounds to a 6 MiB block
    const a = ramp(n, 1);
    await collect();
    stats(true);
    let out: Tensor | null = neg(a);
    const live = stats();
    expect(live.cachedBlocks).toBe(0);
    expect(out.dataSync()[0]).toBe(500);
    out = null;
    await collect();
    const freed = stats();
    expect(freed.cachedBlocks).toBeGreaterThanOrEqual(1);
    expect(freed.liveBlocks).toBeLessThan(live.liveBlocks);
    const again = neg(a);
    const reused = stats();
    expect(reused.hits).toBe(freed.hits + 1);
    expect(reused.misses).toBe(freed.misses);
    expect(again.dataSync()[1]).toBe(499);
  });

  it('live blocks stay under max(256 MiB, 2 × the request); cached ones under capBytes, the oldest freed first', async () => {
    await collect();
    stats(true);
    const base = stats();
    // blocks are never written here, so no pages are touched
    let held: ArrayBuffer[] = [];
    const fill = (bytes: number) => {
      for (;;) {
        const b = native().allocHost({ bytes });
        if (!b) break;
        expect(b.byteLength).toBe(bytes);
        held.push(b);
      }
    };
    fill(8 * MiB);
    const full = stats();
    expect(full.liveBytes).toBeLessThanOrEqual(256 * MiB);
    expect(full.liveBytes).toBeGreaterThan(256 * MiB - 8 * MiB - base.liveBytes - 1);
    expect(full.refused).toBe(base.refused + 1);
    held = [];
    await collect();
    const first = stats();
    expect(first.cachedBytes).toBeLessThanOrEqual(first.capBytes);
    expect(first.cachedBlocks).toBeGreaterThanOrEqual(24);
    // 2 MiB requests cannot take 8 MiB blocks (best fit stops at 1.25×): releasing 256 MiB more passes the cap
    fill(2 * MiB);
    expect(stats().hits).toBe(first.hits);
    held = [];
    await collect();
    const second = stats();
    expect(second.cachedBytes).toBeLessThanOrEqual(second.capBytes);
    expect(second.evicted).toBeGreaterThan(first.evicted);
    // the 8 MiB blocks were the oldest: they went first
    const before8 = stats();
    const b8 = native().allocHost({ bytes: 8 * MiB });
    expect(b8).toBeInstanceOf(ArrayBuffer);
    expect(stats().misses).toBe(before8.misses + 1);
    expect(stats(true).cachedBlocks).toBe(0);
  });

  it('an output transferred with postMessage is copied, not detached (external ArrayBuffer)', () => {
    const out = neg(ramp(600_000, 1));
    const buf = out.dataSync().buffer as ArrayBuffer;
    const copy = structuredClone(buf, { transfer: [buf] });
    expect(new Float32Array(copy)[0]).toBe(500);
    expect(out.dataSync()[0]).toBe(500);
  });

  it('allocHost rejects a size that is not a positive integer', () => {
    for (const bytes of [0, -1, 1.5, NaN, 2 ** 60]) expect(() => native().allocHost({ bytes }), String(bytes)).toThrow(RangeError);
  });

  it('worker threads allocate, fill, check and drop blocks concurrently with the main thread', async () => {
    const addonPath = createRequire(import.meta.url).resolve(process.env.LAPIS_ADDON ?? '../../build/Release/lapis.node');
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      const v8 = require('node:v8'); v8.setFlagsFromString('--expose-gc');
      const fullGc = require('node:vm').runInNewContext('gc');
      const addon = require(workerData.addonPath);
      (async () => {
        let bad = 0;
        for (let r = 0; r < 30; r++) {
          const bufs = [];
          for (let k = 0; k < 3; k++) {
            const ab = addon.allocHost(${2 * MiB} + 4096 * k + 4 * workerData.id);
            if (!ab) continue;
            const v = new Int32Array(ab); v.fill(workerData.id * 1000 + r * 10 + k); bufs.push(v);
          }
          for (const [k, v] of bufs.entries()) if (v[0] !== workerData.id * 1000 + r * 10 + k || v[v.length - 1] !== v[0]) bad++;
          if (r % 5 === 0) { fullGc(); await new Promise((res) => setImmediate(res)); }
        }
        parentPort.postMessage(bad);
      })();`;
    const workers = [1, 2, 3].map((id) => new Worker(code, { eval: true, workerData: { id, addonPath } }));
    const results = workers.map((w) => new Promise<number>((res, rej) => { w.once('message', res); w.once('error', rej); }));
    // the main thread works the cache meanwhile
    const a = ramp(700_000, 1);
    for (let r = 0; r < 10; r++) expect(neg(a).dataSync()[2]).toBe(498);
    expect(await Promise.all(results)).toEqual([0, 0, 0]);
    await Promise.all(workers.map((w) => w.terminate()));
    await collect();
    const s = stats();
    expect(s.liveBlocks).toBeGreaterThanOrEqual(0);
    expect(s.cachedBytes).toBeLessThanOrEqual(s.capBytes);
  });
});
