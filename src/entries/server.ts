// The cash desk server, kept off the package root so that embedding the
// verifier does not load the HTTP and WebSocket stacks.
export { startServer, type RunningServer, type StartServerOptions } from '../server/serve.js';
export { resolveServeConfig, type ServeConfig, type ServeConfigInput } from '../server/config.js';
export type { CashDeskServiceOptions, Health } from '../cashdesk/service.js';
export type { Till, TillCredentials } from '../cashdesk/tills.js';
