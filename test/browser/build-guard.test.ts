// vite.browser.config.ts refuses to bundle Node: an import of a Node built-in or of the
// `webgpu` package that is reachable from the browser entry fails the build, naming it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, loadConfigFromFile } from 'vite';
import { ROOT } from './harness.js';

/** Builds `source` as the entry with the browser config (without the step that checks the wasm URLs, which this entry does not hold). */
async function buildEntry(source: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lapis-guard-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, source);
    const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, join(ROOT, 'vite.browser.config.ts'));
    const config = loaded!.config;
    config.plugins = (config.plugins ?? []).filter((p) => !(p && typeof p === 'object' && 'name' in p && p.name === 'lapis:wasm-urls'));
    await build({
      ...config, configFile: false, root: ROOT, logLevel: 'silent',
      build: { ...config.build, outDir: join(dir, 'out'), lib: { entry, formats: ['es'], fileName: () => 'x.js' } },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the browser build', () => {
  it('builds an entry that needs no Node module', async () => {
    await expect(buildEntry("export const f = (x: number) => x + 1;\n")).resolves.toBeUndefined();
  });

  it('fails on a reachable node: import, naming it', async () => {
    await expect(buildEntry("import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n")).rejects.toThrow(/imports node:fs, a Node-only module/);
  });

  it('fails on a bare Node built-in and on the webgpu package', async () => {
    await expect(buildEntry("import { join } from 'path';\nexport const f = join;\n")).rejects.toThrow(/imports path, a Node-only module/);
    await expect(buildEntry("export const load = () => import('webgpu');\n")).rejects.toThrow(/imports webgpu, a Node-only module/);
  });
});
