import { registerCpu } from './cpu/index.js';
import { registerGpu } from './gpu/index.js';

let done = false;

/**
 * Fills the registry once. Called explicitly by the package entries (src/index.ts and
 * src/gdn/index.ts, the `lapis/gdn` export); op modules never import it.
 */
export function registerAll(): void {
  if (done) return;
  done = true;
  registerCpu();
  registerGpu();
}
