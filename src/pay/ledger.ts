import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { TransactionAnswer } from '../contracts/pay/answers.js';
import { KIT_DIALECT, type PayDialect, statusMayFollow } from '../contracts/pay/dialect.js';
import type { TransactionStatus } from '../contracts/pay/statuses.js';
import { RefundBook } from './refund-book.js';

/** Statuses that are a result for the desk (cancelled too, though the bank may still answer it). */
export const RESULT_STATUSES: ReadonlySet<TransactionStatus> = new Set([
  'succeeded',
  'rejected',
  'cancelled',
  'expired',
]);

type Waiter = { resolve(state: TransactionAnswer): void; reject(error: unknown): void };

/**
 * What a payment session knows of its transactions: the last state of each
 * (stale and repeated states refused), the ones it left behind (cancelled or
 * replaced: a success there is a late result), their refunds, and the
 * desk's pending `waitForResult` calls.
 */
export class TransactionLedger {
  /** The refunds of the session's transactions. */
  readonly refunds = new RefundBook();
  // Keyed by the id's text: the same transaction may be named by a number (as the service wrote it) or its text.
  readonly #states = new Map<string, TransactionAnswer>();
  readonly #left = new Map<string, TransactionRef>();
  #waiters: Waiter[] = [];
  readonly #dialect: PayDialect;

  /** `dialect`: the service's words, which tell a stale state from a new one. */
  constructor(dialect: PayDialect = KIT_DIALECT) {
    this.#dialect = dialect;
  }

  /** The last known state of a transaction. */
  get(transactionId: TransactionRef): TransactionAnswer | undefined {
    return this.#states.get(String(transactionId));
  }

  /** Records a state; false when it is stale or says nothing new. */
  record(state: TransactionAnswer): boolean {
    const known = this.#states.get(String(state.transactionId));
    const stale =
      known &&
      (known.status === state.status
        ? known.refundedAmount === state.refundedAmount
        : !statusMayFollow(this.#dialect, known.status, state.status));
    if (stale) {
      return false;
    }
    this.#states.set(String(state.transactionId), state);
    return true;
  }

  /** Notes a refund's new total without waiting for the next state. */
  refunded(transactionId: TransactionRef, refundedAmount: number): void {
    const known = this.#states.get(String(transactionId));
    if (known) this.#states.set(String(transactionId), { ...known, refundedAmount });
  }

  /** Marks (or unmarks) a transaction as left behind by the session. */
  leave(transactionId: TransactionRef, left = true): void {
    if (left) this.#left.set(String(transactionId), transactionId);
    else this.#left.delete(String(transactionId));
  }

  /** Every transaction left behind, oldest first. */
  leftBehind(): TransactionRef[] {
    return [...this.#left.values()];
  }

  /** Whether the session left the transaction behind. */
  isLeft(transactionId: TransactionRef): boolean {
    return this.#left.has(String(transactionId));
  }

  /** A promise for the next result handed to {@link settle}; rejected by {@link fail} or the signal. */
  wait(signal?: AbortSignal): Promise<TransactionAnswer> {
    return new Promise<TransactionAnswer>((resolve, reject) => {
      signal?.throwIfAborted();
      const waiter: Waiter = { resolve, reject };
      this.#waiters.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Resolves every pending wait with a result. */
  settle(state: TransactionAnswer): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w.resolve(state);
  }

  /** Rejects every pending wait. */
  fail(error: unknown): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w.reject(error);
  }
}
