import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import {
  barcodeVerify,
  createVerifier,
  drawBarcode,
  init,
  MemoryStore,
  type VerificationStore,
} from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';
import { redisTestStore } from '../../support/redis-store.js';

function barcodeFor(cardNumber: string, at = NOW, cardSession = 'AB12CD34'): string {
  return drawBarcode({ ...BASE_CONFIG, key: PARTNER_KEY, cardNumber, cardSession, at });
}

const nativeMissing = loadNativeBackend() instanceof Error;
const backends = (['wasm', 'native'] as const).filter((b) => b === 'wasm' || !nativeMissing);

/** The same cases over a synchronous and an asynchronous store, on each backend. */
function requesterSuite(name: string, makeStore: (clock: () => number) => VerificationStore, skip = false): void {
  describe.skipIf(skip).each(backends)(`barcodeVerify with a requester (${name}, %s)`, (backend) => {
    let card = 0;
    const setup = () => {
      const time = testClock();
      const verifier = createVerifier({ ...BASE_CONFIG, backend, clock: time.now, replay: makeStore(time.now) });
      // A card number no other test (or earlier run against the same Redis) has used.
      const cardNumber = `${process.pid}${randomBytes(3).toString('hex')}${++card}`.replace(/[^0-9A-Za-z]/g, '');
      return {
        time,
        verifier,
        cardNumber,
        verify: async (code: string, requester?: string) =>
          verifier.barcodeVerify(code, requester === undefined ? undefined : { requester }),
      };
    };

    it('gives the same requester the first answer again with repeated: true, and REPLAYED to anyone else', async () => {
      const { verify, cardNumber, verifier } = setup();
      const code = barcodeFor(cardNumber);
      const first = await verify(code, 'till-1');
      expect(first).toMatchObject({
        resultCode: 'CARDSESSION_AVAILABLE',
        reason: 'OK',
        cardNumber,
        cardSession: 'AB12CD34',
      });
      expect(first.repeated).toBeUndefined();
      expect(await verify(code, 'till-1')).toEqual({ ...first, repeated: true });
      expect(await verify(code, 'till-1')).toEqual({ ...first, repeated: true });
      expect(await verify(code, 'till-2')).toMatchObject({
        resultCode: 'VALIDATION_FAILED',
        reason: 'REPLAYED',
        totpCodeValid: false,
      });
      expect(await verify(code)).toMatchObject({ reason: 'REPLAYED' });
      await verifier.close();
    });

    it('answers REPLAYED to a requester whose barcode was first used without one', async () => {
      const { verify, cardNumber, verifier } = setup();
      const code = barcodeFor(cardNumber);
      expect((await verify(code)).reason).toBe('OK');
      expect((await verify(code, 'till-1')).reason).toBe('REPLAYED');
      await verifier.close();
    });

    it('does not take a requester whose id is a prefix of another for the other', async () => {
      const { verify, cardNumber, verifier } = setup();
      const code = barcodeFor(cardNumber);
      expect((await verify(code, 'till-1')).reason).toBe('OK');
      expect((await verify(code, 'till-10')).reason).toBe('REPLAYED');
      expect((await verify(code, 'till-')).reason).toBe('REPLAYED');
      expect((await verify(code, '')).reason).toBe('REPLAYED');
      await verifier.close();
    });

    it('answers CODE_MISMATCH to the same requester once the password is no longer valid', async () => {
      const { verify, cardNumber, verifier, time } = setup();
      const code = barcodeFor(cardNumber);
      expect((await verify(code, 'till-1')).reason).toBe('OK');
      time.advance(2 * 30_000); // two steps on: out of the window of 1
      expect(await verify(code, 'till-1')).toMatchObject({ reason: 'CODE_MISMATCH', totpCodeValid: false });
      await verifier.close();
    });
  });
}

requesterSuite('memory', (clock) => new MemoryStore({ clock }));

describe("barcodeVerify with a requester (the verifier's own store)", () => {
  it('repeats for the same requester through the module-level barcodeVerify', () => {
    init({ ...BASE_CONFIG, clock: () => NOW });
    const code = barcodeFor('31337');
    expect(barcodeVerify(code, { requester: 'till-1' })).toMatchObject({ reason: 'OK' });
    expect(barcodeVerify(code, { requester: 'till-1' })).toMatchObject({
      reason: 'OK',
      repeated: true,
      totpCodeValid: true,
    });
    expect(barcodeVerify(code, { requester: 'till-2' })).toMatchObject({ reason: 'REPLAYED' });
  });
});

const redis = redisTestStore('requester', 'the requester tests over Redis');
// Redis keeps time itself: marks live their TTL in real time, which these cases never wait out.
requesterSuite('Redis', () => redis.store()!, redis.skip);
