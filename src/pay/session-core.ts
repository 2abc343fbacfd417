import { randomUUID } from 'node:crypto';
import type { CheckoutAnswer as CheckoutResponse, TransactionAnswer as TransactionState } from '../contracts/pay/answers.js';
import { purchaseAmount } from '../contracts/pay/amounts.js';
import { TRANSITIONS } from '../contracts/pay/statuses.js';
import { realSleep, type RetryPolicy } from './backoff.js';
import { PayError, PaymentSessionError } from './errors.js';
import type {
  Basket, PaymentPhase, PaymentSessionEvent, PaymentSessionOptions, PaymentSessionSnapshot, Provider, RescanReason,
} from './session-types.js';
import { RESULT_STATUSES, TransactionLedger } from './ledger.js';
import { Listeners } from './listeners.js';
import { checkSessionOptions } from './session-options.js';
import { TransactionWatcher } from './watcher.js';

/** Phases after which no operation is allowed. */
export const OVER: ReadonlySet<PaymentPhase> = new Set(['unavailable', 'refunded', 'blocked', 'abandoned']);

/**
 * The state of one payment session and the moves every operation shares
 * (phase changes, events, observed states, refusals, rescans). Internal:
 * {@link PaymentSession} is the public face; the operations live in the
 * session-* files by concept and work on this.
 */
export class SessionCore {
  readonly o: Required<Pick<PaymentSessionOptions, 'client' | 'rescan' | 'availability' | 'maxRescans' | 'newId' | 'sleep' | 'random'>> & PaymentSessionOptions;
  readonly recovery: RetryPolicy;
  readonly watcher: TransactionWatcher;
  readonly events: Listeners<PaymentSessionEvent>;
  readonly ledger = new TransactionLedger();
  phase: PaymentPhase = 'new';
  busy = false;
  cardSession: string;
  basket: Basket;
  requestId: string;
  providerId: string | undefined;
  current: CheckoutResponse | undefined;
  refundId: string | undefined;
  providers: Provider[] = [];
  walletPayIsDefault = false;
  stage: PaymentSessionSnapshot['stage'] = 'availability';

  constructor(options: PaymentSessionOptions) {
    checkSessionOptions(options);
    this.o = {
      availability: 'task', maxRescans: 1, newId: randomUUID, sleep: realSleep, random: Math.random, ...options,
    };
    this.recovery = { max: options.recovery?.rounds ?? 3, baseMs: options.recovery?.baseMs ?? 500, maxMs: options.recovery?.maxMs ?? 5_000 };
    this.events = new Listeners(options.onEvent);
    this.cardSession = options.cardSession;
    this.basket = options.basket;
    this.requestId = this.o.newId();
    this.watcher = new TransactionWatcher({
      client: options.client,
      updates: options.updates,
      pollIntervalMs: options.pollIntervalMs ?? (options.updates ? 10_000 : 2_000),
      sleep: this.o.sleep,
      onState: (state) => this.observe(state),
    });
  }

  /** The current transaction's last known state, once there is one. */
  get transaction(): TransactionState | undefined { return this.current && this.ledger.get(this.current.transactionId); }
  /** totalAmount of the current basket, in kopecks. */
  get totalAmount(): number { return purchaseAmount(this.basket.items) - (this.basket.discountAmount ?? 0); }

  /** Runs one operation at a time, only in the phases that allow it. */
  async exclusive<T>(allowed: readonly PaymentPhase[], run: () => Promise<T>): Promise<T> {
    if (this.busy) throw new PaymentSessionError('SESSION_BUSY', `another operation is running (phase ${this.phase})`);
    // An operation may name an end phase (a refund or receipt after the refund, a late success's refund).
    if (!allowed.includes(this.phase)) {
      if (OVER.has(this.phase)) {
        throw new PaymentSessionError('SESSION_OVER', `the payment session is over (phase ${this.phase})`);
      }
      throw new PaymentSessionError('SESSION_STATE', `not allowed in phase ${this.phase} (allowed: ${allowed.join(', ')})`);
    }
    this.busy = true;
    try {
      return await run();
    } finally {
      this.busy = false;
    }
  }

  /** Asks the till for a new card session; `onFailure` is the phase to go back to when it gives none. */
  async rescan(reason: RescanReason, onFailure: PaymentPhase): Promise<void> {
    this.setPhase('rescanning');
    this.emit({ type: 'rescanNeeded', reason });
    try {
      this.cardSession = await this.o.rescan(reason);
    } catch (cause) {
      this.setPhase(onFailure);
      throw new PaymentSessionError('RESCAN_FAILED', 'the till gave no new card session', { cause });
    }
  }

  /** A refused call: a refused token ends the session (document section 7, first row); anything else goes back. */
  refused(error: unknown, back: PaymentPhase): void {
    if (error instanceof PayError && error.code === 'TOKEN_INVALID') {
      this.setPhase('blocked');
      this.emit({ type: 'cardRefused', error });
      this.watcher.close();
      this.ledger.fail(new PaymentSessionError('SESSION_OVER', 'the Pay API refused the token', { cause: error }));
      return;
    }
    this.setPhase(back);
  }

  /** Every state from a webhook, a poll or an answer: stale or repeated ones are dropped. */
  observe(state: TransactionState): void {
    if (!this.ledger.record(state)) return;
    this.emit({ type: 'transaction', state });
    const current = this.current?.transactionId === state.transactionId;
    // No move is left from succeeded, rejected or expired; a cancelled payment may still be answered by the bank.
    if (TRANSITIONS[state.status].length === 0) this.watcher.unwatch(state.transactionId);
    if (this.ledger.isLeft(state.transactionId) || (current && this.phase === 'unsuccessful')) {
      if (state.status === 'succeeded') {
        this.emit({ type: 'lateResult', state });
        if (current && this.phase === 'unsuccessful') this.setPhase('succeeded');
      }
      return;
    }
    if (!current || !RESULT_STATUSES.has(state.status)) return;
    if (this.phase === 'pending') this.setPhase(state.status === 'succeeded' ? 'succeeded' : 'unsuccessful');
    this.ledger.settle(state);
  }

  /** Moves to a phase (told as a `phase` event when it changes). */
  setPhase(to: PaymentPhase): void {
    const from = this.phase;
    if (from === to) return;
    this.phase = to;
    this.emit({ type: 'phase', from, to });
  }

  /** Tells the listeners. */
  emit(event: PaymentSessionEvent): void {
    this.events.emit(event);
  }
}
