// The cash desk server, kept off the package root so that embedding the
// verifier does not load the HTTP and WebSocket stacks.
export { startServer, BRIDGE_PATH, type RunningServer, type StartServerOptions } from './serve.js';
export { DEMO_PAY_URL } from './config.js';
export { resolveServeConfig, serveConfigSchema, ENVIRONMENT, type ServeConfig, type ServeConfigInput } from './config.js';
export { CashDeskService, type CashDeskServiceOptions, type Health } from '../cashdesk/service.js';
export { TillRegistry, presentedKey, type Till, type TillCredentials } from '../cashdesk/tills.js';
export { ServerMetrics } from '../cashdesk/metrics.js';
