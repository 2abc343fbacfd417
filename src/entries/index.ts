// The package root is the verifier (the interface document, section 4.1) and what it needs: stores, brute-force
// limits, the wallet side's barcode primitives and the demo configuration. It loads no HTTP framework, Redis
// client, database or logger; the shared Redis store is `wallet-partner-kit/redis`, errors are
// `wallet-partner-kit/errors`. test/api/surface.test.ts pins this list.
export { barcodeVerify, getToken, init } from '../../adapters/node/default.js';
export { deriveCardKey, drawBarcode, generateBarcode, hmac, hotp, totp } from '../../adapters/node/primitives.js';
export type {
  DrawBarcodeOptions,
  GenerateBarcodeOptions,
  HotpOptions,
  TotpOptions,
} from '../../adapters/node/primitives.js';
export type { BonusAnswer, BonusHook, ResolvedConfig, VerifierConfig } from '../../adapters/node/config.js';
export { createVerifier } from '../../adapters/node/verifier.js';
export type { BatchOf, Verifier, VerifyOptions, VerifyResult } from '../../adapters/node/verifier-api.js';
export type {
  AcceptedVerification,
  Algorythm,
  AnotherInstance,
  BarcodeVerification,
  CardSessionAvailable,
  CardSessionNotAvailable,
  FailureReason,
  PasswordScheme,
  RefusedVerification,
  ResultCode,
  ValidationFailed,
  VerifyReason,
} from '../contracts/barcode.js';
export { demoConfig } from '../demo.js';
export {
  FailureLimiter,
  type FailureBudget,
  type FailureLimiterOptions,
  type Lockout,
} from '../guard/failure-limiter.js';
export type { SharedFailure, SharedFailureCounts } from '../guard/shared-counts.js';
export { MemoryStore, type MemoryStoreOptions } from '../stores/memory.js';
export type { AsyncStore, SyncStore, VerificationStore } from '../stores/store.js';
export { VERSION } from '../version.js';
