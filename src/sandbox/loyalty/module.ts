import type { SandboxModule } from '../module.js';

// PLACEHOLDER, replaced by the loyalty work: the sandbox's Loyalty API driver.
export const loyaltyDriverModule: SandboxModule = { name: 'loyalty-driver', migrations: [], mount() {} };
