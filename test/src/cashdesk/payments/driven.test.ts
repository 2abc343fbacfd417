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

  it('gives up at its next lease renewal a payment at rest that nothing offered to be given up', async () => {
    const released: Array<{ paymentId: string; epoch: number; active: boolean | undefined }> = [];
    const leases = {
      ttlMs: 1_000,
      renew: async () => [{ tillId: 'till-1', paymentId: 'p1', epoch: 1, wanted: false }],
      release: async (key: { paymentId: string }, epoch: number, active?: boolean) => {
        released.push({ paymentId: key.paymentId, epoch, active });
        return true;
      },
    } as unknown as Leases;
    const driven = new DrivenPayments({
      store: {} as PaymentStore,
      leases,
      updates: {} as TransactionUpdates,
      restore: () => {
        throw new Error('nothing is claimed here');
      },
      hint: () => {},
      handoffTimeoutMs: 1_000,
      alone: false,
      onError: () => {},
    });
    // At rest (nothing runs, all is written, no call or result to come), held since before the renewal.
    const payment = {
      tillId: 'till-1',
      paymentId: 'p1',
      epoch: 1,
      busy: false,
      needsDriver: false,
      open: true,
      closed: false,
      close() {
        this.closed = true;
      },
    };
    driven.add(payment as unknown as TillPayment);
    await driven.renew();
    expect(driven.size).toBe(0);
    expect(payment.closed).toBe(true);
    expect(released).toEqual([{ paymentId: 'p1', epoch: 1, active: false }]);
  });
});
