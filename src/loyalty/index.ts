export * from '../contracts/loyalty/index.js';
export { LoyaltyError, LoyaltyClientError, type LoyaltyClientErrorCode } from './errors.js';
export type { LoyaltyCallContext, LoyaltyHandlers } from './handlers.js';
export { createLoyaltyServer, type LoyaltyServerOptions } from '../loyalty-server/server.js';
export { basicAuth, type LoyaltyAuth } from '../loyalty-server/auth.js';
export { MemoryIdempotencyCache, type IdempotencyCache, type MemoryIdempotencyOptions } from '../loyalty-server/idempotency.js';
export { createLoyaltyClient, type LoyaltyClient, type LoyaltyClientOptions } from './client/client.js';
export { requestOf, sendRaw, type LoyaltyInputs, type LoyaltyTransportOptions, type RawAnswer } from './client/transport.js';
export {
  runConformanceCheck, formatConformanceReport, type ConformanceOptions, type ConformanceReport, type ConformanceResult, type ConformanceSubject,
} from './conformance/check.js';
export { LoyaltyStore, type CardRecord, type CategoryGroupInput, type PromoCodeInput } from '../loyalty-program/store.js';
export { loyaltyMigrations } from '../loyalty-program/migrations.js';
export { createStoreHandlers, isStoreUnavailable, receiptBonus, withStoreUnavailable } from '../loyalty-program/handlers.js';
export { DEMO_CATEGORY_GROUPS, demoPromoCodes, seedDemoProgram } from '../loyalty-program/demo.js';
export { newCardNumber, luhnCheckDigit, luhnValid } from '../loyalty-program/card-number.js';
export { resolveLoyaltyProgramOptions, type LoyaltyProgramOptions } from '../loyalty-program/options.js';
export { createLoyaltyProgram, type LoyaltyProgram } from '../loyalty-program/program.js';
export { startLoyaltyProgram, type RunningLoyaltyProgram, type StartLoyaltyProgramOptions } from '../loyalty-program/start.js';
