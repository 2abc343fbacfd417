import { createRoute } from '@hono/zod-openapi';
import { webhookSecurity } from './webhook-security.js';
import {
  AvailabilityRequest,
  AvailabilityResponse,
  AvailabilityTaskRequest,
  AvailabilityTaskResponse,
  CancelRequest,
  CheckoutRequest,
  CheckoutResponse,
  ReceiptRequest,
  ReceiptResponse,
  RefundRequest,
  RefundResponse,
  StatusRequest,
  TransactionState,
  TransactionUpdatedEvent,
} from '../contracts/pay/bodies.js';
import { PayErrorEnvelope, TOKEN_HEADER } from '../contracts/pay/errors.js';

/** Paths of the Pay API (the interface document, section 4.2, and the kit's /cancel and /receipt). */
export const PAY_PATHS = {
  availability: '/availability-info',
  availabilityTask: '/availability-info/task',
  checkout: '/checkout',
  status: '/status',
  cancel: '/cancel',
  refund: '/refund',
  receipt: '/receipt',
} as const;

/** The security scheme's name in the OpenAPI document. */
export const PAY_SECURITY_SCHEME = 'walletToken';

/** How the `X-Wallet-Token` scheme is described in the document. */
export const PAY_SECURITY_SCHEME_OBJECT = {
  type: 'apiKey' as const,
  in: 'header' as const,
  name: TOKEN_HEADER,
  description:
    'getToken(exact body text): a JWS HS256 with a detached unencoded payload (RFC 7515, RFC 7797), ' +
    'checked over the raw body bytes, |now - iat| <= 300 s, jti used once (the README, "Pay API tokens").',
};

const signed = [{ [PAY_SECURITY_SCHEME]: [] }];

function error(description: string) {
  return { description, content: { 'application/json': { schema: PayErrorEnvelope } } };
}

function ok<T>(schema: T, description: string) {
  return { 200: { description, content: { 'application/json': { schema } } } };
}

function body<T>(schema: T) {
  return { body: { required: true, content: { 'application/json': { schema } } } };
}

const common = {
  400: error('The body fails the contract (`BAD_REQUEST`, one `<field>: <message>` line each).'),
  401: error(
    'The token is missing or invalid (`TOKEN_INVALID`); which check failed is never said. A wrong signature also ' +
      'blocks the card session the body names (document section 5: no further action with the card): ' +
      '`CARD_SESSION_INVALID` until a rescan.',
  ),
  415: error('The body is not `application/json` (`UNSUPPORTED_MEDIA_TYPE`).'),
  503: error('The service cannot answer now (`UNAVAILABLE`); nothing was stored, retry.'),
};
const amounts = {
  422: error(
    'totalAmount is not sum(quantity x price) - discountAmount, or a refund is more than what remains ' +
      '(`AMOUNT_MISMATCH`).',
  ),
};
const notFound = { 404: error('No such transaction (`NOT_FOUND`).') };
const conflict = (what: string) => ({ 409: error(what) });

/** POST /availability-info. */
export const availabilityRoute = createRoute({
  operationId: 'availability',
  method: 'post',
  path: PAY_PATHS.availability,
  tags: ['Pay API'],
  security: signed,
  summary: 'Provider availability for the customer of a card session',
  request: body(AvailabilityRequest),
  responses: {
    ...ok(AvailabilityResponse, "The providers and whether wallet payment is the customer's default."),
    ...common,
    ...conflict(
      'The card session is unknown, expired, closed, or blocked after a refused token (`CARD_SESSION_INVALID`): ' +
        'scan the barcode again.',
    ),
  },
});

/** POST /availability-info/task. */
export const availabilityTaskRoute = createRoute({
  operationId: 'availabilityTask',
  method: 'post',
  path: PAY_PATHS.availabilityTask,
  tags: ['Pay API'],
  security: signed,
  summary: 'Payment initialization: registers the payment and the offers shown per provider',
  description: 'Idempotent by requestId (same body: the stored answer; another body: `IDEMPOTENCY_CONFLICT`).',
  request: body(AvailabilityTaskRequest),
  responses: {
    ...ok(AvailabilityTaskResponse, 'The task and the providers.'),
    ...common,
    ...amounts,
    ...conflict('`CARD_SESSION_INVALID` or `IDEMPOTENCY_CONFLICT`.'),
  },
});

/** POST /checkout. */
export const checkoutRoute = createRoute({
  operationId: 'checkout',
  method: 'post',
  path: PAY_PATHS.checkout,
  tags: ['Pay API'],
  security: signed,
  summary: 'Start the payment: the invoice appears in the app',
  description:
    'Idempotent: the same requestId, cardSession and body answer the stored response again, byte for byte (the ' +
    'recovery when no answer came). The same requestId with another body or cardSession: `IDEMPOTENCY_CONFLICT`. ' +
    'An invoice of the same card session still waiting for the customer is superseded (cancelled).',
  request: body(CheckoutRequest),
  responses: {
    ...ok(CheckoutResponse, 'The transaction, `created`.'),
    ...common,
    ...amounts,
    ...conflict('`CARD_SESSION_INVALID` (scan again, new requestId) or `IDEMPOTENCY_CONFLICT`.'),
  },
});

/** POST /status (token optional). */
export const statusRoute = createRoute({
  operationId: 'status',
  method: 'post',
  path: PAY_PATHS.status,
  tags: ['Pay API'],
  security: [...signed, {}],
  summary: 'Transaction status, by transactionId or by requestId and cardSession',
  description: 'The token is optional here; when present it is checked like everywhere else.',
  request: body(StatusRequest),
  responses: {
    ...ok(TransactionState, "The transaction's state."),
    ...common,
    ...notFound,
    ...conflict(
      'Asked by requestId and cardSession: the card session was blocked after a refused token ' +
        '(`CARD_SESSION_INVALID`).',
    ),
  },
});

/** POST /cancel. */
export const cancelRoute = createRoute({
  operationId: 'cancel',
  method: 'post',
  path: PAY_PATHS.cancel,
  tags: ['Pay API'],
  security: signed,
  summary: 'Cancel a payment (while created or processing)',
  description:
    'A result may still arrive after the cancellation when the bank had already received the payment (document ' +
    'section 7).',
  request: body(CancelRequest),
  responses: {
    ...ok(TransactionState, 'The transaction, `cancelled`.'),
    ...common,
    ...notFound,
    ...conflict('The transaction can no longer be cancelled (`INVALID_STATE`).'),
  },
});

/** POST /refund. */
export const refundRoute = createRoute({
  operationId: 'refund',
  method: 'post',
  path: PAY_PATHS.refund,
  tags: ['Pay API'],
  security: signed,
  summary: 'Refund a succeeded payment, fully or partly (by amount or by items)',
  description:
    'Idempotent by refundId. Items: never more units per article than bought minus refunded. Neither amount nor ' +
    'items: what remains. Afterwards the card session is closed.',
  request: body(RefundRequest),
  responses: {
    ...ok(RefundResponse, 'The refund.'),
    ...common,
    ...amounts,
    ...notFound,
    ...conflict(
      'Not a succeeded transaction (`INVALID_STATE`), or the refundId was used with another body ' +
        '(`IDEMPOTENCY_CONFLICT`).',
    ),
  },
});

/** POST /receipt. */
export const receiptRoute = createRoute({
  operationId: 'receipt',
  method: 'post',
  path: PAY_PATHS.receipt,
  tags: ['Pay API'],
  security: signed,
  summary: 'Send the receipt of a succeeded payment; forwarded to the app',
  request: body(ReceiptRequest),
  responses: {
    ...ok(ReceiptResponse, 'Accepted.'),
    ...common,
    ...notFound,
    ...conflict('Not a succeeded transaction (`INVALID_STATE`).'),
  },
});

/** The seven Pay API routes. */
export const PAY_ROUTES = {
  availability: availabilityRoute,
  availabilityTask: availabilityTaskRoute,
  checkout: checkoutRoute,
  status: statusRoute,
  cancel: cancelRoute,
  refund: refundRoute,
  receipt: receiptRoute,
} as const;

/**
 * The event the service POSTs to the partner's webhook URL on every change of
 * a transaction (OpenAPI 3.1 `webhooks`), signed per Standard Webhooks.
 */
export const transactionUpdatedWebhook = createRoute({
  operationId: 'transactionUpdated',
  method: 'post',
  path: 'transaction.updated',
  tags: ['Pay API'],
  summary: 'A transaction changed (status, or refundedAmount after a refund)',
  description:
    'Headers `webhook-id` (`evt_<transactionId>_v<version>`: one per change, de-duplicate on it), ' +
    "`webhook-timestamp`, `webhook-signature: v1,<base64>` with the partner's `whsec_` secret over " +
    '`id.timestamp.body`. Retried on non-2xx: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.',
  security: webhookSecurity,
  request: body(TransactionUpdatedEvent),
  responses: { 200: { description: 'Any 2xx acknowledges the event.' } },
});
