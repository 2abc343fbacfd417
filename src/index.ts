export * from '../adapters/node/index.js';
export * from './contracts/barcode.js';
export * from './errors.js';
export * from './stores/index.js';
export { demoConfig } from './demo.js';
export { VERSION } from './version.js';
export * from './guard/index.js';
