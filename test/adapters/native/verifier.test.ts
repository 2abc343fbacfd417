import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import { resolveConfig } from '../../../adapters/node/config.js';
import { createVerifier, deriveCardKey, generateBarcode } from '../../../src/entries/index.js';
import { verificationSuite } from '../../shared/verification-suite.js';
import { BASE_CONFIG, CARD_BOUND_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';

const native = loadNativeBackend();
const unavailable = native instanceof Error ? native.message : undefined;
if (unavailable !== undefined) console.log(`native verifier tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('native backend', () => {
  verificationSuite(
    'embedding (native)',
    async (config) => {
      const verifier = createVerifier({ ...config, backend: 'native' });
      expect(verifier.backend).toBe('native');
      return {
        barcodeVerify: async (code) => verifier.barcodeVerify(code),
        barcodeVerifyBatch: async (codes) => verifier.barcodeVerifyBatch(codes),
        getToken: async (data) => verifier.getToken(data),
        close: () => verifier.close(),
      };
    },
    { batch: true },
  );

  describe('loadNativeBackend', () => {
    it('returns a backend factory when the addon is built', () => {
      expect(native).toBeTypeOf('function');
      expect(loadNativeBackend()).toBe(native);
    });

    it('makes backends named native with 9 result slots when given a config', () => {
      const backend = (native as Exclude<typeof native, Error>)(resolveConfig(BASE_CONFIG));
      expect(backend.name).toBe('native');
      expect(backend.result).toBeInstanceOf(Int32Array);
      expect(backend.result.length).toBe(9);
    });

    it('fills the shared result slots when a barcode verifies', () => {
      const backend = (native as Exclude<typeof native, Error>)(resolveConfig(CARD_BOUND_CONFIG));
      const card = '4000123412341234';
      const code = generateBarcode({
        ...CARD_BOUND_CONFIG,
        cardNumber: card,
        cardKey: deriveCardKey(PARTNER_KEY, card, 'HMACSHA256'),
        cardSession: 'AB12CD34',
        at: NOW,
      });
      const slots = backend.result;
      expect(backend.verify(code, NOW)).toBe(0);
      const counter = Math.floor(NOW / 1000 / 30);
      expect(Array.from(slots)).toEqual([3, 16, 20, 8, 29, 0, counter % 2 ** 32, Math.floor(counter / 2 ** 32), 0]);
      expect(backend.verify('XX;1;;1', NOW)).toBe(1);
      expect(slots[0]).toBe(-1);
    });

    it('throws a TypeError when the backend is called with something other than a string', () => {
      const backend = (native as Exclude<typeof native, Error>)(resolveConfig(BASE_CONFIG));
      expect(() => backend.verify(42 as unknown as string, NOW)).toThrow(TypeError);
      expect(() => backend.sign({} as unknown as string, 1)).toThrow(TypeError);
    });

    it('refuses valid codes when the backend has been wiped', () => {
      const backend = (native as Exclude<typeof native, Error>)(resolveConfig(CARD_BOUND_CONFIG));
      const card = '77';
      const code = generateBarcode({
        ...CARD_BOUND_CONFIG,
        cardNumber: card,
        cardKey: deriveCardKey(PARTNER_KEY, card, 'HMACSHA256'),
        at: NOW,
      });
      expect(backend.verify(code, NOW)).toBe(0);
      backend.wipe();
      expect(backend.verify(code, NOW)).toBe(3);
    });
  });

  describe('createVerifier backend option', () => {
    it('picks the native backend when backend is auto and the addon loads', async () => {
      const verifier = createVerifier({ ...BASE_CONFIG, backend: 'auto' });
      expect(verifier.backend).toBe('native');
      await verifier.close();
    });

    it('picks the native backend when no backend is given', async () => {
      const verifier = createVerifier(BASE_CONFIG);
      expect(verifier.backend).toBe('native');
      await verifier.close();
    });

    it('keeps the wasm backend when asked for it', async () => {
      const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm' });
      expect(verifier.backend).toBe('wasm');
      await verifier.close();
    });
  });
});
