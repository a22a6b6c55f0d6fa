// The browser bundle (`npm run build:browser`): src/browser.ts as one minified ES module in
// dist-browser/, with the WGSL shaders embedded; it fetches the WebAssembly CPU backend from
// ../build/wasm/, the package's one copy, which the Node loader uses too.
// Modules with a `<name>.browser.ts` sibling are replaced by it (the Node-only host code:
// file system, the `webgpu` package, the native addon), and an import of a Node built-in or
// of `webgpu` that is still reachable fails the build instead of shipping a broken page.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = dirname(fileURLToPath(import.meta.url));
const src = join(root, 'src');
const NODE_ONLY = new Set(['webgpu', ...builtinModules]);

/** The URL the bundle fetches its WebAssembly backend by, relative to itself (src/browser.ts names it too: src/ and dist-browser/ are both one level down). */
export const WASM_URL = '../build/wasm/lapis.wasm';
/** Where `npm run build:wasm` writes it. */
export const WASM_SOURCE = join(root, 'build', 'wasm', 'lapis.wasm');
/** The threaded build, for cross-origin isolated pages (`npm run build:wasm -- --threads`; optional: without it every page gets lapis.wasm). */
export const WASM_MT_URL = '../build/wasm/lapis-mt.wasm';
export const WASM_MT_SOURCE = join(root, 'build', 'wasm', 'lapis-mt.wasm');

function browserSwaps(): Plugin {
  return {
    name: 'lapis:browser-swaps',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith('node:') || NODE_ONLY.has(source)) {
        this.error(`${importer ? relative(root, importer) : source} imports ${source}, a Node-only module, into the browser bundle: give that module a .browser.ts sibling`);
      }
      if (!importer || !source.startsWith('.')) return null;
      const r = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!r || !r.id.startsWith(src) || !r.id.endsWith('.ts') || r.id.endsWith('.browser.ts')) return r;
      const swap = r.id.replace(/\.ts$/, '.browser.ts');
      return existsSync(swap) ? swap : r;
    },
  };
}

// The shaders' comments and indentation are a third of their text and mean nothing to the
// GPU; lines are kept so the preprocessor's `file:line` messages still point at the source.
function compactWgsl(): Plugin {
  return {
    name: 'lapis:compact-wgsl',
    enforce: 'pre',
    load(id) {
      if (!/\.wgsl\?raw$/.test(id)) return null;
      const text = readFileSync(id.replace(/\?raw$/, ''), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, (c) => '\n'.repeat(c.split('\n').length - 1))
        .split('\n')
        .map((l) => l.replace(/\/\/.*$/, '').trim())
        .join('\n');
      return `export default ${JSON.stringify(text)};`;
    },
  };
}

// The bundle fetches `new URL('../build/wasm/lapis.wasm', import.meta.url)`: the package's
// build/wasm/ (the copy the Node loader reads; the tarball holds each .wasm once), and a
// bundler building a page from the bundle sees that expression and copies the file.
// The minifier may print it with backquotes; bundlers look for a quoted string there, so the
// quotes are set after minification (same length: the source map stays right).
function wasmUrls(): Plugin {
  const printed = (url: string) => new RegExp(`new URL\\([\`"']${url.replace(/[./]/g, '\\$&')}[\`"'],import\\.meta\\.url\\)`, 'g');
  return {
    name: 'lapis:wasm-urls',
    generateBundle(_options, bundle) {
      if (!existsSync(WASM_SOURCE)) this.error(`${relative(root, WASM_SOURCE)} is missing: run \`npm run build:wasm\` first`);
      if (!existsSync(WASM_MT_SOURCE)) this.warn(`${relative(root, WASM_MT_SOURCE)} is missing (\`npm run build:wasm -- --threads\`): cross-origin isolated pages will run the CPU ops on one thread`);
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      if (!entry || entry.type !== 'chunk') this.error('the bundle has no entry chunk');
      for (const url of [WASM_URL, WASM_MT_URL]) {
        if ((entry.code.match(printed(url))?.length ?? 0) !== 1) {
          this.error(`the bundle does not hold exactly one new URL(\`${url}\`,import.meta.url): src/browser.ts and this plugin disagree`);
        }
        entry.code = entry.code.replace(printed(url), `new URL("${url}",import.meta.url)`);
      }
    },
  };
}

export default defineConfig({
  plugins: [browserSwaps(), compactWgsl(), wasmUrls()],
  build: {
    outDir: 'dist-browser',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: true,
    lib: { entry: join(src, 'browser.ts'), formats: ['es'], fileName: () => 'lapis.js' },
    // Vite minifies an ES library without removing whitespace (to keep /*#__PURE__*/ marks for
    // the app's bundler); this bundle registers every op on load, so there is nothing to shake.
    // comments: false also drops src/browser.ts's vite-ignore mark, which would hide the wasm URL from the app's bundler.
    rolldownOptions: { output: { minify: true, comments: false } },
  },
});
