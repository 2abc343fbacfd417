import { describe, expect, it } from 'vitest';
import { statusClass, type TransactionState, type TransactionStatus } from '../../../src/contracts/pay/index.js';
import { KIT_DIALECT, statusMayFollow } from '../../../src/contracts/pay/dialect.js';
import { TransactionLedger } from '../../../src/pay/ledger.js';

const reachable = (from: string, to: string) => statusMayFollow(KIT_DIALECT, from, to);

const state = (status: TransactionStatus, refundedAmount = 0): TransactionState => ({
  transactionId: 'trx-1',
  requestId: 'req-1',
  status,
  statusClass: statusClass(status),
  totalAmount: 100,
  refundedAmount,
  updatedAt: '2026-11-23T10:00:00Z',
});

describe("statusMayFollow in the kit's words", () => {
  it('follows several moves and refuses going back', () => {
    expect(reachable('created', 'succeeded')).toBe(true); // through processing
    expect(reachable('created', 'processing')).toBe(true);
    expect(reachable('cancelled', 'succeeded')).toBe(true); // the bank's late answer
    expect(reachable('processing', 'created')).toBe(false);
    expect(reachable('succeeded', 'cancelled')).toBe(false);
    expect(reachable('expired', 'succeeded')).toBe(false);
  });
});

describe('TransactionLedger', () => {
  it('records new states, refuses stale and repeated ones, and takes a refund change', () => {
    const ledger = new TransactionLedger();
    expect(ledger.record(state('created'))).toBe(true);
    expect(ledger.record(state('created'))).toBe(false);
    expect(ledger.record(state('succeeded'))).toBe(true);
    expect(ledger.record(state('processing'))).toBe(false);
    expect(ledger.record(state('succeeded', 40))).toBe(true);
    expect(ledger.get('trx-1')).toMatchObject({ status: 'succeeded', refundedAmount: 40 });
  });

  it('settles and fails waits, and drops an aborted one', async () => {
    const ledger = new TransactionLedger();
    const first = ledger.wait();
    const controller = new AbortController();
    const aborted = ledger.wait(controller.signal);
    controller.abort(new Error('desk closed'));
    await expect(aborted).rejects.toThrow('desk closed');
    ledger.settle(state('succeeded'));
    expect(await first).toMatchObject({ status: 'succeeded' });
    const later = ledger.wait();
    ledger.fail(new Error('over'));
    await expect(later).rejects.toThrow('over');
  });
});
