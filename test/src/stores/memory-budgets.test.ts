import { describe, expect, it } from 'vitest';
import { createVerifier, drawBarcode, MemoryStore } from '../../../src/entries/index.js';
import { StoreError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';

function barcodeFor(cardNumber: string, at = NOW): string {
  return drawBarcode({ ...BASE_CONFIG, key: PARTNER_KEY, cardNumber, cardSession: 'AB12CD34', at });
}

/** A barcode of a made-up card with a password that is (almost surely) wrong. */
function wrongBarcode(i: number): string {
  return `CM;9${String(i).padStart(9, '0')};AB12CD34;${String(i % 100_000_000).padStart(8, '0')}`;
}

describe('MemoryStore budgets', () => {
  describe('failure counters', () => {
    it('sheds the oldest counters past maxFailureCounters and keeps every replay mark', () => {
      const store = new MemoryStore({ maxReplayMarks: 10, maxFailureCounters: 1000, clock: testClock().now });
      expect(store.claim('replay:card:1', 60_000)).toBe(true);
      for (let i = 0; i < 2_000_000; i++) store.increment(`fail:${i}`, 60_000);
      expect(store.failureCounters).toBe(1000);
      expect(store.count('fail:0')).toBe(0);
      expect(store.count('fail:1999999')).toBe(1);
      expect(store.replayMarks).toBe(1);
      expect(store.claim('replay:card:1', 60_000)).toBe(false);
    });

    it('keeps a used barcode REPLAYED after 200,000 wrong barcodes of made-up cards through the verifier', () => {
      const time = testClock();
      const store = new MemoryStore({ maxReplayMarks: 100, maxFailureCounters: 1000, clock: time.now });
      const verifier = createVerifier({ ...BASE_CONFIG, clock: time.now, replay: store });
      const used = barcodeFor('4000123412341234');
      expect(verifier.barcodeVerify(used).reason).toBe('OK');
      // The attack: 200 times more counters than the budget, every one a new card.
      for (let i = 0; i < 200_000; i++) verifier.barcodeVerify(wrongBarcode(i));
      expect(store.failureCounters).toBeLessThanOrEqual(1000);
      expect(verifier.barcodeVerify(used)).toMatchObject({ resultCode: 'VALIDATION_FAILED', reason: 'REPLAYED' });
    }, 60_000);
  });

  describe('replay marks', () => {
    it(
      'refuses a new mark with STORE_UNAVAILABLE when the budget is full of live ' +
        'marks, and remembers the old ones',
      () => {
        const store = new MemoryStore({ maxReplayMarks: 3, clock: testClock().now });
        for (const key of ['a', 'b', 'c']) expect(store.claim(key, 60_000)).toBe(true);
        expect(() => store.claim('d', 60_000)).toThrow(StoreError);
        expect(() => store.claimFor('d', 60_000, 'till-1')).toThrow(
          expect.objectContaining({ code: 'STORE_UNAVAILABLE' }),
        );
        for (const key of ['a', 'b', 'c']) expect(store.claim(key, 60_000)).toBe(false);
        expect(store.replayMarks).toBe(3);
      },
    );

    it('re-claims an expired mark in place even when the budget is full', () => {
      const time = testClock(0);
      const store = new MemoryStore({ maxReplayMarks: 2, clock: time.now });
      store.claim('a', 100);
      store.claim('b', 60_000);
      time.set(200);
      expect(store.claim('a', 100)).toBe(true);
      expect(store.replayMarks).toBe(2);
    });

    it('frees room once marks expire', () => {
      const time = testClock(0);
      const store = new MemoryStore({ maxReplayMarks: 2, clock: time.now });
      store.claim('a', 1000);
      store.claim('b', 5000);
      expect(() => store.claim('c', 1000)).toThrow(StoreError);
      time.set(999);
      expect(() => store.claim('c', 1000)).toThrow(StoreError);
      time.set(1000); // 'a' expires
      expect(store.claim('c', 1000)).toBe(true);
      expect(store.claim('b', 1000)).toBe(false);
      expect(() => store.claim('d', 1000)).toThrow(StoreError);
      time.set(5000); // 'b' and 'c' expire
      expect(store.claim('d', 1000)).toBe(true);
      expect(store.claim('e', 1000)).toBe(true);
      expect(store.replayMarks).toBe(2);
    });

    it('answers STORE_UNAVAILABLE from the verifier when the budget is full, and accepts again after expiry', () => {
      const time = testClock();
      const store = new MemoryStore({ maxReplayMarks: 2, clock: time.now });
      const verifier = createVerifier({ ...BASE_CONFIG, clock: time.now, replay: store });
      expect(verifier.barcodeVerify(barcodeFor('1')).reason).toBe('OK');
      expect(verifier.barcodeVerify(barcodeFor('2')).reason).toBe('OK');
      const third = barcodeFor('3');
      expect(() => verifier.barcodeVerify(third)).toThrow(expect.objectContaining({ code: 'STORE_UNAVAILABLE' }));
      // Never forgotten while valid: the used barcodes stay REPLAYED, the full budget does not make them OK.
      expect(verifier.barcodeVerify(barcodeFor('1')).reason).toBe('REPLAYED');
      // Marks live while their password could still be valid: (window + 1) steps past its own, at most 90 s here.
      time.advance(90_000);
      const later = barcodeFor('3', time.now());
      expect(verifier.barcodeVerify(later).reason).toBe('OK');
    });
  });

  describe('options', () => {
    it('rejects budgets that are not positive integers, naming the option', () => {
      expect(() => new MemoryStore({ maxReplayMarks: 0 })).toThrow(/maxReplayMarks/);
      expect(() => new MemoryStore({ maxFailureCounters: 1.5 })).toThrow(/maxFailureCounters/);
    });

    it('takes the deprecated maxEntries as both budgets', () => {
      const store = new MemoryStore({ maxEntries: 1, clock: testClock().now });
      store.increment('f1', 1000);
      store.increment('f2', 1000);
      expect(store.failureCounters).toBe(1);
      store.claim('m1', 1000);
      expect(() => store.claim('m2', 1000)).toThrow(StoreError);
    });
  });
});
