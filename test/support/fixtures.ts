import type { VerifierConfig } from '../../adapters/node/config.js';

/** A test partner key (32 bytes). Never a real key. */
export const PARTNER_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

/** The seven init parameters of a typical chain, in the document's spellings. */
export const BASE_CONFIG = {
  algorythm: 'HMACSHA256',
  passLength: 8,
  prefix: 'CM',
  key: PARTNER_KEY,
  interval: 30,
  cardSessionLength: 8,
  delimeter: ';',
} as const satisfies VerifierConfig;

/**
 * The base config under the `card-bound` scheme (per-card keys, the session in
 * the MAC): for tests whose barcodes come from `deriveCardKey`.
 */
export const CARD_BOUND_CONFIG = { ...BASE_CONFIG, scheme: 'card-bound' } as const satisfies VerifierConfig;

/** A fixed instant (2026-11-22T10:00:00Z) well inside a 30 s step. */
export const NOW = Date.UTC(2026, 10, 22, 10, 0, 10);
