import type { SandboxModule } from '../module.js';

// PLACEHOLDER, replaced by the push work: the push module of the sandbox.
export const pushModule: SandboxModule = { name: 'push', migrations: [], mount() {} };
