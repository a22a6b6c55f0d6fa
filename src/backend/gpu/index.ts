// Every GPU entry of the registry, registered from here (called once by registerAll).
import { registerTensorOpsGpu } from './tensor-ops.js';

export function registerGpu(): void {
  registerTensorOpsGpu();
}
