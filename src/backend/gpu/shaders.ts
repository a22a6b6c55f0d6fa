// WGSL sources live in the package's `shaders/` folder, one folder per op family. They
// are read from disk once and cached; the folder is found by walking up from this file,
// which works from `src/` (vitest) and from `dist/src/` (compiled).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceError } from '../../core/errors.js';

const cache = new Map<string, string>();
let root: string | undefined;

function shadersRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'shaders')) && existsSync(join(dir, 'package.json'))) return (root = join(dir, 'shaders'));
    const up = dirname(dir);
    if (up === dir) throw new DeviceError('gpu: the shaders/ folder of the lapis package was not found');
    dir = up;
  }
}

/** Text of `shaders/<path>` (e.g. 'matmul/matmul.wgsl'). */
export function shaderText(path: string): string {
  let t = cache.get(path);
  if (t === undefined) {
    const file = join(shadersRoot(), path);
    try {
      t = readFileSync(file, 'utf8');
    } catch {
      throw new DeviceError(`gpu: shader ${path} not found under ${shadersRoot()}`);
    }
    cache.set(path, t);
  }
  return t;
}

/** Provides a shader's text directly (bundlers, browsers without a file system). */
export function registerShaderText(path: string, text: string): void {
  cache.set(path, text);
}
