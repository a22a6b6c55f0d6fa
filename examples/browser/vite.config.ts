// Builds the example page against the lapis package: 'lapis' resolves through package.json's
// "exports", whose "browser" condition is dist-browser/lapis.js (`npm run build:browser`).
// Inside this repository that is the package importing itself by name; in an app, after
// `npm install lapis`, the same config works unchanged.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // the bundle fetches lapis.wasm by `new URL(…, import.meta.url)`, which dependency
  // pre-bundling would break in the dev server
  optimizeDeps: { exclude: ['lapis'] },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
  // cross-origin isolation (SharedArrayBuffer, for threads) in `vite` and `vite preview`
  server: { headers: isolated },
  preview: { headers: isolated },
});
