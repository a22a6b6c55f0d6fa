// gdnForward(…, keep) hands its stages to gdnBackward (what the autodiff rule of
// gdn.chunkedForward uses): the backward from kept stages equals the backward that recomputes
// them, value for value (the same kernels on the same inputs), and the kept forward's o equals
// the plain forward's.
import { expect } from 'vitest';
import { Rng, Tensor, gdn, vjp } from '../../src/index.js';
import { planGdn } from '../../src/gdn/plan.js';
import { lookup } from '../../src/backend/registry.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { gdnRandom, gdnShapes, gdnTensors, type GdnShape } from '../helpers/gdn.js';

useGpu();

gpuIt('a kept GPU forward: the backward from its stages equals the recomputing backward (varlen, GVA, qkL2norm, S0)', async () => {
  const s: GdnShape = { B: 1, T: 37, H: 1, HV: 2, dk: 16, dv: 8, layout: 'bthd', cuSeqlens: [0, 20, 37] };
  const rng = new Rng(7);
  const x = gdnRandom(s, rng, { initialState: true, gMin: -0.5 });
  const c = gdnTensors(s, x, 'float32');
  const gpu = Object.fromEntries(Object.entries(c).map(([k, t]) => [k, (t as Tensor).to('gpu')])) as typeof c;
  const { x: xi, plan } = planGdn(gpu, { layout: 'bthd', chunk: 16, qkL2norm: true, cuSeqlens: s.cuSeqlens }, 'test');
  const sh = gdnShapes(s);
  const dO = Tensor.fromStorage('float32', sh.v, Float32Array.from({ length: x.v.length }, () => rng.normal())).to('gpu');
  const dF = Tensor.fromStorage('float32', sh.state, Float32Array.from({ length: sh.state.reduce((a, b) => a * b, 1) }, () => rng.normal())).to('gpu');
  const fwd = lookup('gdnForward', 'float32', 'gpu', 'test');
  const bwd = lookup('gdnBackward', 'float32', 'gpu', 'test');
  const plain = fwd(xi, plan);
  const kept = fwd(xi, plan, true);
  // the caller may read and free the returned status (the public call's deferred check does):
  // the kept stages must not depend on it
  expect(Array.from(await kept.status.data()).every((v) => v === 0)).toBe(true);
  kept.status.dispose();
  expect(kept.saved?.backend).toBe('gpu');
  expect(Array.from(await kept.o.data())).toEqual(Array.from(await plain.o.data()));
  expect(Array.from(await kept.finalState.data())).toEqual(Array.from(await plain.finalState.data()));
  const a = bwd(xi, dO, dF, plan, kept.saved);
  const b = bwd(xi, dO, dF, plan);
  for (const key of ['dq', 'dk', 'dv', 'dbeta', 'dg', 'dInitialState'] as const) {
    const u = Array.from(await a[key]!.data()), v = Array.from(await b[key]!.data());
    expect(u.every(Number.isFinite), key).toBe(true);
    expect(u, key).toEqual(v);
  }
  // a second backward from the same stages (vjp's pullback may run twice) is the same again
  const again = bwd(xi, dO, dF, plan, kept.saved);
  expect(Array.from(await again.dk.data())).toEqual(Array.from(await b.dk.data()));
  kept.saved!.dispose();
}, 300_000);

gpuIt('vjp of gdn.chunkedForward on the GPU: the pullback runs again after its gradients (and o) were read', async () => {
  const s: GdnShape = { B: 1, T: 20, H: 1, HV: 1, dk: 8, dv: 8, layout: 'bthd' };
  const rng = new Rng(9);
  const x = gdnRandom(s, rng, { gMin: -0.5 });
  const c = gdnTensors(s, x, 'float32');
  const t = (v: Tensor) => v.to('gpu');
  const { value, pullback } = vjp((q: Tensor, k: Tensor, v: Tensor) => gdn.chunkedForward({ q, k, v, beta: t(c.beta), g: t(c.g), chunkSize: 16 }).o,
    t(c.q), t(c.k), t(c.v));
  await value.data();
  const dO = Tensor.fromStorage('float32', [...value.shape], Float32Array.from({ length: value.size }, () => rng.normal())).to('gpu');
  const first = await Promise.all(pullback(dO).map((g) => g.data()));
  const second = await Promise.all(pullback(dO).map((g) => g.data()));
  for (let i = 0; i < 3; i++) {
    expect(Array.from(first[i]).every(Number.isFinite)).toBe(true);
    expect(Array.from(second[i])).toEqual(Array.from(first[i]));
  }
}, 300_000);
