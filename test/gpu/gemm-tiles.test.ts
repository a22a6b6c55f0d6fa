// The tune bench's candidate GEMM tiles (src/backend/gpu/gemm.ts GEMM_*_CANDIDATES, timed by
// bench/suites/matmul-gpu.ts with LAPIS_BENCH_TUNE): correct on sizes across the tile edges
// wherever they fit the device; one over its workgroup limits is refused with a DeviceError.
// A separate file: these kernels are large and compile slowly on lavapipe, and the list
// shrinks to the winners once the H200 run has timed them.
import { describe, expect } from 'vitest';
import { ArgumentError, DeviceError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { runCase, padded } from '../helpers/gemm.js';
import {
  gemmTileOf, gemmTileFits, GEMM_F32_TILES, GEMM_C64_TILES, GEMM_F32_CANDIDATES, GEMM_C64_CANDIDATES, type GemmTile,
} from '../../src/backend/gpu/gemm.js';

useGpu();

describe('gemmGpu candidate tiles', () => {
  for (const [dtype, list] of [['float32', GEMM_F32_CANDIDATES], ['complex64', GEMM_C64_CANDIDATES]] as const) {
    for (const [name, tile] of Object.entries(list as Record<string, GemmTile>)) {
      if (name in (dtype === 'float32' ? GEMM_F32_TILES : GEMM_C64_TILES)) continue;
      gpuIt(`${dtype} candidate tile ${name}: sizes across the tile edges, or DeviceError where it does not fit`, async () => {
        const c = padded(dtype, tile.BM + 1, tile.BN - 1, tile.BK * 2 + 3, 1, 'N', 'N', 4, { tile, beta: 1 });
        if (gemmTileFits(tile, dtype === 'complex64')) await runCase(c);
        else await expect(runCase(c)).rejects.toThrow(DeviceError);
      });
    }
  }
  gpuIt('gemmTileOf: candidate names and BMxBNxBK/TMxTN[wSW][ds] specs; others are ArgumentErrors', () => {
    expect(gemmTileOf('float32', 't128w8ds')).toEqual(GEMM_F32_CANDIDATES.t128w8ds);
    expect(gemmTileOf('complex64', 't64r8')).toEqual(GEMM_C64_TILES.t64r8);
    expect(gemmTileOf('float32', '128x128x16/8x8')).toEqual({ BM: 128, BN: 128, BK: 16, TM: 8, TN: 8 });
    expect(gemmTileOf('float32', '128x128x8/8x8w8ds')).toEqual({ BM: 128, BN: 128, BK: 8, TM: 8, TN: 8, SW: 8, DS: true });
    for (const bad of ['t999', '128x128/8x8', '128x128x8/6x8', '128x128x8/8x8w3']) expect(() => gemmTileOf('float32', bad), bad).toThrow(ArgumentError);
    expect(() => gemmTileOf('complex64', '64x64x8/8x4ds'), 'DS is float32 only').toThrow(ArgumentError);
  });
});
