export { createSandbox, type Sandbox } from './app.js';
export { startSandbox, type RunningSandbox, type StartSandboxOptions } from './server.js';
export { resolveSandboxOptions, type SandboxOptions, type ResolvedSandboxOptions } from './options.js';
export type { SandboxContext, SandboxModule } from './module.js';
export { Outbox, RETRY_SCHEDULE_MS, type Delivery, type OutboxMessage } from './outbox/index.js';
export { createPayModule, payModule, type PayModuleOptions } from './pay/index.js';
