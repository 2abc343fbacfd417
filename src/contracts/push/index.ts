export * from './bodies.js';
export * from './errors.js';
