/**
 * The one HTTP stack of the kit's servers (cash desk, sandbox, Loyalty server, callback receiver, merchant
 * console): listening and its limits, the error envelope, request ids, refusals, request metrics and the
 * listen-early start. See docs/architecture.md (Layers; One HTTP stack).
 */
export { createApiApp, serveOpenApi, type ApiAppOptions } from './app.js';
export { guardedCheck, limiterFrom, remoteAddressOf, type AuthGuard } from './auth-guard.js';
export { CLIENT_CLOSED_REQUEST } from './failures.js';
export {
  HealthCheck,
  mountHealthRoutes,
  type HealthCheckOptions,
  type HealthProbe,
  type HealthReport,
  type UnavailableBody,
} from './health.js';
export { isJsonMediaType } from './media-type.js';
export { apiMetrics, mountMetrics, METRICS_PATH, type ApiMetrics } from './metrics.js';
export { HttpProblem } from './problem.js';
export { problem } from './refusals.js';
export { sendProblem } from './reply.js';
export { REQUEST_ID_HEADER } from '../../src/log/request-id.js';
export { requestIdOfContext } from './request-id.js';
export { type FetchApp, type HttpServerHandle, serveHttp, type ServeHttpOptions } from './serve.js';
export { serveWhileBuilding, type ServeWhileBuildingOptions } from './serve-while-building.js';
export { DEFAULT_SERVER_LIMITS, resolveServerLimits, type ServerLimits } from './server-limits.js';
