export { createVerifier } from './verifier.js';
export type { BatchOf, Verifier, VerifyOptions, VerifyResult } from './verifier-api.js';
export { init, barcodeVerify, getToken } from './default.js';
export { deriveCardKey, drawBarcode, generateBarcode, hmac, hotp, totp } from './primitives.js';
export type { DrawBarcodeOptions, GenerateBarcodeOptions, HotpOptions, TotpOptions } from './primitives.js';
export type { BonusAnswer, BonusHook, ResolvedConfig, VerifierConfig } from './config.js';
