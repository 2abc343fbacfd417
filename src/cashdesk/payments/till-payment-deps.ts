import type { ReceiptMark } from './receipt-mark.js';
import type { SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { Sleep } from '../../time/sleep.js';
import type { PayClient } from '../../pay/client.js';
import type { Basket, PaymentSessionSnapshot } from '../../pay/session-types.js';
import type { TransactionUpdates } from '../../pay/updates.js';
import type { PaymentWrite } from './store.js';

/** What a till payment (`P`, the till payment's own type) needs from the payments service. */
export interface TillPaymentDeps<P> {
  client: PayClient;
  updates: TransactionUpdates | undefined;
  pollIntervalMs: number | undefined;
  /** See the session's `unknownStatusTimeoutMs` (its default when undefined). */
  unknownStatusTimeoutMs?: number | undefined;
  clock: () => number;
  newId: (() => string) | undefined;
  sleep: Sleep | undefined;
  /**
   * Writes the record and its new events durably under the payment's lease (calls come one at a time, in
   * order); false when the lease was lost: another instance drives the payment now.
   */
  save(write: PaymentWrite): Promise<boolean>;
  /**
   * Tells the till, here and through the other instances, once the state behind the update is written (at once
   * with `writeBehind`); an update told again (a write that failed, then succeeded) is dropped by its `seq`.
   */
  publish(tillId: string, update: SessionUpdate): void;
  /** The lease is gone (a write was refused): stop driving, tell nothing more. */
  lost(payment: P): void;
  /**
   * Whether writes go behind instead of first: the till is told, /checkout and
   * /refund go out and intents answer without waiting for the write. Only for
   * a database that dies with the process (PGlite in memory), where writing
   * first protects nothing; writes still happen, in order, for reads and lists.
   */
  writeBehind?: boolean;
  /** The payment may have come to rest: an intent ended, a write completed, or a watched transaction moved. */
  settled(payment: P): void;
  onError(error: unknown, what: string): void;
}

/** How a till payment begins: new, or from its stored record. */
export interface TillPaymentInit {
  tillId: string;
  paymentId: string;
  cardNumber?: string;
  receiptSent: boolean;
  /** The last receipt's id and where it stands; none before the first. */
  receipt?: ReceiptMark;
  createdAt: Date;
  cardSession: string;
  basket: Basket;
  restore?: PaymentSessionSnapshot;
  /** The lease's epoch this instance claimed the payment with (1 for a new payment). */
  epoch: number;
  /** The sequence number of the payment's last event (0 for a new payment). */
  seq: number;
}
