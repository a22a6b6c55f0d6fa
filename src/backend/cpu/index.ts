// Every CPU entry of the registry, registered from here (called once by registerAll).
import { registerMatmulCpu } from './matmul.js';
import { registerSpecialCpu } from './special.js';
import { registerQrCpu } from './qr.js';
import { registerSvdCpu } from './svd.js';

export function registerCpu(): void {
  registerSpecialCpu();
  registerMatmulCpu();
  registerQrCpu();
  registerSvdCpu();
}
