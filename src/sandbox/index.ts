export { startSandbox, type RunningSandbox, type StartSandboxOptions } from './server.js';
export type { Sandbox } from './app.js';
export type { SandboxOptions, ResolvedSandboxOptions } from './options.js';
