// What the GPU backend needs from its host runtime, Node's version: the `webgpu` package
// (Dawn) when there is no `navigator.gpu`, and a file system for the WGSL dump. The
// browser bundle swaps in ./host.browser.ts (vite.browser.config.ts), so nothing here is
// reachable from a page.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `webgpu` package's exports that device.ts uses. */
export interface WebgpuModule {
  create: (flags: string[]) => GPU;
  globals: object;
}

/** Loads the `webgpu` package (rejects when it is not installed or its addon does not load). */
export async function importWebgpu(): Promise<WebgpuModule> {
  return (await import('webgpu')) as unknown as WebgpuModule;
}

/** Whether `gpu.init({ dumpWgsl })` can write files here. */
export const canDumpWgsl = true;

/** Writes `text` to `dir/file`, creating `dir`. */
export function writeDumpFile(dir: string, file: string, text: string): string {
  const path = join(dir, file);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, text);
  return path;
}
