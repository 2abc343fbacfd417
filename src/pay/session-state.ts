import type { CheckoutAnswer as CheckoutResponse } from '../contracts/pay/answers.js';
import { purchaseAmount } from '../contracts/pay/amounts.js';
import { PaymentSessionError } from './errors.js';
import { Listeners } from './listeners.js';
import type {
  Basket,
  PaymentPhase,
  PaymentSessionEvent,
  PaymentSessionSnapshot,
  Provider,
  UnknownReason,
} from './session-types.js';

/** Phases after which no operation is allowed. */
export const OVER: ReadonlySet<PaymentPhase> = new Set(['unavailable', 'refunded', 'blocked', 'abandoned']);

/** What a session's state starts from. */
export interface SessionStateInit {
  cardSession: string;
  basket: Basket;
  /** Makes each requestId and refundId. */
  newId: () => string;
  /** Every event, before the listeners of its type. */
  onEvent?: (event: PaymentSessionEvent) => void;
}

/**
 * Where one payment session stands, and the only moves that change it: the
 * phase (each change told as a `phase` event), the call under way, the card
 * session, basket, requestId, provider choice, current invoice and the
 * refundId of a refund without an answer yet. The operations (session-*
 * files) read it and move it by these methods; {@link SessionCore} adds what
 * they share beside it (the client, the ledger, the watcher).
 */
export class SessionState {
  readonly events: Listeners<PaymentSessionEvent>;
  readonly #newId: () => string;
  #phase: PaymentPhase = 'new';
  #unknownReason: UnknownReason | undefined;
  #unknownSince: number | undefined;
  #busy = false;
  #stage: PaymentSessionSnapshot['stage'] = 'availability';
  #cardSession: string;
  #basket: Basket;
  #requestId: string;
  #providerId: string | undefined;
  #providers: Provider[] = [];
  #walletPayIsDefault = false;
  #current: CheckoutResponse | undefined;
  #refundId: string | undefined;

  constructor(init: SessionStateInit) {
    this.events = new Listeners(init.onEvent);
    this.#newId = init.newId;
    this.#cardSession = init.cardSession;
    this.#basket = init.basket;
    this.#requestId = init.newId();
  }

  get phase(): PaymentPhase {
    return this.#phase;
  }
  /** Why the phase is `unknown`: no answer to /checkout, or a status the dialect does not know for too long. */
  get unknownReason(): UnknownReason | undefined {
    return this.#unknownReason;
  }
  /** Which call the phase belongs to: the provider list or a checkout. */
  get stage(): PaymentSessionSnapshot['stage'] {
    return this.#stage;
  }
  get cardSession(): string {
    return this.#cardSession;
  }
  get basket(): Basket {
    return this.#basket;
  }
  /** The requestId of the current (or next) call: the provider list's task, or the checkout. */
  get requestId(): string {
    return this.#requestId;
  }
  get providerId(): string | undefined {
    return this.#providerId;
  }
  get providers(): Provider[] {
    return this.#providers;
  }
  get walletPayIsDefault(): boolean {
    return this.#walletPayIsDefault;
  }
  /** The current invoice as /checkout answered it. */
  get current(): CheckoutResponse | undefined {
    return this.#current;
  }
  /** The refundId of a refund sent without an answer yet: a repeat reuses it. */
  get refundId(): string | undefined {
    return this.#refundId;
  }
  /** totalAmount of the current basket, in kopecks. */
  get totalAmount(): number {
    return purchaseAmount(this.#basket.items) - (this.#basket.discountAmount ?? 0);
  }
  /** Whether the current transaction's result is still awaited (pending, or unknown for an unrecognized status). */
  get awaitingResult(): boolean {
    return this.#phase === 'pending' || (this.#phase === 'unknown' && this.#unknownReason === 'UNRECOGNIZED_STATUS');
  }

  /** Runs one operation at a time, only in the phases that allow it. */
  async exclusive<T>(allowed: readonly PaymentPhase[], run: () => Promise<T>): Promise<T> {
    if (this.#busy) throw new PaymentSessionError('SESSION_BUSY', `another operation is running (phase ${this.phase})`);
    // An operation may name an end phase (a refund or receipt after the refund, a late success's refund).
    if (!allowed.includes(this.#phase)) {
      if (OVER.has(this.#phase)) {
        throw new PaymentSessionError('SESSION_OVER', `the payment session is over (phase ${this.#phase})`);
      }
      throw new PaymentSessionError(
        'SESSION_STATE',
        `not allowed in phase ${this.#phase} (allowed: ${allowed.join(', ')})`,
      );
    }
    this.#busy = true;
    try {
      return await run();
    } finally {
      this.#busy = false;
    }
  }

  /** Moves to a phase (told as a `phase` event when it changes); any phase but `unknown` has no unknownReason. */
  setPhase(to: PaymentPhase): void {
    const from = this.#phase;
    if (from === to) return;
    if (to !== 'unknown') this.#unknownReason = undefined;
    this.#phase = to;
    this.emit({ type: 'phase', from, to });
  }

  /** Moves to `unknown` for `reason` (set first: the `phase` event's listeners read it). */
  setUnknown(reason: UnknownReason): void {
    this.#unknownReason = reason;
    this.setPhase('unknown');
  }

  /** Tells the listeners. */
  emit(event: PaymentSessionEvent): void {
    this.events.emit(event);
  }

  /** A new requestId, for a call that must never reuse the last one. */
  renewRequestId(): void {
    this.#requestId = this.#newId();
  }

  /** Asks for the providers (`checking`, stage `availability`). */
  beginAvailability(): void {
    this.#stage = 'availability';
    this.setPhase('checking');
  }

  /** The provider list's answer. */
  setProviders(providers: Provider[], walletPayIsDefault: boolean): void {
    this.#providers = providers;
    this.#walletPayIsDefault = walletPayIsDefault;
  }

  /** The provider the operator chose for the checkout (none: the service's choice). */
  chooseProvider(providerId: string | undefined): void {
    this.#providerId = providerId;
  }

  /** The customer's new basket. */
  setBasket(basket: Basket): void {
    this.#basket = basket;
  }

  /** The till's new card session (a rescan). */
  setCardSession(cardSession: string): void {
    this.#cardSession = cardSession;
  }

  /** Sends a checkout (`checkout`, stage `checkout`); `fresh`: under a new requestId. */
  beginCheckout(fresh: boolean): void {
    if (fresh) this.renewRequestId();
    this.#stage = 'checkout';
    this.setPhase('checkout');
  }

  /** /checkout answered: the invoice is the current one, awaiting payment (`pending`). */
  invoiced(current: CheckoutResponse): void {
    this.#current = current;
    this.setPhase('pending');
    this.emit({ type: 'invoice', checkout: current });
  }

  /** The refundId to send: `given`, else the one of a refund not yet answered, else a new one. */
  refundIdFor(given: string | undefined): string {
    if (given !== undefined) this.#refundId = given;
    this.#refundId ??= this.#newId();
    return this.#refundId;
  }

  /** The refund was answered (or refused for good): the next one gets a refundId of its own. */
  refundSettled(): void {
    this.#refundId = undefined;
  }

  /** Since when the current transaction has shown only status words the dialect does not know (`now`: the first). */
  notUnderstoodSince(now: number): number {
    this.#unknownSince ??= now;
    return this.#unknownSince;
  }

  /** The current transaction showed a status word the dialect knows. */
  understood(): void {
    this.#unknownSince = undefined;
  }

  /**
   * Comes back to a snapshot's state, no call in flight: one in `checking` (or rescanning for it) starts over
   * (`new`, asked again with the stored requestId: a task registered before the restart is answered from the
   * service's record, not registered twice); one in `checkout` (or rescanning for it) is `unknown`. No `phase`
   * event: nothing changed since the snapshot.
   */
  restoreState(snap: PaymentSessionSnapshot): void {
    this.#cardSession = snap.cardSession;
    this.#basket = snap.basket;
    this.#requestId = snap.requestId;
    this.#providerId = snap.providerId;
    this.#providers = snap.providers;
    this.#walletPayIsDefault = snap.walletPayIsDefault;
    this.#refundId = snap.refundId;
    this.#stage = snap.stage;
    if (snap.transaction) {
      const { transactionId, requestId, status } = snap.transaction;
      this.#current = { transactionId, requestId: requestId ?? snap.requestId, status };
    }
    let phase = snap.phase;
    if (phase === 'checking' || (phase === 'rescanning' && snap.stage === 'availability')) {
      phase = 'new';
    } else if (phase === 'checkout' || phase === 'rescanning') {
      phase = 'unknown';
    }
    this.#phase = phase;
    if (phase === 'unknown') this.#unknownReason = snap.unknownReason ?? 'OUTCOME_UNKNOWN';
  }
}
