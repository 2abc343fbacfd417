import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { RefundAnswer } from '../contracts/pay/answers.js';
import type { RefundRecord, RefundState } from './session-types.js';

// The document names no refund field, so its status words are not in the dialect's status map: a service's refund
// answer is read by these common words (any case). Any other word, or none, is a refund done.
const PENDING = new Set(['pending', 'processing', 'created', 'new', 'in_progress', 'accepted']);
const FAILED = new Set(['failed', 'rejected', 'declined', 'cancelled', 'canceled', 'error']);

/** Where a /refund answer says the refund stands. */
export function refundStateOf(answer: RefundAnswer): RefundState {
  const word = answer.status?.toLowerCase();
  if (word !== undefined && FAILED.has(word)) return 'failed';
  if (word !== undefined && PENDING.has(word)) return 'pending';
  return 'succeeded';
}

/** Whether a repeat of a refund asks the same thing (the same refundId for another refund is refused). */
export function sameRefund(
  record: RefundRecord,
  transactionId: TransactionRef,
  part: Pick<RefundRecord, 'amount' | 'items'>,
): boolean {
  const items = (r: Pick<RefundRecord, 'items'>) => JSON.stringify(r.items ?? null);
  return (
    String(record.transactionId) === String(transactionId) &&
    record.amount === part.amount &&
    items(record) === items(part)
  );
}

/**
 * The refunds of one payment session by refundId, in the order they were
 * answered, and which pending ones are being followed. Closing it stops the
 * following (the session was closed).
 */
export class RefundBook {
  readonly #refunds = new Map<string, RefundRecord>();
  readonly #following = new Set<string>();
  readonly #stop = new AbortController();

  /** Aborted when the session is closed. */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** The refund answered under this refundId. */
  get(refundId: string): RefundRecord | undefined {
    return this.#refunds.get(refundId);
  }

  /** Keeps (or updates) a refund's record. */
  set(record: RefundRecord): void {
    this.#refunds.set(record.refundId, record);
  }

  /** Every refund, oldest first. */
  all(): RefundRecord[] {
    return [...this.#refunds.values()];
  }

  /** Whether any refund was given back (the card session is then closed). */
  anySucceeded(): boolean {
    return this.all().some((r) => r.state === 'succeeded');
  }

  /** Marks a refund as followed; false when it already is (or the book is closed). */
  follow(refundId: string): boolean {
    if (this.#following.has(refundId) || this.#stop.signal.aborted) return false;
    this.#following.add(refundId);
    return true;
  }

  /** The refund is no longer followed. */
  unfollow(refundId: string): void {
    this.#following.delete(refundId);
  }

  /** Whether a pending refund is followed: its outcome is still to come. */
  get following(): boolean {
    return this.#following.size > 0;
  }

  /** Stops following. */
  close(): void {
    this.#stop.abort();
    this.#following.clear();
  }
}
