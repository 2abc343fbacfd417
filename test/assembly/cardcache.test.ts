import { describe, expect, it } from 'vitest';
import { WasmBackend } from '../../adapters/node/backend.js';
import { resolveConfig, type VerifierConfig } from '../../adapters/node/config.js';
import { CARD_CACHE_ENTRIES, VerifyCode } from '../../adapters/core/core.js';
import { deriveCardKey, generateBarcode } from '../../src/entries/index.js';
import { CARD_BOUND_CONFIG, NOW, PARTNER_KEY } from '../support/fixtures.js';

// assembly/cardcache.ts keeps the card-bound pads of recent cards; these tests look at it through the wasm core.
const OLD_KEY = 'a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf';

function backend(config: Partial<VerifierConfig> = {}): WasmBackend {
  return new WasmBackend(resolveConfig({ ...CARD_BOUND_CONFIG, ...config } as VerifierConfig));
}

function barcode(cardNumber: string, key = PARTNER_KEY, at = NOW): string {
  return generateBarcode({
    ...CARD_BOUND_CONFIG,
    cardNumber,
    cardKey: deriveCardKey(key, cardNumber, 'HMACSHA256'),
    cardSession: 'AB12CD34',
    at,
  });
}

describe('card pads cache (wasm core)', () => {
  it('serves a rescan of the same card from the cache, with the same answer', () => {
    const core = backend();
    const code = barcode('4000123412341234');
    expect(core.verify(code, NOW)).toBe(VerifyCode.Ok);
    const first = Array.from(core.result.subarray(0, 9));
    const hits = core.core.exports.cardCacheHits();
    expect(core.verify(code, NOW)).toBe(VerifyCode.Ok);
    expect(core.core.exports.cardCacheHits()).toBe(hits + 1);
    expect(Array.from(core.result.subarray(0, 9))).toEqual(first);
  });

  it('never holds more than CARD_CACHE_ENTRIES cards when many more are scanned', () => {
    const core = backend();
    for (let i = 0; i < 3 * CARD_CACHE_ENTRIES; i++)
      expect(core.verify(barcode(String(1_000_000 + i)), NOW)).toBe(VerifyCode.Ok);
    const size = core.core.exports.cardCacheSize();
    expect(size).toBeGreaterThan(CARD_CACHE_ENTRIES / 2);
    expect(size).toBeLessThanOrEqual(CARD_CACHE_ENTRIES);
    // Evicted cards still verify: they are derived again.
    expect(core.verify(barcode('1000000'), NOW)).toBe(VerifyCode.Ok);
  });

  it('keeps each key of a rotation apart when the same card is scanned under both', () => {
    const core = backend({ previousKeys: [OLD_KEY] });
    for (let round = 0; round < 3; round++) {
      expect(core.verify(barcode('77'), NOW)).toBe(VerifyCode.Ok);
      expect(core.result[8]).toBe(0);
      expect(core.verify(barcode('77', OLD_KEY), NOW)).toBe(VerifyCode.Ok);
      expect(core.result[8]).toBe(1);
    }
    // A key that is not configured stays refused, cached pads or not.
    expect(core.verify(barcode('77', 'ff'.repeat(32)), NOW)).toBe(VerifyCode.CodeMismatch);
  });

  it('starts empty under a rotated configuration: the old current key is only a previous key now', () => {
    const before = backend();
    expect(before.verify(barcode('77'), NOW)).toBe(VerifyCode.Ok);
    const after = backend({ key: OLD_KEY, previousKeys: [PARTNER_KEY] });
    expect(after.core.exports.cardCacheSize()).toBe(0);
    expect(after.verify(barcode('77'), NOW)).toBe(VerifyCode.Ok);
    expect(after.result[8]).toBe(1);
  });

  it('is wiped with the rest of the core on close', () => {
    const core = backend();
    for (let i = 0; i < 50; i++) core.verify(barcode(String(i + 1)), NOW);
    expect(core.core.exports.cardCacheSize()).toBeGreaterThan(0);
    core.wipe();
    expect(core.core.exports.cardCacheSize()).toBe(0);
    expect(new Uint8Array(core.core.exports.memory.buffer).every((b) => b === 0)).toBe(true);
  });
});
