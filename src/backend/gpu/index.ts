// Every GPU entry of the registry, registered from here (called once by registerAll).
import { registerTensorOpsGpu } from './tensor-ops.js';
import { registerSpecialGpu } from './special.js';
import { registerMatmulGpu } from './matmul.js';
import { registerInvGpu } from './inv.js';
import { registerLuGpu } from './lu.js';
import { registerLuOpsGpu } from './lu_ops.js';
import { registerTrsmGpu } from './trsm.js';
import { registerQrGpu } from './qr.js';
import { registerElementwiseGpu } from './elementwise.js';
import { registerReduceGpu } from './reduce.js';
import { registerIndexingGpu } from './indexing.js';
import { registerSvdGpu } from './svd.js';
import { registerNormGpu } from './norm.js';
import { registerPinvGpu } from './pinv.js';
import { registerLstsqGpu } from './lstsq.js';
import { registerGdnWyGpu } from './gdn_wy.js';
import { registerGdnBackwardGpu } from './gdn_backward.js';
import { registerGdnStepGpu } from './gdn_step.js';
import { registerGdnGpu } from './gdn.js';

export function registerGpu(): void {
  registerTensorOpsGpu();
  registerSpecialGpu();
  registerMatmulGpu();
  registerInvGpu();
  registerLuGpu();
  registerLuOpsGpu();
  registerTrsmGpu();
  registerQrGpu();
  registerElementwiseGpu();
  registerReduceGpu();
  registerIndexingGpu();
  registerSvdGpu();
  registerNormGpu();
  registerPinvGpu();
  registerLstsqGpu();
  registerGdnWyGpu();
  registerGdnBackwardGpu();
  registerGdnStepGpu();
  registerGdnGpu();
}
