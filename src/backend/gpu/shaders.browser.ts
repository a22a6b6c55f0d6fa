/// <reference types="vite/client" />
// The browser's version of ./shaders.ts (swapped in by vite.browser.config.ts): every
// .wgsl file under shaders/ is embedded in the bundle as text when it is built, so a page
// needs no file system and fetches no shader.
import { DeviceError } from '../../core/errors.js';

const PREFIX = '../../../shaders/';
const embedded = import.meta.glob('../../../shaders/**/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const cache = new Map<string, string>();
for (const [key, text] of Object.entries(embedded)) cache.set(key.slice(PREFIX.length), text);

/** Text of `shaders/<path>` (e.g. 'matmul/matmul.wgsl'). */
export function shaderText(path: string): string {
  const t = cache.get(path);
  if (t === undefined) throw new DeviceError(`gpu: shader ${path} is not embedded in this bundle`);
  return t;
}

/** Provides a shader's text directly (bundlers, browsers without a file system). */
export function registerShaderText(path: string, text: string): void {
  cache.set(path, text);
}
