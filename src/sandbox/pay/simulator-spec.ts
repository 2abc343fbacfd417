import { createRoute, z } from '@hono/zod-openapi';
import { ErrorEnvelope } from '../../contracts/errors.js';
import { TransactionState } from '../../contracts/pay/index.js';
import {
  BankRequest,
  BarcodeRequest,
  CardPath,
  CardTransactionsResponse,
  CardRequest,
  CardResponse,
  DeclineRequest,
  FaultRequest,
  FaultsResponse,
  InvoicesQuery,
  InvoicesResponse,
  PartnerRequest,
  PartnerResponse,
  RefundSettingsRequest,
  TransactionPath,
  TransactionRecord,
} from './simulator-schemas.js';
import { DeliveriesResponse, DeliveryPath, WebhooksQuery } from './simulator-delivery-schemas.js';

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
const ok = <T>(schema: T, description: string) => ({
  200: { description, content: { 'application/json': { schema } } },
});
const body = <T>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });
const bad = { 400: error('The body or a parameter fails the schema (`BAD_REQUEST`).') };
const notFound = { 404: error('No such partner, card or transaction (`NOT_FOUND`).') };
const invalid = { 409: error('The transaction is not in a status that allows it (`INVALID_STATE`).') };
const urlBad = { 400: error('The path or query holds a control character (`BAD_REQUEST`).') };
// The simulator and the test controls take no credentials (the sandbox binds to loopback); said explicitly, not left
// out.
const open: [] = [];
const app = ['Simulator: wallet app'];
const controls = ['Simulator: test controls'];

/** POST /sandbox/partners. */
export const partnerRoute = createRoute({
  operationId: 'sandboxPartner',
  method: 'post',
  path: '/sandbox/partners',
  tags: controls,
  security: open,
  summary: 'Create or update a partner (its key, webhook URL and secret, barcode layout)',
  request: body(PartnerRequest),
  responses: { ...ok(PartnerResponse, 'The partner, with its webhook secret.'), ...bad },
});

/** POST /sandbox/cards. */
export const cardRoute = createRoute({
  operationId: 'sandboxIssueCard',
  method: 'post',
  path: '/sandbox/cards',
  tags: app,
  security: open,
  summary: 'The app issues a card and draws its barcode (with a new card session by default)',
  request: body(CardRequest),
  responses: { ...ok(CardResponse, 'The card, its key and its barcode now.'), ...bad, ...notFound },
});

/** POST /sandbox/cards/{cardNumber}/barcode. */
export const barcodeRoute = createRoute({
  operationId: 'sandboxRescan',
  method: 'post',
  path: '/sandbox/cards/{cardNumber}/barcode',
  tags: app,
  security: open,
  summary: "The app draws the card's barcode again: a new card session, a fresh password",
  request: { params: CardPath, ...body(BarcodeRequest) },
  responses: { ...ok(CardResponse, 'The new barcode.'), ...bad, ...notFound },
});

/** GET /sandbox/app/invoices. */
export const invoicesRoute = createRoute({
  operationId: 'sandboxInvoices',
  method: 'get',
  path: '/sandbox/app/invoices',
  tags: app,
  security: open,
  summary: 'Invoices waiting for the customer of a card (status created)',
  request: { query: InvoicesQuery },
  responses: { ...ok(InvoicesResponse, 'Pending invoices, oldest first.'), ...bad, ...notFound },
});

/** GET /sandbox/app/transactions. */
export const cardTransactionsRoute = createRoute({
  operationId: 'sandboxCardTransactions',
  method: 'get',
  path: '/sandbox/app/transactions',
  tags: app,
  security: open,
  summary: "The app's history for a card: its latest 20 transactions with refunds and receipts",
  request: { query: InvoicesQuery },
  responses: { ...ok(CardTransactionsResponse, 'Newest first.'), ...bad, ...notFound },
});

const act = (operationId: string, verb: string, summary: string, request?: typeof DeclineRequest) =>
  createRoute({
    operationId,
    method: 'post',
    path: `/sandbox/app/transactions/{transactionId}/${verb}`,
    tags: app,
    security: open,
    summary,
    request:
      request === undefined
        ? { params: TransactionPath }
        : { params: TransactionPath, body: { required: false, content: { 'application/json': { schema: request } } } },
    responses: { ...ok(TransactionState, "The transaction's new state."), ...bad, ...notFound, ...invalid },
  });

/** POST /sandbox/app/transactions/{transactionId}/confirm. */
export const confirmRoute = act(
  'sandboxConfirm',
  'confirm',
  'The customer confirms: processing, handed to the simulated bank',
);
/** POST /sandbox/app/transactions/{transactionId}/decline. */
export const declineRoute = act(
  'sandboxDecline',
  'decline',
  'The customer declines (or has insufficient funds): rejected',
  DeclineRequest,
);
/** POST /sandbox/app/transactions/{transactionId}/cancel. */
export const customerCancelRoute = act(
  'sandboxCustomerCancel',
  'cancel',
  'The customer cancels the invoice in the app: cancelled',
);

/** GET /sandbox/app. */
export const appPageRoute = createRoute({
  operationId: 'sandboxAppPage',
  method: 'get',
  path: '/sandbox/app',
  tags: app,
  security: open,
  summary:
    'The wallet app for people: a card and its barcode, invoices, receipts, push inbox, loyalty (built by `npm ' +
    'run build:web`)',
  responses: { 200: { description: 'HTML.', content: { 'text/html': { schema: z.string() } } }, ...urlBad },
});

/** POST /sandbox/bank. */
export const bankRoute = createRoute({
  operationId: 'sandboxBank',
  method: 'post',
  path: '/sandbox/bank',
  tags: controls,
  security: open,
  summary: 'How the simulated bank answers the next confirmations, and when',
  request: body(BankRequest),
  responses: { ...ok(BankRequest, "The bank's settings."), ...bad },
});

/** POST /sandbox/bank/refunds. */
export const refundSettingsRoute = createRoute({
  operationId: 'sandboxRefundSettings',
  method: 'post',
  path: '/sandbox/bank/refunds',
  tags: controls,
  security: open,
  summary: 'How the next refunds settle where they are answered pending first (the foreign dialect), and when',
  request: body(RefundSettingsRequest),
  responses: { ...ok(RefundSettingsRequest, 'The refund settings.'), ...bad },
});

/** POST /sandbox/faults. */
export const faultRoute = createRoute({
  operationId: 'sandboxFault',
  method: 'post',
  path: '/sandbox/faults',
  tags: controls,
  security: open,
  summary: 'Inject a fault into the next requests to a Pay API path',
  description:
    '`drop-after-commit`: processed and committed, then the TCP socket is destroyed without an answer. ' +
    '`fail-before-commit`: 503 `UNAVAILABLE`, nothing stored. `delay`: answered after delayMs.',
  request: body(FaultRequest),
  responses: { ...ok(FaultsResponse, 'The faults now armed.'), ...bad },
});

/** POST /sandbox/faults/clear. */
export const clearFaultsRoute = createRoute({
  operationId: 'sandboxClearFaults',
  method: 'post',
  path: '/sandbox/faults/clear',
  tags: controls,
  security: open,
  summary: 'Disarm every fault',
  responses: { ...ok(FaultsResponse, 'No fault armed.'), ...urlBad },
});

/** GET /sandbox/webhooks. */
export const webhooksRoute = createRoute({
  operationId: 'sandboxWebhooks',
  method: 'get',
  path: '/sandbox/webhooks',
  tags: controls,
  security: open,
  summary: 'Webhook deliveries with their attempts, newest first',
  request: { query: WebhooksQuery },
  responses: { ...ok(DeliveriesResponse, 'Deliveries.'), ...bad },
});

/** POST /sandbox/webhooks/{id}/redeliver. */
export const redeliverRoute = createRoute({
  operationId: 'sandboxRedeliver',
  method: 'post',
  path: '/sandbox/webhooks/{id}/redeliver',
  tags: controls,
  security: open,
  summary: 'Make a pending or failed delivery due now',
  request: { params: DeliveryPath },
  responses: { ...ok(z.object({ id: z.string(), redelivered: z.literal(true) }), 'Due now.'), ...notFound },
});

/** GET /sandbox/transactions/{transactionId}. */
export const transactionRoute = createRoute({
  operationId: 'sandboxTransaction',
  method: 'get',
  path: '/sandbox/transactions/{transactionId}',
  tags: controls,
  security: open,
  summary: "A transaction's full record: items, bank, refunds, receipts",
  request: { params: TransactionPath },
  responses: { ...ok(TransactionRecord, 'The record.'), ...notFound },
});

/** Every simulator and test-control route of the Pay module. */
export const SIMULATOR_ROUTES = [
  partnerRoute,
  cardRoute,
  barcodeRoute,
  invoicesRoute,
  cardTransactionsRoute,
  confirmRoute,
  declineRoute,
  customerCancelRoute,
  appPageRoute,
  bankRoute,
  refundSettingsRoute,
  faultRoute,
  clearFaultsRoute,
  webhooksRoute,
  redeliverRoute,
  transactionRoute,
] as const;
