// The tune bench's candidate GEMM tiles (src/backend/gpu/gemm.ts GEMM_*_CANDIDATES, timed by
// bench/suites/matmul-gpu.ts with LAPIS_BENCH_TUNE): correct on sizes across the tile edges
// wherever they fit the device; one over its workgroup limits is refused with a DeviceError.
// A separate file: these kernels are large and compile slowly on lavapipe, and the list
// shrinks to the winners once the H200 run has timed them.
import { describe, expect } from 'vitest';
import { DeviceError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { runCase, padded } from '../helpers/gemm.js';
import {
  gemmTileFits, GEMM_F32_TILES, GEMM_C64_TILES, GEMM_F32_CANDIDATES, GEMM_C64_CANDIDATES, type GemmTile,
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
});
