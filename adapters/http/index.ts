/**
 * The cash desk server's HTTP adapter (Hono): routes, error envelope, OpenAPI
 * document, and a Node listener. See docs/architecture.md (The path of a barcode).
 */
export { createHttpApp } from './app.js';
export { cashDeskOpenApiDocument, PAY_WEBHOOK_PATH } from './openapi.js';
export { DEFAULT_BODY_LIMIT_BYTES, type HttpAdapterOptions, MAX_BODY_LIMIT_BYTES } from './options.js';
export { PATHS } from './routes.js';
export { type FetchApp, type HttpServerHandle, serveHttp, type ServeHttpOptions } from './serve.js';
export { DEFAULT_SERVER_LIMITS, resolveServerLimits, type ServerLimits } from './server-limits.js';
