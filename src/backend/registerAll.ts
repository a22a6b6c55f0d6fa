import { registerCpu } from './cpu/index.js';
import { registerGpu } from './gpu/index.js';

let done = false;

/** Fills the registry once; imported for its effect by the public entry points. */
export function registerAll(): void {
  if (done) return;
  done = true;
  registerCpu();
  registerGpu();
}

registerAll();
