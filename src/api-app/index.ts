export { createApiApp, serveOpenApi, sendProblem, REQUEST_ID_HEADER, type ApiAppOptions } from './app.js';
export { basicAuthHeader, parseBasicAuth, safeEqual, type BasicCredentials } from './basic-auth.js';
export { HttpProblem, problem } from './problem.js';
export { realSleep, type Sleep } from './sleep.js';
export { guardedCheck, limiterFrom, remoteAddressOf, type AuthGuard } from './auth-guard.js';
