import { describe, expect, it, vi } from 'vitest';
import {
  barcodeVerify,
  createVerifier,
  deriveCardKey,
  generateBarcode,
  getToken,
  init,
} from '../../../src/entries/index.js';
import { KitError } from '../../../src/errors.js';
import { verificationSuite } from '../../shared/verification-suite.js';
import { BASE_CONFIG, CARD_BOUND_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';

verificationSuite(
  'embedding (wasm)',
  async (config) => {
    const verifier = createVerifier({ ...config, backend: 'wasm' });
    return {
      barcodeVerify: async (code) => verifier.barcodeVerify(code),
      barcodeVerifyBatch: async (codes) => verifier.barcodeVerifyBatch(codes),
      getToken: async (data) => verifier.getToken(data),
      close: () => verifier.close(),
    };
  },
  { batch: true },
);

describe('createVerifier', () => {
  it('verifies synchronously with the default in-memory store', () => {
    const verifier = createVerifier({ ...CARD_BOUND_CONFIG, clock: () => NOW });
    const code = generateBarcode({
      ...CARD_BOUND_CONFIG,
      cardNumber: '77',
      cardKey: deriveCardKey(PARTNER_KEY, '77', 'HMACSHA256'),
      at: NOW,
    });
    const result = verifier.barcodeVerify(code);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result.resultCode).toBe('CARDSESSION_NOT_AVAILABLE');
  });

  it('throws a TypeError naming the type when fullBarcode is not a string', () => {
    const verifier = createVerifier(BASE_CONFIG);
    for (const bad of [undefined, null, 42, {}, ['CM']]) {
      expect(() => verifier.barcodeVerify(bad as unknown as string)).toThrow(TypeError);
    }
    expect(() => verifier.barcodeVerify(null as unknown as string)).toThrow(/fullBarcode must be a string, got null/);
    expect(() => verifier.getToken({} as unknown as string)).toThrow(TypeError);
  });

  it('answers a batch in order, each as barcodeVerify would one after the other', () => {
    const verifier = createVerifier({ ...CARD_BOUND_CONFIG, clock: () => NOW });
    const code = generateBarcode({
      ...CARD_BOUND_CONFIG,
      cardNumber: '77',
      cardKey: deriveCardKey(PARTNER_KEY, '77', 'HMACSHA256'),
      at: NOW,
    });
    const answers = verifier.barcodeVerifyBatch([code, 'XX;1;;1', code]);
    expect(answers.map((a) => a.reason)).toEqual(['OK', 'PREFIX_MISMATCH', 'REPLAYED']);
    expect(verifier.barcodeVerifyBatch([])).toEqual([]);
    expect(() => verifier.barcodeVerifyBatch('CM' as unknown as string[])).toThrow(/must be an array/);
  });

  it('throws VERIFIER_CLOSED after close', async () => {
    const verifier = createVerifier(BASE_CONFIG);
    await verifier.close();
    expect(() => verifier.barcodeVerify('CM;1;;1')).toThrow(expect.objectContaining({ code: 'VERIFIER_CLOSED' }));
    expect(() => verifier.getToken('{}')).toThrow(KitError);
  });

  it('throws CLOCK_INVALID when the clock returns something other than ms', () => {
    const verifier = createVerifier({ ...BASE_CONFIG, clock: () => Number.NaN });
    expect(() => verifier.barcodeVerify('CM;1;;12345678')).toThrow(expect.objectContaining({ code: 'CLOCK_INVALID' }));
  });

  it('keeps separate state per verifier', () => {
    const a = createVerifier({ ...CARD_BOUND_CONFIG, clock: () => NOW });
    const b = createVerifier({ ...CARD_BOUND_CONFIG, prefix: 'ZZ', clock: () => NOW });
    const code = generateBarcode({
      ...CARD_BOUND_CONFIG,
      cardNumber: '5',
      cardKey: deriveCardKey(PARTNER_KEY, '5', 'HMACSHA256'),
      at: NOW,
    });
    expect(b.barcodeVerify(code).resultCode).toBe('ANOTHER_INSTANCE');
    expect(a.barcodeVerify(code).resultCode).toBe('CARDSESSION_NOT_AVAILABLE');
  });
});

describe('init, barcodeVerify, getToken (module level)', () => {
  it('throws until init is called, then serves the default verifier', async () => {
    // Workers share one module graph (vitest isolate: false): another file may have called init already.
    vi.resetModules();
    const fresh = await import('../../../src/entries/index.js');
    expect(() => fresh.getToken('{}')).toThrow(/call init\(config\) first/);
    init({ ...CARD_BOUND_CONFIG, clock: () => NOW });
    const code = generateBarcode({
      ...CARD_BOUND_CONFIG,
      cardNumber: '123',
      cardKey: deriveCardKey(PARTNER_KEY, '123', 'HMACSHA256'),
      cardSession: 'AAAABBBB',
      at: NOW,
    });
    expect(barcodeVerify(code)).toMatchObject({
      resultCode: 'CARDSESSION_AVAILABLE',
      cardNumber: '123',
      cardSession: 'AAAABBBB',
    });
    expect(getToken('{"a":1}')).toContain('..');
  });

  it('replaces the default verifier on a second init', () => {
    init({ ...CARD_BOUND_CONFIG, clock: () => NOW });
    init({ ...CARD_BOUND_CONFIG, prefix: 'QQ', clock: () => NOW });
    const code = generateBarcode({
      ...CARD_BOUND_CONFIG,
      cardNumber: '9',
      cardKey: deriveCardKey(PARTNER_KEY, '9', 'HMACSHA256'),
      at: NOW,
    });
    expect((barcodeVerify(code) as { resultCode: string }).resultCode).toBe('ANOTHER_INSTANCE');
  });
});

describe('close', () => {
  it('leaves no key material in the wasm core it used', async () => {
    const { WasmBackend } = await import('../../../adapters/node/backend.js');
    const { resolveConfig } = await import('../../../adapters/node/config.js');
    const backend = new WasmBackend(resolveConfig({ ...BASE_CONFIG, backend: 'wasm' }));
    const memory = (backend as unknown as { result: Int32Array }).result.buffer;
    expect(new Uint8Array(memory).some((b) => b !== 0)).toBe(true);
    backend.wipe();
    expect(new Uint8Array(memory).every((b) => b === 0)).toBe(true);
  });
});
