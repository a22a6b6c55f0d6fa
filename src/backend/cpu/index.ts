// Every CPU entry of the registry, registered from here (called once by registerAll).
import { registerMatmulCpu } from './matmul.js';

export function registerCpu(): void {
  registerMatmulCpu();
}
