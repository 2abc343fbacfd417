// Making the payments service's till payments: new ones for `pay.start`, and ones restored from their rows.
import type { TransactionUpdates } from '../../pay/updates.js';
import type { Coordination } from './coordination.js';
import type { DrivenPayments } from './driven.js';
import type { CashDeskPaymentsOptions } from './options.js';
import type { StoredPayment } from './rows.js';
import type { PaymentStore } from './store.js';
import type { TillPaymentInit } from './till-payment-deps.js';
import { TillPayment } from './till-payment.js';
import type { TillFeedRelay } from './till-relay.js';

/** The parts of the payments service each till payment is wired to. */
export interface TillPaymentParts {
  updates: TransactionUpdates;
  clock: () => number;
  store: PaymentStore;
  tills: TillFeedRelay;
  coordination: Coordination;
  driven: DrivenPayments;
  onError(error: unknown, what: string): void;
}

/** Makes till payments wired to one payments service: its options, store, till feed and drivers. */
export class TillPaymentFactory {
  readonly #options: CashDeskPaymentsOptions;
  readonly #parts: TillPaymentParts;

  constructor(options: CashDeskPaymentsOptions, parts: TillPaymentParts) {
    this.#options = options;
    this.#parts = parts;
  }

  /** The till payment a stored row holds, at the row's epoch and seq. */
  restore({ record, epoch, seq }: StoredPayment): TillPayment {
    return this.create({
      tillId: record.tillId,
      paymentId: record.paymentId,
      ...(record.cardNumber === undefined ? {} : { cardNumber: record.cardNumber }),
      receiptSent: record.receiptSent,
      receipt: {
        ...(record.view.receiptId === undefined ? {} : { receiptId: record.view.receiptId }),
        ...(record.view.receiptStatus === undefined ? {} : { receiptStatus: record.view.receiptStatus }),
      },
      createdAt: record.createdAt,
      cardSession: record.snapshot.cardSession,
      basket: record.snapshot.basket,
      restore: record.snapshot,
      epoch,
      seq,
    });
  }

  /** A till payment from `init`, wired to the service. */
  create(init: TillPaymentInit): TillPayment {
    const parts = this.#parts;
    return new TillPayment(
      {
        client: this.#options.client,
        updates: parts.updates,
        pollIntervalMs: this.#options.pollIntervalMs,
        clock: parts.clock,
        unknownStatusTimeoutMs: this.#options.unknownStatusTimeoutMs,
        newId: this.#options.newId,
        sleep: this.#options.sleep,
        writeBehind: this.#options.writeBehind === true,
        save: (write) => parts.store.save(write),
        publish: (tillId, update) => {
          parts.tills.deliver(tillId, update);
          parts.coordination.hint({ kind: 'events', tillId, paymentId: update.paymentId, seq: update.seq ?? 0 });
        },
        lost: (payment) => parts.driven.lost(payment),
        settled: (payment) => parts.driven.settled(payment),
        onError: (error, what) => parts.onError(error, what),
      },
      init,
    );
  }
}
