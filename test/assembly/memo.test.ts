import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../adapters/native/index.js';
import type { CoreBackend } from '../../adapters/core/contract.js';
import { WasmBackend } from '../../adapters/node/backend.js';
import { resolveConfig, type VerifierConfig } from '../../adapters/node/config.js';
import { VerifyCode } from '../../adapters/core/core.js';
import { generateBarcode } from '../../src/entries/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../support/fixtures.js';

// assembly/memo.ts (and its twin in the native core) keeps the rfc6238 codes of the present step.
const OLD_KEY = 'a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf';
const STEP = 30_000;
const native = loadNativeBackend();
const makers: Array<[string, (config: VerifierConfig) => CoreBackend]> = [
  ['wasm', (c) => new WasmBackend(resolveConfig(c))],
];
if (!(native instanceof Error)) makers.push(['native', (c) => native(resolveConfig(c))]);

function barcode(at: number, key = PARTNER_KEY, cardNumber = '77'): string {
  return generateBarcode({ ...BASE_CONFIG, scheme: 'rfc6238', key, cardNumber, cardSession: 'AB12CD34', at });
}

for (const [name, make] of makers) {
  describe(`rfc6238 code memo (${name})`, () => {
    it('drops the codes of a step once the clock has moved on, and computes them again when it comes back', () => {
      const core = make({ ...BASE_CONFIG, scheme: 'rfc6238', previousKeys: [OLD_KEY] } as VerifierConfig);
      const code = barcode(NOW);
      expect(core.verify(code, NOW)).toBe(VerifyCode.Ok);
      expect(core.verify(code, NOW + 3 * STEP)).toBe(VerifyCode.CodeMismatch);
      expect(core.verify(barcode(NOW + 3 * STEP), NOW + 3 * STEP)).toBe(VerifyCode.Ok);
      expect(core.verify(code, NOW + STEP)).toBe(VerifyCode.Ok);
      expect(core.result[5]).toBe(-1);
      expect(core.verify(code, NOW)).toBe(VerifyCode.Ok);
      expect(core.result[5]).toBe(0);
    });

    it('answers every card with the same step codes, under each key of a rotation', () => {
      const core = make({ ...BASE_CONFIG, scheme: 'rfc6238', previousKeys: [OLD_KEY] } as VerifierConfig);
      for (const card of ['1', '22', '333', 'A-4']) {
        expect(core.verify(barcode(NOW, PARTNER_KEY, card), NOW)).toBe(VerifyCode.Ok);
        expect(core.result[8]).toBe(0);
        expect(core.verify(barcode(NOW - STEP, OLD_KEY, card), NOW)).toBe(VerifyCode.Ok);
        expect([core.result[8], core.result[5]]).toEqual([1, -1]);
        expect(core.verify(barcode(NOW, 'ff'.repeat(32), card), NOW)).toBe(VerifyCode.CodeMismatch);
      }
    });

    it("keeps each verifier's codes to itself when two run with different keys", () => {
      const a = make({ ...BASE_CONFIG, scheme: 'rfc6238' } as VerifierConfig);
      const b = make({ ...BASE_CONFIG, scheme: 'rfc6238', key: OLD_KEY } as VerifierConfig);
      expect(a.verify(barcode(NOW), NOW)).toBe(VerifyCode.Ok);
      expect(b.verify(barcode(NOW), NOW)).toBe(VerifyCode.CodeMismatch);
      expect(b.verify(barcode(NOW, OLD_KEY), NOW)).toBe(VerifyCode.Ok);
    });
  });
}
