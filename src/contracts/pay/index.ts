export * from './amounts.js';
export * from './bodies.js';
export * from './errors.js';
export * from './items.js';
export * from './statuses.js';
export * from './routes.js';
export * from './answers.js';
export * from './units.js';
