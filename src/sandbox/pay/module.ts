import type { SandboxModule } from '../module.js';

// PLACEHOLDER, replaced by the pay work: the pay module of the sandbox.
export const payModule: SandboxModule = { name: 'pay', migrations: [], mount() {} };
