export { createVerifier, type BatchOf, type Verifier, type VerifyOptions, type VerifyResult } from './verifier.js';
export { init, barcodeVerify, getToken } from './default.js';
export { deriveCardKey, drawBarcode, generateBarcode, hmac, hotp, totp } from './primitives.js';
export type { DrawBarcodeOptions, GenerateBarcodeOptions, HotpOptions, TotpOptions } from './primitives.js';
export type { BonusAnswer, BonusHook, ResolvedConfig, VerifierConfig } from './config.js';
