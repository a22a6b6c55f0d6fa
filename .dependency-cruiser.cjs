// The TypeScript layers of docs/architecture.md, checked by `npm run lint:layers` (CI step
// "lint: layers"). Every rule is an error: a forbidden import fails CI. The native layer
// (no napi.h outside native/binding) and the paths the docs name are checked by
// scripts/check-layers.mjs in the same step.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'gpu-not-cpu',
      comment: 'The GPU backend never imports the CPU backend (nor the native addon): each backend stands alone.',
      severity: 'error',
      from: { path: '^src/backend/gpu/' },
      to: { path: '^src/backend/cpu/' },
    },
    {
      name: 'cpu-not-gpu',
      comment: 'The CPU backend never imports the GPU backend.',
      severity: 'error',
      from: { path: '^src/backend/cpu/' },
      to: { path: '^src/backend/gpu/' },
    },
    {
      name: 'wasm-stands-alone',
      comment: 'The WebAssembly build of the CPU kernels (src/backend/wasm) is loaded by the CPU backend; it imports neither backend.',
      severity: 'error',
      from: { path: '^src/backend/wasm/' },
      to: { path: '^src/backend/(cpu|gpu)/' },
    },
    {
      name: 'wasm-instantiate-no-node',
      comment: 'src/backend/wasm/instantiate.ts is part of the browser bundle: no node: modules (node.ts is the Node-side loader).',
      severity: 'error',
      from: { path: '^src/backend/wasm/instantiate\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'backend-not-public',
      comment: 'Backends implement registry ops; they never call the public functions above them.',
      severity: 'error',
      from: { path: '^src/backend/' },
      to: { path: '^src/(linalg|special|gdn|ops|autodiff)/|^src/index\\.ts$' },
    },
    {
      name: 'contract-not-backends',
      comment: 'registry.ts and ops.ts are the contract: they name no backend (the entry fills the registry).',
      severity: 'error',
      from: { path: '^src/backend/(registry|ops)\\.ts$' },
      to: { path: '^src/backend/(cpu|gpu)/' },
    },
    {
      name: 'core-not-above',
      comment: 'core and complex sit under the public ops: they import no linalg/special/gdn and not the entry.',
      severity: 'error',
      from: { path: '^src/(core|complex)/' },
      to: { path: '^src/(linalg|special|gdn|ops|autodiff)/|^src/index\\.ts$' },
    },
    {
      name: 'core-only-the-contract',
      comment: 'core and complex reach the backends only through the registry (and the ops.ts types).',
      severity: 'error',
      from: { path: '^src/(core|complex)/' },
      to: { path: '^src/backend/', pathNot: '^src/backend/(registry|ops)\\.ts$' },
    },
    {
      name: 'public-ops-only-the-contract',
      comment:
        'Public functions (linalg, special, gdn) look implementations up: they import src/backend only through registry.ts and ops.ts; the entry registers the backends once.',
      severity: 'error',
      from: { path: '^src/(linalg|special|gdn|ops|autodiff)/', pathNot: '^src/gdn/index\\.ts$' },
      to: { path: '^src/backend/', pathNot: '^src/backend/(registry|ops)\\.ts$' },
    },
    {
      name: 'gdn-entry-only-the-contract',
      comment:
        'src/gdn/index.ts is also a package entry ("lapis/gdn" in package.json exports): it may call registerAll, and otherwise reaches src/backend through registry.ts and ops.ts like any public op.',
      severity: 'error',
      from: { path: '^src/gdn/index\\.ts$' },
      to: { path: '^src/backend/', pathNot: '^src/backend/(registry|ops|registerAll)\\.ts$' },
    },
    {
      name: 'webgpu-only-in-gpu-backend',
      comment: 'Only the GPU backend talks to WebGPU.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/backend/gpu/' },
      to: { path: '(^|/)node_modules/webgpu/' },
    },
    {
      name: 'src-not-tests-or-bench',
      comment: 'Shipped code imports nothing from test/, bench/, examples/ or scripts/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|examples|scripts)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing would hide an edge from the rules above.',
      severity: 'error',
      from: { path: '^src/' },
      // `/// <reference types="@webgpu/types" />` names a types-only package: no module to resolve
      to: { couldNotResolve: true, pathNot: '^@webgpu/types$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports are coupling too: count them
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // dynamic `await import('webgpu')` is an edge like any other
    exoticRequireStrings: [],
  },
};
