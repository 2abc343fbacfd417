import type { Payments } from '../../src/cashdesk/payments/api.js';
import type { UpdateListener } from '../../src/cashdesk/payments/feed.js';
import type { IntentName, IntentParams, IntentResult } from '../../src/cashdesk/payments/intents.js';
import type { PaymentView } from '../../src/contracts/cashdesk-payments.js';
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
  async intent<N extends IntentName>(name: N, _tillId: string, params: IntentParams<N>): Promise<IntentResult<N>> {
    const { paymentId } = params as { paymentId?: string };
    if (name === 'list') return { payments: [await this.#answer(this.open)] } as IntentResult<N>;
    const view = await this.#answer(paymentId ?? 'p-new');
    if (name !== 'events') return view as IntentResult<N>;
    return { events: [{ paymentId: view.paymentId, phase: view.phase, restated: true }] } as IntentResult<N>;
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
