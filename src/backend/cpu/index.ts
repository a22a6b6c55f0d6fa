// Every CPU entry of the registry, registered from here (called once by registerAll).
import { registerMatmulCpu } from './matmul.js';
import { registerLuCpu } from './lu.js';
import { registerSolveCpu } from './solve.js';
import { registerTrsmCpu } from './trsm.js';
import { registerInvCpu } from './inv.js';
import { registerDetCpu } from './det.js';
import { registerTransposeCpu } from './transpose.js';
import { registerSpecialCpu } from './special.js';
import { registerQrCpu } from './qr.js';
import { registerSvdCpu } from './svd.js';
import { registerPinvCpu } from './pinv.js';
import { registerLstsqCpu } from './lstsq.js';
import { registerNormCpu } from './norm.js';
import { registerGdnCpu } from './gdn.js';
import { registerElementwiseCpu } from './elementwise.js';
import { registerReduceCpu } from './reduce.js';
import { registerIndexingCpu } from './indexing.js';

export function registerCpu(): void {
  registerSpecialCpu();
  registerMatmulCpu();
  registerLuCpu();
  registerSolveCpu();
  registerTrsmCpu();
  registerInvCpu();
  registerDetCpu();
  registerTransposeCpu();
  registerQrCpu();
  registerSvdCpu();
  registerPinvCpu();
  registerLstsqCpu();
  registerNormCpu();
  registerGdnCpu();
  registerElementwiseCpu();
  registerReduceCpu();
  registerIndexingCpu();
}
