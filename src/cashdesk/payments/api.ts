import type {
  PaymentBasket,
  PaymentView,
  RefundIntent,
  SessionUpdate,
  StartPayment,
} from '../../contracts/cashdesk-payments.js';
import type { UpdateListener } from './feed.js';

/**
 * What the transports (bridge, HTTP) call for a till's payments: the
 * payments service itself ({@link CashDeskPayments}), or the same service
 * run on a thread of its own (the server's default, so payment work never
 * delays a barcode verification). Every intent answers the payment's view
 * and refuses with an error `paymentRefusal` maps.
 */
export interface Payments {
  /** Carries on every open payment (after a restart); call once before use. */
  init(): Promise<void>;
  /** `pay.start`: verifies the scan or takes the card session, stores the payment, asks for the providers. */
  start(tillId: string, input: StartPayment): Promise<PaymentView>;
  /** `pay.checkout`. */
  checkout(tillId: string, paymentId: string): Promise<PaymentView>;
  /** `pay.get`: the payment as last stored (or as it runs). */
  get(tillId: string, paymentId: string): Promise<PaymentView>;
  /** `pay.changeBasket`. */
  changeBasket(tillId: string, paymentId: string, basket: PaymentBasket): Promise<PaymentView>;
  /** `pay.cancel`. */
  cancel(tillId: string, paymentId: string): Promise<PaymentView>;
  /** `pay.retry`. */
  retry(tillId: string, paymentId: string): Promise<PaymentView>;
  /** `pay.rescan`. */
  rescan(tillId: string, paymentId: string, fullBarcode: string): Promise<PaymentView>;
  /** `pay.refund`. */
  refund(tillId: string, paymentId: string, part: RefundIntent): Promise<PaymentView>;
  /** `pay.receipt`. */
  receipt(tillId: string, paymentId: string, receipt: Record<string, unknown>): Promise<PaymentView>;
  /** `pay.abandon`. */
  abandon(tillId: string, paymentId: string): Promise<PaymentView>;
  /** `pay.list`: the till's payments, most recent first. */
  list(tillId: string, phase?: string): Promise<PaymentView[]>;
  /**
   * A payment's events after `afterSeq` from its kept history, in order; when that history no longer reaches
   * back to `afterSeq` (or `afterSeq` is 0 or absent), its current state restated first.
   */
  events(tillId: string, paymentId: string, afterSeq?: number): Promise<SessionUpdate[]>;
  /** The till's updates, first the current state of each of its open payments; resolves with the unsubscribe. */
  subscribe(tillId: string, listener: UpdateListener): Promise<() => void>;
  /** The `POST /webhooks/pay` handler, or undefined without a webhook secret. */
  webhookHandler(): ((request: Request) => Promise<Response>) | undefined;
  /** Stops driving payments (their rows stay, for the next start). */
  close(): Promise<void>;
}
