export * from './events.js';
export * from './webhook.js';
