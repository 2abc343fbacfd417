export * from '../adapters/node/index.js';
export * from './contracts/barcode.js';
export * from './errors.js';
export * from './stores/index.js';
