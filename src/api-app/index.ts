export { createApiApp, requestIdOf, serveOpenApi, sendProblem, REQUEST_ID_HEADER, type ApiAppOptions } from './app.js';
export { basicAuthHeader, parseBasicAuth, safeEqual, type BasicCredentials } from '../net/basic-auth.js';
export { HttpProblem, problem } from './problem.js';
export { realSleep, type Sleep } from '../time/sleep.js';
export { HealthCheck, mountHealthRoutes, type HealthCheckOptions, type HealthProbe, type HealthReport, type UnavailableBody } from './health.js';
export { guardedCheck, limiterFrom, remoteAddressOf, type AuthGuard } from './auth-guard.js';
export { apiMetrics, mountMetrics, METRICS_PATH, type ApiMetrics } from './metrics.js';
