import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import type { StoredEvent } from '../../../../src/cashdesk/payments/rows.js';
import type { PaymentStore } from '../../../../src/cashdesk/payments/store.js';
import { TillFeedRelay } from '../../../../src/cashdesk/payments/till-relay.js';
import { databaseUnavailable } from '../../../../src/db/unavailable.js';

const key = { tillId: 'till-1', paymentId: 'p1' };
const paid: StoredEvent = { ...key, seq: 3, update: { paymentId: 'p1', phase: 'succeeded' } };

/** A store whose event reads fail while `failing` is above 0 (one failure each), as a database that stumbles. */
function stumblingStore() {
  const store = {
    failing: 0,
    openOf: async () => [],
    openSeqsOf: async () => {
      if (store.failing > 0) {
        store.failing--;
        throw databaseUnavailable('connection reset');
      }
      return [{ ...key, seq: paid.seq }];
    },
    eventsOf: async (): Promise<StoredEvent[]> => {
      if (store.failing > 0) {
        store.failing--;
        throw databaseUnavailable('connection reset');
      }
      return [paid];
    },
    eventsOfTill: async (): Promise<StoredEvent[]> => {
      if (store.failing > 0) {
        store.failing--;
        throw databaseUnavailable('connection reset');
      }
      return [paid];
    },
  };
  return store;
}

/** Settles once the relay's reads under way (promise callbacks only, no timers) are done. */
const reads = () => new Promise((resolve) => setImmediate(resolve));

describe('TillFeedRelay', () => {
  const relayOn = (store: ReturnType<typeof stumblingStore>) =>
    new TillFeedRelay({ store: store as unknown as PaymentStore, onError: () => {} });

  it('reads a hinted payment result again when its first read failed, though no other hint comes', async () => {
    const store = stumblingStore();
    const relay = relayOn(store);
    const told: SessionUpdate[] = [];
    await relay.subscribe('till-1', (u) => told.push(u), false);
    store.failing = 1;
    relay.hinted(key, 3);
    await reads();
    expect(told).toEqual([]);
    relay.retry();
    await reads();
    expect(told).toEqual([{ ...paid.update, seq: 3 }]);
  });

  it('reads what was written while the channel was down again when that read failed', async () => {
    const store = stumblingStore();
    const relay = relayOn(store);
    const told: SessionUpdate[] = [];
    await relay.subscribe('till-1', (u) => told.push(u), false);
    relay.down();
    store.failing = 1;
    relay.resync();
    await reads();
    expect(told).toEqual([]);
    relay.retry();
    await reads();
    expect(told).toEqual([{ ...paid.update, seq: 3 }]);
  });

  it('tells a hinted event once, however often the retry runs', async () => {
    const store = stumblingStore();
    const relay = relayOn(store);
    const told: SessionUpdate[] = [];
    await relay.subscribe('till-1', (u) => told.push(u), false);
    relay.hinted(key, 3);
    await reads();
    relay.retry();
    relay.retry();
    await reads();
    expect(told).toHaveLength(1);
  });

  it('tells a payment result whose hint never came at the next sweep', async () => {
    const store = stumblingStore();
    const relay = relayOn(store);
    const told: SessionUpdate[] = [];
    await relay.subscribe('till-1', (u) => told.push(u), false);
    // The writer committed the result and died (or lost its lease) before its NOTIFY: no hint, no channel loss.
    await reads();
    expect(told).toEqual([]);
    relay.sweep();
    await reads();
    expect(told).toEqual([{ ...paid.update, seq: 3 }]);
    relay.sweep();
    await reads();
    expect(told).toHaveLength(1);
  });

  it('sweeps again after a sweep whose read failed', async () => {
    const store = stumblingStore();
    const relay = relayOn(store);
    const told: SessionUpdate[] = [];
    await relay.subscribe('till-1', (u) => told.push(u), false);
    store.failing = 1;
    relay.sweep();
    await reads();
    expect(told).toEqual([]);
    relay.sweep();
    await reads();
    expect(told).toEqual([{ ...paid.update, seq: 3 }]);
  });
});
