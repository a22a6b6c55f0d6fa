export { matmul } from './matmul.js';
