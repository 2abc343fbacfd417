export * from './bodies.js';
export * from './errors.js';
export { PUSH_API_VERSION, PUSH_PATHS } from './paths.js';
export * from './routes.js';
export { pushOpenApiDocument, registerPushOpenApi } from './openapi.js';
