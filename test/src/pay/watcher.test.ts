import { describe, expect, it } from 'vitest';
import { statusClass, type TransactionState, type TransactionStatus } from '../../../src/contracts/pay/index.js';
import type { PayClient } from '../../../src/pay/client.js';
import { createTransactionUpdates } from '../../../src/pay/updates.js';
import { TransactionWatcher } from '../../../src/pay/watcher.js';
import type { Sleep } from '../../../src/time/sleep.js';

const state = (status: TransactionStatus): TransactionState => ({
  transactionId: 'trx-1',
  requestId: 'req-1',
  status,
  statusClass: statusClass(status),
  totalAmount: 100,
  refundedAmount: 0,
  updatedAt: '2026-11-23T10:00:00Z',
});

// No poll ever fires: what the watcher sees comes from `updates` alone.
const neverPoll: Sleep = (_ms, signal) =>
  new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));

describe('TransactionWatcher', () => {
  it('stops watching when the last known state, handed over as it subscribes, ends the watch', () => {
    const updates = createTransactionUpdates();
    // A webhook (or another instance's hint) came before the session watched: `subscribe` replays it at once.
    updates.publish(state('succeeded'));
    const seen: string[] = [];
    const watcher: TransactionWatcher = new TransactionWatcher({
      client: {} as PayClient,
      updates,
      pollIntervalMs: 1_000,
      sleep: neverPoll,
      // As the session does: a final state unwatches its transaction.
      onState: (s) => {
        seen.push(s.status);
        if (s.status === 'succeeded') watcher.unwatch(s.transactionId);
      },
    });
    watcher.watch('trx-1');
    expect(seen).toEqual(['succeeded']);
    expect(watcher.watching('trx-1')).toBe(false);
    watcher.close();
  });
});
