import type { Payments } from '../../src/cashdesk/payments/api.js';
import type { UpdateListener } from '../../src/cashdesk/payments/feed.js';
import type { SessionUpdate, PaymentView } from '../../src/contracts/cashdesk-payments.js';
import { databaseUnavailable } from '../../src/db/unavailable.js';

/** A payment view for a fake's answers. */
export function viewOf(paymentId: string): PaymentView {
  return {
    paymentId,
    phase: 'offered',
    walletPayIsDefault: false,
    providers: [],
    totalAmount: 100,
    receiptSent: false,
    updatedAt: new Date(0).toISOString(),
  };
}

/**
 * Payments whose database can be switched off: while `down`, every call and
 * subscription rejects with `DATABASE_UNAVAILABLE` (as the PostgreSQL layer's
 * queries do); while up, each intent answers a view, and a subscription tells
 * the till's open payment `open` first, as the real service does.
 */
export class SwitchablePayments implements Payments {
  down = true;
  /** Subscription attempts, failed ones included. */
  subscribeAttempts = 0;
  /** The payment a subscription tells first. */
  open = 'p-1';

  #answer(paymentId: string): Promise<PaymentView> {
    return this.down ? Promise.reject(databaseUnavailable('ECONNREFUSED')) : Promise.resolve(viewOf(paymentId));
  }

  async init(): Promise<void> {}
  start(_tillId: string, input: { paymentId?: string }) {
    return this.#answer(input.paymentId ?? 'p-new');
  }
  checkout(_t: string, id: string) {
    return this.#answer(id);
  }
  get(_t: string, id: string) {
    return this.#answer(id);
  }
  changeBasket(_t: string, id: string) {
    return this.#answer(id);
  }
  cancel(_t: string, id: string) {
    return this.#answer(id);
  }
  retry(_t: string, id: string) {
    return this.#answer(id);
  }
  rescan(_t: string, id: string) {
    return this.#answer(id);
  }
  refund(_t: string, id: string) {
    return this.#answer(id);
  }
  receipt(_t: string, id: string) {
    return this.#answer(id);
  }
  abandon(_t: string, id: string) {
    return this.#answer(id);
  }
  async list(): Promise<PaymentView[]> {
    return [await this.#answer(this.open)];
  }
  async events(_t: string, id: string): Promise<SessionUpdate[]> {
    const view = await this.#answer(id);
    return [{ paymentId: view.paymentId, phase: view.phase, restated: true }];
  }

  async subscribe(_tillId: string, listener: UpdateListener): Promise<() => void> {
    this.subscribeAttempts++;
    if (this.down) throw databaseUnavailable('ECONNREFUSED');
    listener({ paymentId: this.open, phase: 'offered' });
    return () => {};
  }

  webhookHandler(): (request: Request) => Promise<Response> {
    // As the payments thread relays it: the handler's own failure, not an answer.
    return async () => {
      if (this.down) throw databaseUnavailable('ECONNREFUSED');
      return new Response(null, { status: 204 });
    };
  }

  async close(): Promise<void> {}
}
