/**
 * The cash desk server's HTTP API (Hono, over the kit's HTTP stack in adapters/http-server): its routes,
 * OpenAPI document and options. See docs/architecture.md (The path of a barcode).
 */
export { createHttpApp } from './app.js';
export { cashDeskOpenApiDocument, PAY_WEBHOOK_PATH } from './openapi.js';
export { DEFAULT_BODY_LIMIT_BYTES, type HttpAdapterOptions, MAX_BODY_LIMIT_BYTES } from './options.js';
export { PATHS } from './routes.js';
