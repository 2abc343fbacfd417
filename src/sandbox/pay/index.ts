/** The sandbox Pay service: module, options, token check, faults and partner types. */
export { createPayModule, mountPay, payModule } from './module.js';
export { resolvePayOptions, type PayModuleOptions, type ResolvedPayOptions } from './options.js';
export { payMigrations } from './migrations.js';
export { tokenKeyOf, verifyWalletToken, type TokenCheck, type TokenRefusal, type WalletTokenHeader } from './token.js';
export { Faults, type Fault, type FaultAction } from './faults.js';
export type { BankMode, BankSettings } from './bank.js';
export { DEFAULT_LAYOUT, type BarcodeLayout, type Partner } from './partners.js';
