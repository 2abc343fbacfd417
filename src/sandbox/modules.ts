import { loyaltyDriverModule } from './loyalty/module.js';
import type { SandboxModule } from './module.js';
import { payModule } from './pay/module.js';
import { pushModule } from './push/module.js';

/** The emulated parts of the wallet service, in mount order. */
export const SANDBOX_MODULES: readonly SandboxModule[] = [payModule, pushModule, loyaltyDriverModule];
