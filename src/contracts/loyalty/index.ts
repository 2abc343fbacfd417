export * from './bodies.js';
export * from './errors.js';
export * from './openapi.js';
export * from './receipt-qr.js';
export * from './routes.js';
export * from './versions.js';
