// The WY stage of the GPU Gated DeltaNet forward (src/backend/gpu/gdn_wy.ts) against the float64
// computation of the same quantities (test/helpers/gdn-wy.ts): gcum, T, W, U, the qkL2norm
// copies, status; and gdn.invUnitLower on the GPU against the CPU. Both layouts, grouped value
// heads, varlen with a short last chunk, C 16/32/64, float16 inputs.
import { describe, expect } from 'vitest';
import { Rng, Tensor, gdn } from '../../src/index.js';
import { planGdn } from '../../src/gdn/plan.js';
import { gdnChunkTable } from '../../src/backend/gpu/gdn_chunks.js';
import { gdnWyGpu, type GdnWyTiles } from '../../src/backend/gpu/gdn_wy.js';
import { gdnRandom, gdnShapes, relErr, type GdnData, type GdnShape } from '../helpers/gdn.js';
import { gdnWyReference, toHalves } from '../helpers/gdn-wy.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

interface Case {
  s: GdnShape;
  C: 16 | 32 | 64;
  half?: boolean;
  qkL2norm?: boolean;
  tiles?: Partial<GdnWyTiles>;
  edit?: (x: GdnData) => void;
}

async function runCase(c: Case) {
  const rng = new Rng(1234 + c.C);
  const x = gdnRandom(c.s, rng, { initialState: true, unitKeys: !c.qkL2norm, gMin: -0.5 });
  c.edit?.(x);
  const sh = gdnShapes(c.s);
  // float16: the reference on the rounded values
  const mk = (a: Float64Array, shape: number[]): Tensor => (c.half
    ? Tensor.fromStorage('float16', shape, toHalves(a)).to('gpu')
    : Tensor.fromStorage('float32', shape, Float32Array.from(a)).to('gpu'));
  const raw = {
    q: mk(x.q, sh.qk), k: mk(x.k, sh.qk), v: mk(x.v, sh.v), beta: mk(x.beta, sh.gate), g: mk(x.g, sh.gate),
    initialState: Tensor.fromStorage('float32', sh.state, Float32Array.from(x.S0!)).to('gpu'),
  };
  const { x: xi, plan: p } = planGdn(raw, { layout: c.s.layout, chunk: c.C, qkL2norm: c.qkL2norm ?? false, cuSeqlens: c.s.cuSeqlens }, 'test');
  expect(p.dtype).toBe(c.half ? 'float16' : 'float32');
  const chunks = gdnChunkTable(p);
  const wy = gdnWyGpu(xi, p, chunks, { keepT: true }, 'test', c.tiles);
  const ref = gdnWyReference(c.s, x, c.C, c.qkL2norm);
  const out = {
    gcum: await wy.gcum.data(), T: await wy.T!.data(), W: await wy.W.data(), U: await wy.U.data(),
    status: Array.from(await wy.status.data()),
    qn: wy.qn ? await wy.qn.data() : null, kn: wy.kn ? await wy.kn.data() : null,
  };
  expect(chunks.count).toBe(ref.chunks.length);
  expect(Array.from(chunks.host)).toEqual(ref.chunks.flat());
  for (const t of Object.values(raw)) t.dispose();
  chunks.table.dispose();
  chunks.firstChunkGpu.dispose();
  for (const t of [wy.gcum, wy.W, wy.U, wy.T, wy.qn, wy.kn, wy.status]) t?.dispose();
  return { out, ref };
}

function expectClose(out: Awaited<ReturnType<typeof runCase>>['out'], ref: ReturnType<typeof gdnWyReference>): void {
  expect(relErr(out.gcum, ref.gcum), 'gcum').toBeLessThan(1e-6);
  expect(relErr(out.T, ref.T), 'T').toBeLessThan(1e-5);
  expect(relErr(out.W, ref.W), 'W').toBeLessThan(1e-5);
  expect(relErr(out.U, ref.U), 'U').toBeLessThan(1e-5);
}

describe('gdnWyGpu', () => {
  gpuIt('C 16, bthd, grouped value heads, varlen with short chunks, several K and W/U tiles (two column quads per thread, mirrored row blocks)', async () => {
    const s: GdnShape = { B: 1, T: 45, H: 2, HV: 4, dk: 12, dv: 10, layout: 'bthd', cuSeqlens: [0, 20, 20, 45] };
    const { out, ref } = await runCase({ s, C: 16, tiles: { dkt: 8, nt: 8, cw: 2, bal: true } });
    expectClose(out, ref);
    expect(out.status).toEqual(new Array(3 * 4).fill(0));
    expect(out.qn).toBeNull();
    // rows past a short chunk's length are zero; T is exactly unit lower
    const C = 16, last = ref.chunks.length - 1, len = ref.chunks[last][3];
    expect(len).toBe(9);
    for (let i = len; i < C; i++) for (let d = 0; d < 10; d++) expect(out.U[((last * 4 + 3) * C + i) * 10 + d]).toBe(0);
    for (let i = 0; i < C; i++) for (let j = i; j < C; j++) expect(out.T[(5 * C + i) * C + j]).toBe(i === j ? 1 : 0);
  }, 300_000);

  gpuIt('C 32, bhtd, batch 2, T not a multiple of C, qkL2norm', async () => {
    const s: GdnShape = { B: 2, T: 40, H: 2, HV: 2, dk: 16, dv: 16, layout: 'bhtd' };
    const { out, ref } = await runCase({ s, C: 32, qkL2norm: true, tiles: { gr: 8, rt: 8, stageT: true, bal: true, invCols: 4 } });
    expectClose(out, ref);
    expect(relErr(out.qn!, ref.qn!), 'qn').toBeLessThan(1e-6);
    expect(relErr(out.kn!, ref.kn!), 'kn').toBeLessThan(1e-6);
    expect(out.status).toEqual([0, 0, 0, 0]);
  }, 300_000);

  gpuIt('C 64, float16 inputs, grouped value heads, qkL2norm (float32 keys, float16 β)', async () => {
    const s: GdnShape = { B: 2, T: 70, H: 1, HV: 2, dk: 8, dv: 6, layout: 'bthd' };
    const { out, ref } = await runCase({ s, C: 64, half: true, qkL2norm: true });
    expectClose(out, ref);
    expect(relErr(out.qn!, ref.qn!), 'qn').toBeLessThan(1e-6);
    expect(relErr(out.kn!, ref.kn!), 'kn').toBeLessThan(1e-6);
    expect(out.status).toEqual([0, 0, 0, 0]);
  }, 300_000);

  gpuIt('C 16, float16 inputs, bhtd; a NaN half in q → status 1 for its value heads', async () => {
    const s: GdnShape = { B: 2, T: 21, H: 2, HV: 2, dk: 6, dv: 4, layout: 'bhtd' };
    const { out, ref } = await runCase({ s, C: 16, half: true });
    expectClose(out, ref);
    expect(out.status).toEqual([0, 0, 0, 0]);
    // (b 1, h 0, t 20, d 3) in (B, H, T, dk)
    const bad = await runCase({ s, C: 16, half: true, edit: (x) => { x.q[((1 * 2 + 0) * 21 + 20) * 6 + 3] = NaN; } });
    expect(bad.out.status).toEqual([0, 0, 1, 0]);
  }, 300_000);

  gpuIt('status: NaN in v of one sequence and value head → 1 there only; g = 0.3 → 2; q, k, β, S₀ → 1', async () => {
    const s: GdnShape = { B: 1, T: 45, H: 2, HV: 4, dk: 12, dv: 10, layout: 'bthd', cuSeqlens: [0, 20, 20, 45] };
    const idx = (t: number, h: number, heads: number, d: number, dim: number) => (t * heads + h) * dim + d;
    const { out } = await runCase({
      s, C: 16, tiles: { dkt: 8, nt: 8, cw: 2, bal: true },
      edit: (x) => {
        x.v[idx(30, 1, 4, 7, 10)] = NaN; // sequence 2, value head 1
        x.g[idx(3, 2, 4, 0, 1)] = 0.3; // sequence 0, value head 2
        x.beta[idx(25, 3, 4, 0, 1)] = Infinity; // sequence 2, value head 3
      },
    });
    // sequence 1 is empty; heads 0..3; sequence 2's head 1 (v) and 3 (β)
    expect(out.status).toEqual([0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0, 1]);
    const q = await runCase({
      s, C: 16, tiles: { dkt: 8, nt: 8, cw: 2, bal: true },
      edit: (x) => {
        x.q[idx(2, 1, 2, 5, 12)] = -Infinity; // sequence 0, key head 1 → value heads 2, 3
        x.k[idx(44, 0, 2, 11, 12)] = NaN; // sequence 2, key head 0 → value heads 0, 1
        x.S0![(1 * 4 + 2) * 12 * 10 + 17] = NaN; // sequence 1 (empty), value head 2
      },
    });
    expect(q.out.status).toEqual([0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0]);
  }, 300_000);
});

describe('gdn.invUnitLower on the GPU', () => {
  gpuIt('C 16, 32, 64 (the inverse kernel) and 8 (the solve): T·(I + A) = I, equal to the CPU', async () => {
    const rng = new Rng(77);
    for (const [C, batch] of [[16, [3, 5]], [32, [7]], [64, [9]], [8, [4]]] as const) {
      const count = batch.reduce((a, b) => a * b, 1);
      const a = Float32Array.from({ length: count * C * C }, () => rng.normal() * 0.3 / Math.sqrt(C));
      for (let m = 0; m < count; m++) for (let i = 0; i < C; i++) for (let j = i; j < C; j++) a[(m * C + i) * C + j] = NaN;
      const A = Tensor.fromStorage('float32', [...batch, C, C], a);
      const Ag = A.to('gpu');
      const T = await gdn.invUnitLower(Ag).data();
      const Tc = gdn.invUnitLower(A).dataSync();
      expect(relErr(T, Tc), `C ${C}`).toBeLessThan(1e-5);
      let worst = 0;
      for (let m = 0; m < count; m++) {
        for (let i = 0; i < C; i++) {
          for (let j = 0; j < C; j++) {
            // (T·(I + L))_ij
            let r = T[(m * C + i) * C + j];
            for (let k = j + 1; k < C; k++) r += T[(m * C + i) * C + k] * a[(m * C + k) * C + j];
            worst = Math.max(worst, Math.abs(r - (i === j ? 1 : 0)));
            if (j > i) expect(T[(m * C + i) * C + j]).toBe(0);
          }
        }
      }
      expect(worst, `C ${C}`).toBeLessThan(1e-5);
      Ag.dispose();
    }
    const E = gdn.invUnitLower(Tensor.fromStorage('float32', [0, 64, 64], new Float32Array(0)).to('gpu'));
    expect(E.shape).toEqual([0, 64, 64]);
    expect((await E.data()).length).toBe(0);
  }, 300_000);
});
