export { matmul } from './matmul.js';
export { qr } from './qr.js';
export { svd, svdEx, svdvals } from './svd.js';
