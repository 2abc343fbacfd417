export { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../sandbox/server.js';
export type { Sandbox } from '../sandbox/app.js';
export type { SandboxOptions, ResolvedSandboxOptions } from '../sandbox/options.js';
