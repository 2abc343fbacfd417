export * from './bodies.js';
export * from './errors.js';
export * from './routes.js';
export { pushOpenApiDocument, registerPushOpenApi } from './openapi.js';
