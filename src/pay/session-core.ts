import { randomUUID } from 'node:crypto';
import type { TransactionAnswer as TransactionState } from '../contracts/pay/answers.js';
import { KIT_DIALECT, type PayDialect } from '../contracts/pay/dialect.js';
import { TRANSITIONS } from '../contracts/pay/statuses.js';
import type { RetryPolicy } from '../net/backoff.js';
import { realSleep } from '../time/sleep.js';
import { PayError, PaymentSessionError } from './errors.js';
import type { PaymentPhase, PaymentSessionOptions, RescanReason } from './session-types.js';
import { TransactionLedger } from './ledger.js';
import { checkSessionOptions } from './session-options.js';
import { SessionState } from './session-state.js';
import { TransactionWatcher } from './watcher.js';

/**
 * A payment session's state (see {@link SessionState}) with what every
 * operation shares beside it: the options, the client's dialect, the ledger
 * of transactions and refunds, the watcher, and the moves on observed states,
 * refusals and rescans. Internal: {@link PaymentSession} is the public face;
 * the operations live in the session-* files by concept and work on this.
 */
export class SessionCore extends SessionState {
  readonly o: Required<
    Pick<PaymentSessionOptions, 'client' | 'rescan' | 'availability' | 'maxRescans' | 'newId' | 'sleep' | 'random'>
  > &
    PaymentSessionOptions;
  readonly recovery: RetryPolicy;
  readonly watcher: TransactionWatcher;
  readonly ledger: TransactionLedger;
  /** The service's words: the client's dialect. */
  readonly dialect: PayDialect;
  readonly clock: () => number;
  /** How long the current transaction may show nothing but status words the dialect does not know. */
  readonly unknownStatusTimeoutMs: number;
  /** Unknown words already told, per transaction: the desk hears each once, not at every poll. */
  readonly #toldWords = new Set<string>();

  constructor(options: PaymentSessionOptions) {
    checkSessionOptions(options);
    const o = {
      availability: 'task',
      maxRescans: 1,
      newId: randomUUID,
      sleep: realSleep,
      random: Math.random,
      ...options,
    };
    super({ cardSession: options.cardSession, basket: options.basket, newId: o.newId, onEvent: options.onEvent });
    this.o = o as SessionCore['o'];
    this.recovery = {
      max: options.recovery?.rounds ?? 3,
      baseMs: options.recovery?.baseMs ?? 500,
      maxMs: options.recovery?.maxMs ?? 5_000,
    };
    // A hand-made client (a test's stub) may have no dialect: it speaks the kit's words.
    this.dialect = options.client.dialect ?? KIT_DIALECT;
    this.ledger = new TransactionLedger(this.dialect);
    this.clock = options.clock ?? Date.now;
    this.unknownStatusTimeoutMs = options.unknownStatusTimeoutMs ?? 600_000;
    this.watcher = new TransactionWatcher({
      client: options.client,
      updates: options.updates,
      pollIntervalMs: options.pollIntervalMs ?? (options.updates ? 10_000 : 2_000),
      sleep: this.o.sleep,
      onState: (state) => this.observe(state),
    });
  }

  /** The current transaction's last known state, once there is one. */
  get transaction(): TransactionState | undefined {
    return this.current && this.ledger.get(this.current.transactionId);
  }
  /** Asks the till for a new card session; `onFailure` is the phase to go back to when it gives none. */
  async rescan(reason: RescanReason, onFailure: PaymentPhase): Promise<void> {
    this.setPhase('rescanning');
    this.emit({ type: 'rescanNeeded', reason });
    try {
      this.setCardSession(await this.o.rescan(reason));
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
    const fresh = this.ledger.record(state);
    const id = state.transactionId;
    const current = this.current?.transactionId === id;
    const cls = state.statusClass;
    if (cls === undefined) {
      // A repeat counts too: it is time spent with nothing but words the dialect does not know.
      if (fresh) this.emit({ type: 'transaction', state });
      this.#notUnderstood(state, current);
      return;
    }
    if (!fresh) return;
    this.emit({ type: 'transaction', state });
    if (current) this.understood();
    if (this.#final(state)) this.watcher.unwatch(id);
    if (this.ledger.isLeft(id) || (current && this.phase === 'unsuccessful')) {
      if (cls === 'successful') {
        this.emit({ type: 'lateResult', state });
        if (current && this.phase === 'unsuccessful') this.setPhase('succeeded');
      }
      return;
    }
    if (!current) return;
    const unrecognized = this.phase === 'unknown' && this.unknownReason === 'UNRECOGNIZED_STATUS';
    if (cls === 'transit') {
      // A word it knows again: the payment is back in transit, polled at the usual pace.
      if (unrecognized) {
        this.watcher.pace(id, false);
        this.setPhase('pending');
      }
      return;
    }
    // Either phase leaves unknownReason behind.
    if (this.phase === 'pending' || unrecognized) {
      this.setPhase(cls === 'successful' ? 'succeeded' : 'unsuccessful');
    }
    this.ledger.settle(state);
  }

  /**
   * Whether no other state can follow. The kit's words by its transitions (a cancelled payment may still be
   * answered by the bank); another service's by class: after a success, or a failure of a transaction the session
   * did not cancel itself.
   */
  #final(state: TransactionState): boolean {
    const { dialect } = this;
    if (dialect.isKitStatus(state.status)) return TRANSITIONS[state.status].length === 0;
    return (
      state.statusClass === 'successful' ||
      (state.statusClass === 'unsuccessful' && !this.ledger.isLeft(state.transactionId))
    );
  }

  /**
   * A status the dialect does not know: told to the desk once per word and transaction, polled on as transit;
   * after `unknownStatusTimeoutMs` of nothing else the payment is `unknown` (UNRECOGNIZED_STATUS), polled with
   * backoff so that a later known status still resolves it.
   */
  #notUnderstood(state: TransactionState, current: boolean): void {
    const key = `${typeof state.transactionId}:${state.transactionId}:${state.status}`;
    if (!this.#toldWords.has(key)) {
      this.#toldWords.add(key);
      this.emit({ type: 'statusNotUnderstood', state });
    }
    if (!current) return;
    const now = this.clock();
    const since = this.notUnderstoodSince(now);
    if (this.phase === 'unknown' && this.unknownReason === 'UNRECOGNIZED_STATUS') {
      this.watcher.pace(state.transactionId, true);
    } else if (this.phase === 'pending' && now - since >= this.unknownStatusTimeoutMs) {
      this.watcher.pace(state.transactionId, true);
      this.setUnknown('UNRECOGNIZED_STATUS');
    }
  }
}
