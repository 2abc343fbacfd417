import type { IntentName, IntentParams, IntentResult } from './intents.js';
import type { UpdateListener } from './feed.js';

/**
 * What the transports (bridge, HTTP) call for a till's payments: the
 * payments service itself ({@link CashDeskPayments}), or the same service
 * run on a thread of its own (the server's default, so payment work never
 * delays a barcode verification). Every intent refuses with an error
 * `paymentRefusal` maps.
 */
export interface Payments {
  /** Carries on every open payment (after a restart); call once before use. */
  init(): Promise<void>;
  /**
   * Runs a till's payment intent (see `PAYMENT_INTENTS`, intents.ts) with its params as its schema parsed them,
   * and answers its result.
   */
  intent<N extends IntentName>(name: N, tillId: string, params: IntentParams<N>): Promise<IntentResult<N>>;
  /** The till's updates, first the current state of each of its open payments; resolves with the unsubscribe. */
  subscribe(tillId: string, listener: UpdateListener): Promise<() => void>;
  /** The `POST /webhooks/pay` handler, or undefined without a webhook secret. */
  webhookHandler(): ((request: Request) => Promise<Response>) | undefined;
  /** Stops driving payments (their rows stay, for the next start). */
  close(): Promise<void>;
}
