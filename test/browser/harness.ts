// Node side of the browser tests: builds the bundle (vite.browser.config.ts) and a page
// from it (page/, as an app would, with 'lapis' resolved to the bundle), serves the page
// with the COOP/COEP headers of a cross-origin isolated site, and drives Debian's Chromium
// through playwright-core.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = process.env.LAPIS_CHROMIUM ?? '/usr/bin/chromium';
export const WASM = join(ROOT, 'build', 'wasm', 'lapis.wasm');
export const WASM_MT = join(ROOT, 'build', 'wasm', 'lapis-mt.wasm');
/** Where `npm run build:browser` (and these tests) put the bundle. */
export const BUNDLE = join(ROOT, 'dist-browser');

/** Why the browser suite cannot run here (undefined: it can). In CI that is a failure, not a skip. */
export function missingPrerequisite(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set LAPIS_CHROMIUM)`;
  if (!existsSync(WASM)) return `no WebAssembly backend at build/wasm/lapis.wasm (npm run build:wasm)`;
  if (!existsSync(WASM_MT)) return `no threaded WebAssembly backend at build/wasm/lapis-mt.wasm (npm run build:wasm -- --threads)`;
  return undefined;
}

/** `npm run build:browser`: the bundle into dist-browser/ (vite.browser.config.ts); returns the build's wall time. */
export async function buildBundle(): Promise<number> {
  const t0 = performance.now();
  await build({ configFile: join(ROOT, 'vite.browser.config.ts'), root: ROOT, logLevel: 'warn' });
  return performance.now() - t0;
}

/**
 * Builds a page as an app would: 'lapis' is the package itself (a package may import itself
 * by name, and Vite resolves that through package.json's "exports", whose "browser"
 * condition names dist-browser/lapis.js). `configFile` (the example's) or test/browser/page
 * without one; into `outDir`.
 */
export async function buildPage(outDir: string, configFile?: string): Promise<number> {
  const t0 = performance.now();
  await build({
    configFile: configFile ?? false,
    root: configFile ? dirname(configFile) : join(ROOT, 'test', 'browser', 'page'),
    logLevel: 'warn',
    base: './',
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: false },
  });
  return performance.now() - t0;
}

const MIME: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.map': 'application/json', '.json': 'application/json', '.css': 'text/css',
};

/**
 * Serves `dir` on 127.0.0.1 (a secure context, as WebGPU needs) with COOP/COEP, so the page
 * is cross-origin isolated. Under /nowasm/ the same files are served but no .wasm (404).
 */
export async function serve(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const noWasm = pathname.startsWith('/nowasm/');
    if (noWasm) pathname = pathname.slice('/nowasm'.length);
    const path = normalize(join(dir, pathname));
    const file = path.endsWith(sep) ? join(path, 'index.html') : path;
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile() || (noWasm && file.endsWith('.wasm'))) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no port');
  return { url: `http://127.0.0.1:${address.port}/`, server };
}

// A closed network: without the background-networking flags Chromium keeps retrying
// connections it cannot make.
const BASE_FLAGS = [
  '--headless', '--no-sandbox', '--enable-unsafe-webgpu', '--disable-gpu-sandbox', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
];
/** WebGPU adapters to try, in order: SwiftShader (Chromium's own CPU Vulkan), then Vulkan through the system's driver (lavapipe here). */
export const ADAPTER_FLAGS: Record<string, string[]> = {
  swiftshader: ['--use-webgpu-adapter=swiftshader'],
  vulkan: ['--enable-features=Vulkan', '--use-vulkan=native', '--use-angle=vulkan'],
};

export interface Launched {
  context: BrowserContext;
  page: Page;
  /** Which ADAPTER_FLAGS entry gave a WebGPU adapter (undefined: none did; the last one is kept). */
  adapterFlags: string | undefined;
  adapter: Record<string, unknown> | null;
  launchMs: number;
  userDataDir: string;
  /** Console lines and page errors, for failure messages. */
  log: string[];
}

/** Launches Chromium on `url` with the first adapter flags under which navigator.gpu gives an adapter. */
export async function launch(url: string): Promise<Launched> {
  let last: Launched | undefined;
  for (const [name, flags] of Object.entries(ADAPTER_FLAGS)) {
    if (last) await close(last);
    const userDataDir = mkdtempSync(join(tmpdir(), 'lapis-chromium-'));
    const t0 = performance.now();
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM, headless: true, args: [...BASE_FLAGS, ...flags],
    });
    const launchMs = performance.now() - t0;
    const page = context.pages()[0] ?? (await context.newPage());
    const log: string[] = [];
    page.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
    await page.goto(url);
    const adapter = await page.evaluate(async () => {
      const a = await navigator.gpu?.requestAdapter();
      return a ? { vendor: a.info.vendor, architecture: a.info.architecture, description: a.info.description, isFallbackAdapter: (a.info as { isFallbackAdapter?: boolean }).isFallbackAdapter ?? null } : null;
    });
    last = { context, page, adapterFlags: adapter ? name : undefined, adapter, launchMs, userDataDir, log };
    if (adapter) break;
  }
  return last!;
}

export async function close(l: Launched): Promise<void> {
  await l.context.close();
  rmSync(l.userDataDir, { recursive: true, force: true });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
