// gemmGpu (src/backend/gpu/gemm.ts): strided batched C ← alpha·op(A)·op(B) + beta·C against
// a float64 host reference, each entry within c·k·eps·(|alpha|·|A||B| + |beta|·|C|); every
// element of the buffers outside C's view must come back unchanged (no stray writes).
// The tune bench's candidate tiles are checked in gemm-tiles.test.ts.
import { describe, expect } from 'vitest';
import { Tensor, ArgumentError, DTypeError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { runCase, padded, type D, type Op } from '../helpers/gemm.js';
import {
  gemmGpu, GEMM_F32_TILES, GEMM_C64_TILES, type GemmArgs, type GemmTile,
} from '../../src/backend/gpu/gemm.js';

useGpu();

// Pipelines compile slowly on lavapipe: the cases below pick few kernel variants that
// still cover every load path (op N/T × vec4/scalar, for A and for B) and op combination.
describe('gemmGpu ops and views', () => {
  // [opA, opB, pad of A, pad of B]: 4 (vec4 loads) or 3 (scalar loads)
  const f32Cases: Array<[Op, Op, number, number]> = [['N', 'N', 4, 3], ['N', 'T', 3, 4], ['T', 'N', 3, 4], ['T', 'T', 4, 3]];
  for (const [opA, opB, pa, pb] of f32Cases) {
    gpuIt(`float32 op(A)=${opA} (${pa === 4 ? 'vec4' : 'scalar'}) op(B)=${opB} (${pb === 4 ? 'vec4' : 'scalar'}): offsets, ld > cols, batch strides, alpha/beta`, async () => {
      await runCase(padded('float32', 37, 29, 19, 3, opA, opB, pa, { alpha: -0.75, beta: 0.5, tile: GEMM_F32_TILES.t32, vec: [pa === 4, pb === 4] }, pb));
    });
  }
  const ops: Op[] = ['N', 'T', 'C'];
  for (const opA of ops) {
    gpuIt(`complex64 op(A)=${opA}, op(B) = N, T, C: offsets, ld > cols, batch strides, alpha/beta`, async () => {
      for (const opB of ops) await runCase(padded('complex64', 37, 29, 19, 3, opA, opB, 3, { alpha: -0.75, beta: 0.5, tile: GEMM_C64_TILES.t32 }));
    });
  }
  for (const [name, tile] of Object.entries(GEMM_F32_TILES)) {
    gpuIt(`float32 tile ${name}: sizes across the tile edges (m, n = BM ± 1, k = 2·BK + 3)`, async () => {
      await runCase(padded('float32', tile.BM + 1, tile.BN - 1, tile.BK * 2 + 3, 2, 'N', 'N', 4, { tile, beta: 1, vec: [true, true] }));
      await runCase(padded('float32', tile.BM - 1, tile.BN + 2, tile.BK + 1, 1, 'T', 'T', 1, { tile, beta: 1, vec: [false, false] }));
    });
  }
  for (const [name, tile] of Object.entries(GEMM_C64_TILES)) {
    gpuIt(`complex64 tile ${name}: sizes across the tile edges`, async () => {
      await runCase(padded('complex64', tile.BM + 1, tile.BN - 1, tile.BK * 2 + 3, 2, 'C', 'N', 1, { tile, beta: -1 }));
      await runCase(padded('complex64', tile.BM - 1, tile.BN + 2, tile.BK + 1, 1, 'N', 'C', 0, { tile, beta: 1 }));
    });
  }
  gpuIt('float32 aligned views ending in a partial vec4 at the buffer end: scalar access', async () => {
    await runCase(padded('float32', 9, 7, 5, 2, 'N', 'N', 4, { slack: 0, vec: [false, false], beta: 1 }));
    await runCase({ ...padded('float32', 9, 7, 5, 2, 'N', 'N', 4, { slack: 0, beta: 1 }), C: { offset: 4, ld: 8, stride: 72 }, vecC: false });
    await runCase({ ...padded('float32', 9, 7, 5, 2, 'N', 'N', 4, { slack: 3, beta: 1 }), C: { offset: 4, ld: 8, stride: 72 }, vecC: true });
  });
  gpuIt('float32 m = 1030 (one size above 1024), n = 40, k = 24, default tile', async () => {
    await runCase(padded('float32', 1030, 40, 24, 1, 'N', 'N', 0, { beta: 1 }));
  });
});

describe('gemmGpu alpha, beta and empty sizes', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype} beta = 0 over NaN in C: C is not read`, async () => {
      await runCase(padded(dtype, 9, 7, 5, 2, 'N', 'T', 1, { nanC: true, alpha: 2 }));
      await runCase(padded(dtype, 9, 7, 5, 2, 'N', 'N', 4, { nanC: true }));
    });
    gpuIt(`${dtype} alpha = 0 over NaN in A: C ← beta·C`, async () => {
      await runCase(padded(dtype, 9, 7, 5, 2, 'N', 'N', 1, { nanA: true, alpha: 0, beta: 0.5 }));
    });
    gpuIt(`${dtype} k = 0 scales C by beta; m = 0 and n = 0 leave C alone`, async () => {
      await runCase(padded(dtype, 9, 7, 0, 2, 'N', 'N', 1, { beta: -2 }));
      await runCase(padded(dtype, 9, 7, 0, 2, 'T', 'N', 1, { beta: 0, nanC: true }));
      await runCase(padded(dtype, 0, 7, 5, 2, 'N', 'N', 1, { beta: 3 }));
      await runCase(padded(dtype, 6, 0, 5, 2, 'N', 'N', 1, { beta: 3 }));
      await runCase(padded(dtype, 6, 5, 4, 0, 'N', 'N', 1, { beta: 3 }));
    });
    gpuIt(`${dtype} stride 0: A, B broadcast over the batch`, async () => {
      await runCase({ ...padded(dtype, 11, 13, 6, 3, 'N', 'N', 2, { beta: 1 }), A: { offset: 2, ld: 8, stride: 0 } });
      await runCase({ ...padded(dtype, 11, 13, 6, 3, 'N', 'T', 4, { beta: 1 }), B: { offset: 4, ld: 8, stride: 0 } });
      await runCase({ ...padded(dtype, 11, 13, 6, 3, 'N', 'N', 2), A: { offset: 0, ld: 6, stride: 0 }, B: { offset: 1, ld: 13, stride: 0 } });
    });
  }
});

describe('gemmGpu with A and/or B in C\'s buffer', () => {
  // The LU trailing update: one n×n matrix per member holds A21 (rows nb.., cols ..nb),
  // A12 (rows ..nb, cols nb..) and A22 ← A22 − A21·A12, all bound once read_write.
  for (const dtype of ['float32', 'complex64'] as const) {
    // n=20, nb=5: scalar access; n=40, nb=8: C bound as vec4 and A, B read as vec4s through it
    for (const [N, nb] of [[20, 5], [40, 8]] as const) {
      gpuIt(`${dtype} LU trailing update n=${N} nb=${nb}, batch 2: A and B alias C`, async () => {
        const sz = N * N;
        const v4 = dtype === 'float32' && nb % 4 === 0;
        await runCase({
          dtype, m: N - nb, n: N - nb, k: nb, batch: 2, alpha: -1, beta: 1, aliasA: true, aliasB: true,
          A: { offset: nb * N, ld: N, stride: sz }, B: { offset: nb, ld: N, stride: sz }, C: { offset: nb * N + nb, ld: N, stride: sz },
          vec: [v4, v4], vecC: v4,
        });
      });
    }
    gpuIt(`${dtype} LU trailing update n=200 nb=64 through the large default tile (edges, C as vec4)`, async () => {
      const N = 200, nb = 64;
      await runCase({
        dtype, m: N - nb, n: N - nb, k: nb, batch: 1, alpha: -1, beta: 1, aliasA: true, aliasB: true,
        A: { offset: nb * N, ld: N, stride: 0 }, B: { offset: nb, ld: N, stride: 0 }, C: { offset: nb * N + nb, ld: N, stride: 0 },
        vecC: dtype === 'float32',
      });
    });
    gpuIt(`${dtype} only A aliases C; only B aliases C (op T, C)`, async () => {
      // C: rows 0..9 of a 10×24 block, cols 0..11; A beside it in cols 12..23
      await runCase({
        dtype, m: 10, n: 12, k: 12, batch: 2, beta: 0.5, aliasA: true, opB: 'T',
        A: { offset: 12, ld: 24, stride: 240 }, B: { offset: 0, ld: 12, stride: 144 }, C: { offset: 0, ld: 24, stride: 240 },
      });
      await runCase({
        dtype, m: 10, n: 12, k: 12, batch: 2, beta: 0.5, aliasB: true, opB: dtype === 'complex64' ? 'C' : 'T', opA: 'T',
        A: { offset: 1, ld: 10, stride: 120 }, B: { offset: 12, ld: 24, stride: 240 }, C: { offset: 0, ld: 24, stride: 240 },
      });
      // C aligned (a vec4 binding), A beside it unaligned: read by component through C
      await runCase({
        dtype, m: 10, n: 12, k: 12, batch: 2, beta: 1, aliasA: true,
        A: { offset: 13, ld: 28, stride: 280 }, B: { offset: 0, ld: 12, stride: 144 }, C: { offset: 0, ld: 28, stride: 280 },
        vec: [false, dtype === 'float32'], vecC: dtype === 'float32',
      });
    });
  }
});

describe('gemmGpu large batches and bad views', () => {
  gpuIt('float32 batch 70,000 (70,000 workgroups: a folded dispatch)', async () => {
    await runCase({
      dtype: 'float32', m: 3, n: 2, k: 2, batch: 70_000, beta: 1, tile: GEMM_F32_TILES.t32,
      A: { offset: 0, ld: 2, stride: 6 }, B: { offset: 1, ld: 2, stride: 4 }, C: { offset: 0, ld: 2, stride: 7 },
    });
  }, 60_000);

  gpuIt('bad views throw ArgumentError naming the operand, before any work', () => {
    const t = Tensor.fromStorage('float32', [100], new Float32Array(100)).to('gpu');
    const s = t.gpuStorage();
    const ok = (): GemmArgs => ({
      dtype: 'float32', m: 4, n: 4, k: 4, batch: 2,
      A: { s, offset: 0, ld: 4, stride: 16 }, B: { s, offset: 32, ld: 4, stride: 16 }, C: { s, offset: 64, ld: 4, stride: 16 },
    });
    const bad: Array<[string, (a: GemmArgs) => void, RegExp]> = [
      ['negative offset', (a) => { a.A.offset = -1; }, /operand A\.offset/],
      ['fractional ld', (a) => { a.B.ld = 4.5; }, /operand B\.ld/],
      ['ld < cols', (a) => { a.C.ld = 3; }, /operand C\.ld = 3/],
      ['past the end', (a) => { a.C.offset = 69; }, /operand C .*past its storage/],
      ['past the end via stride', (a) => { a.B.stride = 60; }, /operand B .*past its storage/],
      ['past the end via op T', (a) => { a.opA = 'T'; a.m = 5; a.A.ld = 5; a.A.offset = 90; a.C.stride = 0; a.batch = 1; }, /operand A /],
      ['C stride 0 over a batch', (a) => { a.C.stride = 0; }, /C\.stride = 0/],
      ['bad op', (a) => { (a as { opB: string }).opB = 'X'; }, /opB/],
      ['bad m', (a) => { a.m = -1; }, /gemm m/],
      ['NaN batch', (a) => { a.batch = NaN; }, /gemm batch/],
    ];
    for (const [what, edit, msg] of bad) {
      const a = ok();
      edit(a);
      expect(() => gemmGpu('caller', a), what).toThrow(ArgumentError);
      expect(() => gemmGpu('caller', a), what).toThrow(msg);
      expect(() => gemmGpu('caller', a), what).toThrow(/^caller: /);
    }
    expect(() => gemmGpu('caller', { ...ok(), dtype: 'float64' as 'float32' })).toThrow(DTypeError);
    gemmGpu('caller', ok());
    t.dispose();
  });
});
