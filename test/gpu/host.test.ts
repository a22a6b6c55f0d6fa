// The GPU backend's host module (src/backend/gpu/host.ts, Node's; the browser bundle swaps
// in host.browser.ts): the WGSL dump writes through it, and the browser variant refuses.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gpu, linalg, tensor, DeviceError } from '../../src/index.js';
import { setWgslDumpDir } from '../../src/backend/gpu/program.js';
import * as browserHost from '../../src/backend/gpu/host.browser.js';
import * as nodeHost from '../../src/backend/gpu/host.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

describe('gpu host', () => {
  gpuIt('gpu.init({ dumpWgsl }) writes each newly compiled kernel under the folder, creating it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lapis-dump-')), 'nested');
    try {
      await gpu.init({ dumpWgsl: dir });
      // a shape no other test compiles here: a fresh matmul variant
      const A = tensor({ data: new Float32Array(7 * 5).fill(1), shape: [7, 5] }).to('gpu');
      const B = tensor({ data: new Float32Array(5 * 3).fill(2), shape: [5, 3] }).to('gpu');
      expect(Array.from(await linalg.matmul(A, B).data())).toEqual(new Array(21).fill(10));
      expect(existsSync(dir)).toBe(true);
      const files = readdirSync(dir).filter((f) => f.endsWith('.wgsl'));
      expect(files.length).toBeGreaterThan(0);
      const text = readFileSync(join(dir, files[0]), 'utf8');
      expect(text).toMatch(/^\/\/ \S+ /);
      expect(text).toMatch(/@compute/);
    } finally {
      setWgslDumpDir(undefined);
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('the browser host cannot dump and has no webgpu package; the Node host can', async () => {
    expect(nodeHost.canDumpWgsl).toBe(true);
    expect(browserHost.canDumpWgsl).toBe(false);
    await expect(browserHost.importWebgpu()).rejects.toThrow(DeviceError);
    await expect(browserHost.importWebgpu()).rejects.toThrow(/navigator\.gpu/);
    expect(() => browserHost.writeDumpFile('/tmp/x')).toThrow(DeviceError);
  });
});
