import type { z } from '@hono/zod-openapi';
import {
  ChangeBasketParams,
  ListPayments,
  PaymentEventsParams,
  PaymentRef,
  type PaymentView,
  ReceiptParams,
  RefundParams,
  RescanParams,
  type SessionUpdate,
  StartPayment,
} from '../../src/contracts/cashdesk-payments.js';
import { PaymentsError } from '../../src/cashdesk/payments/errors.js';
import type { Payments } from '../../src/cashdesk/payments/api.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';

type Ref = z.infer<typeof PaymentRef>;

/**
 * The bridge's payment methods: params named as the README's section "Wallet
 * payments for tills" names them; each answers the payment's view.
 */
export interface PayBridgeMethods {
  /**
   * Verifies `fullBarcode` (or takes `cardSession`), stores the payment, asks for the providers; checks out when
   * walletPayIsDefault.
   */
  'pay.start': { params: z.infer<typeof StartPayment>; result: PaymentView };
  /** The operator checks out (walletPayIsDefault false, the customer agreed). */
  'pay.checkout': { params: Ref; result: PaymentView };
  /** The payment as it stands. */
  'pay.get': { params: Ref; result: PaymentView };
  /** The customer changed the basket. */
  'pay.changeBasket': { params: z.infer<typeof ChangeBasketParams>; result: PaymentView };
  /** The customer cancels (no result yet). */
  'pay.cancel': { params: Ref; result: PaymentView };
  /** An updated checkout after an unsuccessful result (or the same one after `unknown`). */
  'pay.retry': { params: Ref; result: PaymentView };
  /** The new scan a `rescanNeeded` asked for. */
  'pay.rescan': { params: z.infer<typeof RescanParams>; result: PaymentView };
  /** Refunds all, `amount` or `items`; idempotent by `refundId`. */
  'pay.refund': { params: z.infer<typeof RefundParams>; result: PaymentView };
  /** Forwards the fiscal receipt to the app. */
  'pay.receipt': { params: z.infer<typeof ReceiptParams>; result: PaymentView };
  /** Falls back to another payment method (an open invoice is cancelled). */
  'pay.abandon': { params: Ref; result: PaymentView };
  /** This till's payments, optionally in one phase. */
  'pay.list': { params: z.infer<typeof ListPayments>; result: { payments: PaymentView[] } };
  /**
   * A payment's events after `afterSeq` (the last a till got), from the last 100 kept; older: the current state,
   * restated. A till that reconnects is sent each open payment's state restated with its `seq`: past the last it
   * got, it asks for the events between.
   */
  'pay.events': { params: z.infer<typeof PaymentEventsParams>; result: { events: SessionUpdate[] } };
}

/** The payment methods' names, in the order the docs list them. */
export const PAY_METHOD_NAMES = [
  'pay.start',
  'pay.checkout',
  'pay.get',
  'pay.changeBasket',
  'pay.cancel',
  'pay.retry',
  'pay.rescan',
  'pay.refund',
  'pay.receipt',
  'pay.abandon',
  'pay.list',
  'pay.events',
] as const satisfies ReadonlyArray<keyof PayBridgeMethods>;

function payments(service: CashDeskService): Payments {
  if (service.payments === undefined)
    throw new PaymentsError('PAY_NOT_CONFIGURED', 'this server has no Pay API configured (pay.url)');
  return service.payments;
}

// Payment calls are rare beside verification: the schema alone checks them.
const never = (_params: unknown): _params is never => false;

/** Each payment method's schema and call, for the bridge's method table. */
export const PAY_METHODS = {
  'pay.start': {
    schema: StartPayment,
    accepts: never,
    run: (s: CashDeskService, p: PayBridgeMethods['pay.start']['params'], till: string) => payments(s).start(till, p),
  },
  'pay.checkout': {
    schema: PaymentRef,
    accepts: never,
    run: (s: CashDeskService, p: Ref, till: string) => payments(s).checkout(till, p.paymentId),
  },
  'pay.get': {
    schema: PaymentRef,
    accepts: never,
    run: (s: CashDeskService, p: Ref, till: string) => payments(s).get(till, p.paymentId),
  },
  'pay.changeBasket': {
    schema: ChangeBasketParams,
    accepts: never,
    run: (s: CashDeskService, p: PayBridgeMethods['pay.changeBasket']['params'], till: string) =>
      payments(s).changeBasket(till, p.paymentId, p.basket),
  },
  'pay.cancel': {
    schema: PaymentRef,
    accepts: never,
    run: (s: CashDeskService, p: Ref, till: string) => payments(s).cancel(till, p.paymentId),
  },
  'pay.retry': {
    schema: PaymentRef,
    accepts: never,
    run: (s: CashDeskService, p: Ref, till: string) => payments(s).retry(till, p.paymentId),
  },
  'pay.rescan': {
    schema: RescanParams,
    accepts: never,
    run: (s: CashDeskService, p: PayBridgeMethods['pay.rescan']['params'], till: string) =>
      payments(s).rescan(till, p.paymentId, p.fullBarcode),
  },
  'pay.refund': {
    schema: RefundParams,
    accepts: never,
    run: (s: CashDeskService, { paymentId, ...part }: PayBridgeMethods['pay.refund']['params'], till: string) =>
      payments(s).refund(till, paymentId, part),
  },
  'pay.receipt': {
    schema: ReceiptParams,
    accepts: never,
    run: (s: CashDeskService, p: PayBridgeMethods['pay.receipt']['params'], till: string) =>
      payments(s).receipt(till, p.paymentId, p.receipt),
  },
  'pay.abandon': {
    schema: PaymentRef,
    accepts: never,
    run: (s: CashDeskService, p: Ref, till: string) => payments(s).abandon(till, p.paymentId),
  },
  'pay.list': {
    schema: ListPayments,
    accepts: never,
    run: async (s: CashDeskService, p: PayBridgeMethods['pay.list']['params'], till: string) => ({
      payments: await payments(s).list(till, p.phase),
    }),
  },
  'pay.events': {
    schema: PaymentEventsParams,
    accepts: never,
    run: async (s: CashDeskService, p: PayBridgeMethods['pay.events']['params'], till: string) => ({
      events: await payments(s).events(till, p.paymentId, p.afterSeq),
    }),
  },
};
