// The `POST /v1/payments/{paymentId}/{intent}` table: each intent's body schema, summary and call.
import type { ZodType } from 'zod';
import { BasketBody, ReceiptBody, RefundBody, RescanBody } from '../../src/contracts/cashdesk-payments.js';
import type { Payments } from '../../src/cashdesk/payments/api.js';

/** The intents a payment takes by `POST /v1/payments/{paymentId}/{intent}`. */
export type Intent = 'checkout' | 'basket' | 'cancel' | 'retry' | 'rescan' | 'refund' | 'receipt' | 'abandon';

/** One intent: its body schema (none: no body, or `{}`) and its call, given what that schema parsed. */
export interface IntentEntry {
  body?: ZodType;
  summary: string;
  // biome-ignore lint/suspicious/noExplicitAny: each entry's call takes what its own schema parsed; one table holds all
  run(p: Payments, till: string, id: string, body: any): Promise<unknown>;
}

/** Each `POST /v1/payments/{paymentId}/{intent}`. */
export const INTENTS: Record<Intent, IntentEntry> = {
  checkout: { summary: 'The operator checks out (the customer agreed)', run: (p, t, id) => p.checkout(t, id) },
  basket: {
    body: BasketBody,
    summary: 'The customer changed the basket',
    run: (p, t, id, b) => p.changeBasket(t, id, b.basket),
  },
  cancel: { summary: 'The customer cancels before the result', run: (p, t, id) => p.cancel(t, id) },
  retry: {
    summary: 'An updated checkout after an unsuccessful result (the same one after unknown)',
    run: (p, t, id) => p.retry(t, id),
  },
  rescan: {
    body: RescanBody,
    summary: 'The new scan a rescanNeeded asked for',
    run: (p, t, id, b) => p.rescan(t, id, b.fullBarcode),
  },
  refund: {
    body: RefundBody,
    summary: 'Refund all, an amount or items (idempotent by refundId)',
    run: (p, t, id, b) => p.refund(t, id, b),
  },
  receipt: {
    body: ReceiptBody,
    summary: 'Forward the fiscal receipt to the app',
    run: (p, t, id, b) => p.receipt(t, id, b.receipt),
  },
  abandon: { summary: 'Fall back to another payment method', run: (p, t, id) => p.abandon(t, id) },
};
