import { describe, expect, it } from 'vitest';
import { ADOPT_BATCH, DrivenPayments } from '../../../../src/cashdesk/payments/driven.js';
import type { Leases } from '../../../../src/cashdesk/payments/leases.js';
import type { StoredPayment } from '../../../../src/cashdesk/payments/rows.js';
import type { PaymentStore } from '../../../../src/cashdesk/payments/store.js';
import type { TillPayment } from '../../../../src/cashdesk/payments/till-payment.js';
import type { TransactionUpdates } from '../../../../src/pay/updates.js';

/** An expired row as `claimExpired` answers it: only what adoption reads of it. */
const row = (paymentId: string): StoredPayment =>
  ({
    record: { tillId: 'till-1', paymentId, snapshot: { left: [] } },
    owner: 'here',
    epoch: 2,
    seq: 0,
  }) as unknown as StoredPayment;

describe('DrivenPayments', () => {
  it('hands over every payment it claimed when a later adoption batch fails, so none is held undriven', async () => {
    let batches = 0;
    const leases = {
      ttlMs: 1_000,
      endExpired: async () => [],
      claimExpired: async () => {
        batches++;
        if (batches > 1) throw new Error('the database went away');
        return Array.from({ length: ADOPT_BATCH }, (_, i) => row(`p${i}`));
      },
    } as unknown as Leases;
    const driven = new DrivenPayments({
      store: { statesOf: async () => [] } as unknown as PaymentStore,
      leases,
      updates: { publish: () => {} } as unknown as TransactionUpdates,
      restore: (stored) => ({ ...stored.record, epoch: stored.epoch, close: () => {} }) as unknown as TillPayment,
      hint: () => {},
      handoffTimeoutMs: 1_000,
      alone: false,
      onError: () => {},
    });
    const carried: TillPayment[] = [];
    await expect(driven.adopt((payment) => carried.push(payment))).rejects.toThrow('the database went away');
    expect(carried).toHaveLength(ADOPT_BATCH);
    expect(driven.size).toBe(ADOPT_BATCH);
  });
});
