#!/usr/bin/env node
// Runs before `npm test`: the GPU tests need a WebGPU adapter and fail without one (they
// never skip). On a Linux machine with no GPU driver, as root on Debian, install Mesa's
// software Vulkan driver (lavapipe) with the project's own script; elsewhere say what to do.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function hasAdapter() {
  try {
    const { create, globals } = await import('webgpu');
    Object.assign(globalThis, globals);
    const gpu = create([]);
    const adapter = await gpu.requestAdapter();
    globalThis.__lapisGpu = gpu; // Dawn tears the instance down when this is collected
    return adapter !== null;
  } catch {
    return false;
  }
}

if (process.env.LAPIS_ALLOW_NO_GPU === '1' || (await hasAdapter())) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const debian = spawnSync('sh', ['-c', '. /etc/os-release && [ "$ID" = debian ]']).status === 0;
if (process.platform === 'linux' && isRoot && debian) {
  console.log('lapis: no WebGPU adapter; installing the software Vulkan driver (scripts/setup-gpu-software.sh)');
  const r = spawnSync('bash', [join(root, 'scripts', 'setup-gpu-software.sh')], { stdio: 'inherit' });
  if (r.status === 0) process.exit(0);
}
console.error(
  'lapis: no WebGPU adapter, so the GPU tests cannot run.\n' +
  '  Linux without a GPU: install Mesa\'s software Vulkan driver (Debian 12: sudo bash scripts/setup-gpu-software.sh;\n' +
  '  newer distributions: the mesa-vulkan-drivers package).\n' +
  '  To run only the CPU tests: LAPIS_ALLOW_NO_GPU=1 npm test (the GPU tests then report "skipped: no adapter").',
);
process.exit(1);
