// `npm run lint:layers` (the CI step "lint: layers") must catch what it is there for: each
// rule of .dependency-cruiser.cjs and each check of scripts/check-layers.mjs is run on a
// small tree with one planted violation per rule beside imports the layers allow, and the
// report must list exactly the planted ones.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let tree = '';

function put(path: string, text: string): void {
  const abs = join(tree, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'lapis-layers-'));
  copyFileSync(join(repo, 'tsconfig.json'), join(tree, 'tsconfig.json'));
  // a stand-in for the webgpu package, so that its imports resolve
  put('node_modules/webgpu/package.json', '{ "name": "webgpu", "version": "0.0.0", "main": "index.js" }\n');
  put('node_modules/webgpu/index.js', 'module.exports = {};\n');

  put('src/index.ts', "import './backend/cpu/c.js';\nimport './backend/gpu/dev.js';\nexport * from './linalg/op.js';\n");
  put('src/backend/ops.ts', 'export interface OpSignatures { op(): number }\n');
  put('src/backend/registry.ts', "import type { OpSignatures } from './ops.js';\nimport { c } from './cpu/c.js';\nexport const lookup = (): OpSignatures | number => c;\n");
  put('src/backend/registerAll.ts', "import { c } from './cpu/c.js';\nimport { d } from './gpu/dev.js';\nexport const all = c + d;\nexport const registerAll = (): number => all;\n");
  put('src/backend/cpu/c.ts', "import { d } from '../gpu/dev.js';\nimport { t } from '../../core/t.js';\nexport const c = d + t;\n");
  put('src/backend/gpu/dev.ts', "import { op } from '../../linalg/op.js';\nexport const d = op;\nexport const w = () => import('webgpu');\n");
  put('src/backend/gpu/g.ts', "import { c } from '../cpu/c.js';\nimport { d } from './dev.js';\nexport const g = c + d;\n");
  put('src/backend/wasm/instantiate.ts', "import { readFileSync } from 'node:fs';\nimport { c } from '../cpu/c.js';\nexport const i = [readFileSync, c];\n");
  put('src/backend/wasm/node.ts', "import { readFileSync } from 'node:fs';\nimport { i } from './instantiate.js';\nexport const n = [readFileSync, i];\n");
  put('src/core/t.ts', "import { lookup } from '../backend/registry.js';\nimport { op } from '../linalg/op.js';\nimport { d } from '../backend/gpu/dev.js';\nexport const t = op + d + Number(lookup());\n");
  put('src/complex/z.ts', "import type { OpSignatures } from '../backend/ops.js';\nexport type Z = OpSignatures;\n");
  put('src/linalg/op.ts', "import '../backend/registerAll.js';\nimport { lookup } from '../backend/registry.js';\nimport type { OpSignatures } from '../backend/ops.js';\nimport { t } from '../core/t.js';\nexport const op = t + Number(lookup() as OpSignatures | number);\nexport const w = () => import('webgpu');\n");
  put('src/gdn/index.ts', "import { registerAll } from '../backend/registerAll.js';\nimport { lookup } from '../backend/registry.js';\nimport { c } from '../backend/cpu/c.js';\nexport const g = [registerAll, lookup, c];\n");
  put('src/gdn/chunk.ts', "import { registerAll } from '../backend/registerAll.js';\nexport const k = registerAll;\n");
  put('src/special/s.ts', "import { h } from '../../test/helpers/h.js';\nimport { b } from '../../bench/b.js';\nimport { m } from './missing.js';\nexport const s = h + b + m;\n");
  put('test/helpers/h.ts', 'export const h = 1;\n');
  put('bench/b.ts', 'export const b = 1;\n');

  put('native/binding/lu.cpp', '#include <napi.h>\n#include "common.hpp"\n');
  put('native/binding/common.hpp', '#include <napi.h>\n');
  put('native/src/lu/lu.cpp', '#include "lapis/lu.hpp"\n#include <cmath>\n  #  include <napi.h>\n');
  put('native/include/lapis/lu.hpp', '#include <vector>\n#include "../../binding/common.hpp"\n');
  put('native/tests/test_lu.cpp', '#include "lapis/lu.hpp"\n#include <node_api.h>\n');
  put('shaders/lu/lu.wgsl', '// lu\n');
  put('scripts/run.sh', 'LAPIS_KEPT=1 node x.js\n');
  put('bench/kept.ts', 'export const runKept = (solve_kept: number) => solve_kept;\n');
  put('docs/decisions.md', 'Dropped: `native/binding/old.cpp` and LAPIS_OLD (history names removed things).\n');
  put('README.md', 'See `src/linalg/op.ts` and docs/arch.md.\n');
  put(
    'docs/arch.md',
    [
      '<!-- paths-to-create: src/linalg/cholesky.ts shaders/cholesky/ -->',
      'Bindings: `native/binding/lu.cpp` and `native/binding/solve.cpp`.',
      'Public: `linalg/{op,nope}.ts`; GPU `gpu/g.ts`, `lu/lu.wgsl`; kernels `*_avx2.cpp`, napi.h.',
      'Folders: native/src/lu/ and native/src/qr/; new: `src/linalg/cholesky.ts` (imported as `./cholesky.js`), shaders/cholesky/.',
      'Built: dist/src/index.js. Import specifier: `../backend/registry.js`. Web: https://example.com/a/b.ts',
      'Environment: `LAPIS_KEPT=1`, LAPIS_GONE.',
      '<!-- names-to-create: choleskyEx -->',
      'Names: `runKept()`, `solve_kept`, `luVariant`, `choleskyEx`, `plain`, `Tensor`.',
    ].join('\n') + '\n',
  );
});

afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe('lint:layers', () => {
  it('dependency-cruiser flags exactly the forbidden imports between layers', () => {
    const r = spawnSync(
      process.execPath,
      [join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', '--config', join(repo, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      { cwd: tree, encoding: 'utf8' },
    );
    expect(r.stderr).toBe(''); // the json reporter exits 0; the CI step's `err` reporter exits with the count
    const report = JSON.parse(r.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    const found = report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).toEqual(
      [
        'backend-not-public: src/backend/gpu/dev.ts -> src/linalg/op.ts',
        'contract-not-backends: src/backend/registry.ts -> src/backend/cpu/c.ts',
        'core-not-above: src/core/t.ts -> src/linalg/op.ts',
        'core-only-the-contract: src/core/t.ts -> src/backend/gpu/dev.ts',
        'cpu-not-gpu: src/backend/cpu/c.ts -> src/backend/gpu/dev.ts',
        'gdn-entry-only-the-contract: src/gdn/index.ts -> src/backend/cpu/c.ts',
        'gpu-not-cpu: src/backend/gpu/g.ts -> src/backend/cpu/c.ts',
        'no-unresolvable: src/special/s.ts -> ./missing.js',
        'public-ops-only-the-contract: src/gdn/chunk.ts -> src/backend/registerAll.ts',
        'public-ops-only-the-contract: src/linalg/op.ts -> src/backend/registerAll.ts',
        'wasm-instantiate-no-node: src/backend/wasm/instantiate.ts -> fs',
        'wasm-stands-alone: src/backend/wasm/instantiate.ts -> src/backend/cpu/c.ts',
        'src-not-tests-or-bench: src/special/s.ts -> bench/b.ts',
        'src-not-tests-or-bench: src/special/s.ts -> test/helpers/h.ts',
        'webgpu-only-in-gpu-backend: src/linalg/op.ts -> node_modules/webgpu/index.js',
      ].sort(),
    );
  });

  it('check-layers flags Node-API headers outside native/binding, doc paths, LAPIS_* variables and code names that no longer exist', () => {
    const r = spawnSync(process.execPath, [join(repo, 'scripts/check-layers.mjs'), tree], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      'native/src/lu/lu.cpp:3: includes <napi.h>: only native/binding may use Node-API (kernels know nothing of JS)',
      'native/include/lapis/lu.hpp:2: includes "../../binding/common.hpp": kernels do not include the binding layer',
      'native/tests/test_lu.cpp:2: includes <node_api.h>: only native/binding may use Node-API (kernels know nothing of JS)',
      'docs/arch.md:2: names native/binding/solve.cpp, which does not exist',
      'docs/arch.md:3: names linalg/nope.ts, which does not exist',
      'docs/arch.md:4: names the folder native/src/qr/, which does not exist',
      'docs/arch.md:6: names LAPIS_GONE, which no code reads any more',
      'docs/arch.md:8: names `luVariant`, which no code contains',
      'check-layers: 8 problem(s)',
    ]);
  });
});
