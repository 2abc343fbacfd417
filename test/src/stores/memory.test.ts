import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/stores/memory.js';
import { testClock } from '../../support/clock.js';

describe('MemoryStore', () => {
  describe('claim', () => {
    it('returns true only for the call that records the key', () => {
      const store = new MemoryStore({ clock: testClock().now });
      expect(store.claim('a', 1000)).toBe(true);
      expect(store.claim('a', 1000)).toBe(false);
      expect(store.claim('a', 1000)).toBe(false);
      expect(store.claim('b', 1000)).toBe(true);
    });

    it('does not extend the life of a key it refuses to claim again', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      expect(store.claim('a', 1000)).toBe(true);
      time.set(900);
      expect(store.claim('a', 1000)).toBe(false);
      time.set(1000);
      expect(store.claim('a', 1000)).toBe(true);
    });

    it('lets the key be claimed again once its TTL has passed on the injected clock', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      expect(store.claim('a', 1000)).toBe(true);
      time.set(999);
      expect(store.claim('a', 1000)).toBe(false);
      time.set(1000);
      expect(store.claim('a', 1000)).toBe(true);
      expect(store.claim('a', 1000)).toBe(false);
    });
  });

  describe('increment', () => {
    it('counts from 1 and returns each new count', () => {
      const store = new MemoryStore({ clock: testClock().now });
      expect(store.increment('f', 1000)).toBe(1);
      expect(store.increment('f', 1000)).toBe(2);
      expect(store.increment('f', 1000)).toBe(3);
      expect(store.count('f')).toBe(3);
      expect(store.count('other')).toBe(0);
    });

    it('resets the TTL on every increment', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      expect(store.increment('f', 1000)).toBe(1);
      time.set(800);
      expect(store.increment('f', 1000)).toBe(2);
      time.set(1500); // past the first TTL, inside the second
      expect(store.count('f')).toBe(2);
      expect(store.increment('f', 1000)).toBe(3);
      time.set(2499);
      expect(store.count('f')).toBe(3);
      time.set(2500);
      expect(store.count('f')).toBe(0);
    });

    it('starts again from 1 after the counter expired', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      store.increment('f', 1000);
      store.increment('f', 1000);
      time.set(1000);
      expect(store.increment('f', 1000)).toBe(1);
    });
  });

  describe('count', () => {
    it('returns 0 for an absent key', () => {
      expect(new MemoryStore().count('nothing')).toBe(0);
    });

    it('returns 0 once the counter has expired', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      store.increment('f', 500);
      store.increment('f', 500);
      time.set(499);
      expect(store.count('f')).toBe(2);
      time.set(500);
      expect(store.count('f')).toBe(0);
      time.set(10_000);
      expect(store.count('f')).toBe(0);
    });
  });

  describe('delete', () => {
    it('forgets a claimed key so it can be claimed again', () => {
      const store = new MemoryStore({ clock: testClock().now });
      expect(store.claim('a', 1000)).toBe(true);
      store.delete('a');
      expect(store.claim('a', 1000)).toBe(true);
    });

    it('resets a counter to 0', () => {
      const store = new MemoryStore({ clock: testClock().now });
      store.increment('f', 1000);
      store.increment('f', 1000);
      store.delete('f');
      expect(store.count('f')).toBe(0);
      expect(store.increment('f', 1000)).toBe(1);
    });

    it('does nothing for an absent key', () => {
      const store = new MemoryStore({ clock: testClock().now });
      store.claim('a', 1000);
      expect(() => store.delete('absent')).not.toThrow();
      expect(store.size).toBe(1);
    });
  });

  describe('close', () => {
    it('drops every entry', () => {
      const store = new MemoryStore({ clock: testClock().now });
      store.claim('a', 1000);
      store.increment('f', 1000);
      store.close();
      expect(store.size).toBe(0);
      expect(store.count('f')).toBe(0);
    });
  });

  describe('bounds', () => {
    it(
      'keeps at most maxEntries failure counters, the newest still counted, after 1,000 increments with maxEntries ' +
        '100',
      () => {
        const store = new MemoryStore({ maxEntries: 100, clock: testClock().now });
        for (let i = 0; i < 1000; i++) {
          expect(store.increment(`k${i}`, 60_000)).toBe(1);
          expect(store.size).toBeLessThanOrEqual(100);
        }
        expect(store.size).toBeLessThanOrEqual(100);
        for (let i = 900; i < 1000; i++) expect(store.count(`k${i}`), `k${i}`).toBe(1);
        // The oldest went first.
        expect(store.count('k0')).toBe(0);
      },
    );

    it('evicts the least recently written key, not a recently re-written one', () => {
      const store = new MemoryStore({ maxEntries: 3, clock: testClock().now });
      store.increment('a', 60_000);
      store.increment('b', 60_000);
      store.increment('c', 60_000);
      store.increment('a', 60_000); // 'a' is now the newest write
      store.increment('d', 60_000); // evicts 'b'
      expect(store.size).toBe(3);
      expect(store.count('a')).toBe(2);
      expect(store.count('b')).toBe(0);
      expect(store.count('c')).toBe(1);
      expect(store.count('d')).toBe(1);
    });

    it('sweeps expired entries when writes of new keys continue past their expiry', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      for (let i = 0; i < 2000; i++) store.claim(`old${i}`, 100);
      expect(store.size).toBe(2000);
      time.set(1000); // every "old" entry has now expired
      for (let i = 0; i < 20_000; i++) store.claim(`new${i}`, 60_000);
      // Ten times more writes than there were entries: an amortised sweep must have run by now.
      expect(store.size).toBe(20_000);
      expect(store.claim('new0', 60_000)).toBe(false);
      expect(store.claim('new19999', 60_000)).toBe(false);
    });

    it('sweeps expired entries when the same live keys keep being re-written', () => {
      const time = testClock(0);
      const store = new MemoryStore({ clock: time.now });
      for (let i = 0; i < 2000; i++) store.claim(`old${i}`, 100);
      time.set(1000);
      for (let round = 0; round < 40; round++) {
        for (let i = 0; i < 100; i++) store.increment(`hot${i}`, 60_000);
      }
      expect(store.size).toBe(100);
      expect(store.count('hot0')).toBe(40);
    });
  });

  describe('constructor', () => {
    it('rejects maxEntries 0', () => {
      expect(() => new MemoryStore({ maxEntries: 0 })).toThrow(RangeError);
    });

    it('rejects maxEntries 1.5', () => {
      expect(() => new MemoryStore({ maxEntries: 1.5 })).toThrow(RangeError);
    });

    it('rejects negative, NaN and infinite maxEntries', () => {
      for (const maxEntries of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => new MemoryStore({ maxEntries }), String(maxEntries)).toThrow(/maxEntries/);
      }
    });

    it('accepts maxEntries 1 and keeps only the newest key', () => {
      const store = new MemoryStore({ maxEntries: 1, clock: testClock().now });
      store.increment('a', 1000);
      store.increment('b', 1000);
      expect(store.size).toBe(1);
      expect(store.count('b')).toBe(1);
      expect(store.count('a')).toBe(0);
    });

    it('reads time from Date.now when no clock is given', () => {
      const store = new MemoryStore();
      expect(store.claim('a', 60_000)).toBe(true);
      expect(store.claim('a', 60_000)).toBe(false);
    });
  });
});
