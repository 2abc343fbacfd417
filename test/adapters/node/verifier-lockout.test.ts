import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import { type AsyncStore, createVerifier, drawBarcode, MemoryStore } from '../../../src/entries/index.js';
import { StoreError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';

// The verifier skips the failure-counter look-up while a MemoryStore holds no
// counter at all: these cases pin that the look-up comes back as soon as one exists.
const backends = (['wasm', 'native'] as const).filter((b) => b === 'wasm' || !(loadNativeBackend() instanceof Error));
const lockout = { maxFailures: 2, coolDownSeconds: 60 };

function barcodeFor(cardNumber: string): string {
  return drawBarcode({ ...BASE_CONFIG, key: PARTNER_KEY, cardNumber, cardSession: 'AB12CD34', at: NOW });
}

function wrong(code: string): string {
  const last = code.at(-1)!;
  return code.slice(0, -1) + (last === '0' ? '1' : '0');
}

describe.each(backends)('lockout over a MemoryStore (%s)', (backend) => {
  it('counts from the first failure, locks at maxFailures, and forgets the count after a success', () => {
    const { now: clock } = testClock();
    const store = new MemoryStore({ clock });
    const verifier = createVerifier({ ...BASE_CONFIG, backend, clock, replay: store, lockout });
    const a = barcodeFor('4000111122223333');
    expect(verifier.barcodeVerify(wrong(a)).reason).toBe('CODE_MISMATCH');
    expect(store.failureCounters).toBe(1);
    expect(verifier.barcodeVerify(barcodeFor('4000444455556666')).reason).toBe('OK');
    // A success clears its own card's count only.
    expect(store.failureCounters).toBe(1);
    expect(verifier.barcodeVerify(a).reason).toBe('OK');
    expect(store.failureCounters).toBe(0);
    expect(verifier.barcodeVerify(wrong(a)).reason).toBe('CODE_MISMATCH');
    expect(verifier.barcodeVerify(wrong(a)).reason).toBe('CODE_MISMATCH');
    expect(verifier.barcodeVerify(a).reason).toBe('LOCKED');
  });

  it('sees counters another verifier wrote into a shared store', () => {
    const { now: clock } = testClock();
    const store = new MemoryStore({ clock });
    const till1 = createVerifier({ ...BASE_CONFIG, backend, clock, replay: store, lockout });
    const till2 = createVerifier({ ...BASE_CONFIG, backend, clock, replay: store, lockout });
    const code = barcodeFor('4000777788889999');
    expect(till1.barcodeVerify(wrong(code)).reason).toBe('CODE_MISMATCH');
    expect(till1.barcodeVerify(wrong(code)).reason).toBe('CODE_MISMATCH');
    expect(till2.barcodeVerify(code).reason).toBe('LOCKED');
  });

  it('asks a MemoryStore subclass for every count, empty or not', () => {
    const { now: clock } = testClock();
    class AlwaysLocked extends MemoryStore {
      override count(): number {
        return 99;
      }
    }
    const verifier = createVerifier({ ...BASE_CONFIG, backend, clock, replay: new AlwaysLocked({ clock }), lockout });
    expect(verifier.barcodeVerify(barcodeFor('4000121234345656')).reason).toBe('LOCKED');
  });
});

describe.each(backends)('lockout and replay over an async store (%s)', (backend) => {
  const over = (inner: MemoryStore, failing = false): AsyncStore => ({
    synchronous: false,
    claim: async (key, ttl) => inner.claim(key, ttl),
    claimFor: async (key, ttl, owner) => inner.claimFor(key, ttl, owner),
    increment: async (key, ttl) => inner.increment(key, ttl),
    count: async (key) => {
      if (failing) throw new Error('connection lost');
      return inner.count(key);
    },
    delete: async (key) => inner.delete(key),
    close: async () => inner.close(),
  });

  it(
    'answers as the sync store does: mismatch, lock, first answer again for ' + 'its requester, REPLAYED for others',
    async () => {
      const { now: clock } = testClock();
      const verifier = createVerifier({
        ...BASE_CONFIG,
        backend,
        clock,
        replay: over(new MemoryStore({ clock })),
        lockout,
      });
      const a = barcodeFor('4000222233334444');
      const first = await verifier.barcodeVerify(a, { requester: 'till-1' });
      expect(first).toMatchObject({ reason: 'OK', keyIndex: 0, driftSteps: 0 });
      expect(await verifier.barcodeVerify(a, { requester: 'till-1' })).toEqual({ ...first, repeated: true });
      expect((await verifier.barcodeVerify(a, { requester: 'till-2' })).reason).toBe('REPLAYED');
      const b = barcodeFor('4000555566667777');
      expect((await verifier.barcodeVerify(wrong(b))).reason).toBe('CODE_MISMATCH');
      expect((await verifier.barcodeVerify(wrong(b))).reason).toBe('CODE_MISMATCH');
      expect((await verifier.barcodeVerify(b)).reason).toBe('LOCKED');
    },
  );

  it('rejects with StoreError when the store fails', async () => {
    const { now: clock } = testClock();
    const verifier = createVerifier({
      ...BASE_CONFIG,
      backend,
      clock,
      replay: over(new MemoryStore({ clock }), true),
      lockout,
    });
    await expect(verifier.barcodeVerify(barcodeFor('4000888899990000'))).rejects.toBeInstanceOf(StoreError);
  });
});
