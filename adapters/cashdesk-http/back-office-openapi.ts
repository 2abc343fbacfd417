// The back-office routes' OpenAPI description: their key scheme, paths, parameters, bodies and answers.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  AuditList,
  AuditQuery,
  BackOfficePaymentList,
  BackOfficePaymentParams,
  BackOfficePaymentsQuery,
} from '../../src/contracts/back-office.js';
import { PaymentView, RefundBody } from '../../src/contracts/cashdesk-payments.js';
import { ErrorEnvelope } from '../../src/contracts/errors.js';
import {
  DayCloseQuery,
  DayCloseReport,
  ReconciliationQuery,
  ReconciliationReport,
} from '../../src/contracts/back-office-reports.js';
import {
  AUDIT_PATH,
  BACK_OFFICE_PATH,
  BACK_OFFICE_REFUND_ROUTE,
  DAY_CLOSE_ROUTE,
  RECONCILIATION_ROUTE,
} from './back-office-routes.js';

/** The name of the back-office key scheme in the document. */
export const BACK_OFFICE_SCHEME = 'backOfficeKey';

const refusal = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
const refusals = {
  400: refusal('Refused: `status` BAD_REQUEST, the query or body fails the contract.'),
  401: refusal('No back-office key, or a key of none (a till key is none): UNAUTHORIZED.'),
  403: refusal("SCOPE_MISSING: the key lacks the route's scope; REFUND_LIMIT_EXCEEDED: over its maxRefundAmount."),
  429: refusal('TOO_MANY_REQUESTS: too many wrong keys from this address.'),
  503: refusal('DATABASE_UNAVAILABLE or PAY_NOT_CONFIGURED.'),
};

const security = [{ [BACK_OFFICE_SCHEME]: [] }];

/** The back-office routes as the document describes them: one entry a route. */
const BACK_OFFICE_ROUTES: ReadonlyArray<Parameters<typeof createRoute>[0]> = [
  {
    operationId: 'auditLog',
    method: 'get',
    path: AUDIT_PATH,
    summary: 'The audit log (audit:read)',
    description:
      'Every money-moving intent (start, checkout, cancel, abandon, retry, rescan, refund, receipt) from a till or ' +
      'the back office, refusals included, in `seq` order; the table refuses UPDATE and DELETE.',
    security,
    request: { query: AuditQuery },
    responses: {
      200: { description: 'A page.', content: { 'application/json': { schema: AuditList } } },
      ...refusals,
    },
  },
  {
    operationId: 'backOfficePayments',
    method: 'get',
    path: `${BACK_OFFICE_PATH}/payments`,
    summary: "Every till's payments (payments:read)",
    description: 'Payments created in [from, to), oldest first, a page of `limit`; `next` is the following page.',
    security,
    request: { query: BackOfficePaymentsQuery },
    responses: {
      200: { description: 'A page.', content: { 'application/json': { schema: BackOfficePaymentList } } },
      ...refusals,
    },
  },
  {
    operationId: 'backOfficeReconciliation',
    method: 'get',
    path: RECONCILIATION_ROUTE,
    summary: "The kit's payments against the Pay service's records (reports:read)",
    description:
      "Without `from` and `to`: the background comparison's last report (`pay.reconcile`), else one made now for " +
      'the last 24 hours; with them, a comparison of that period made now (a /status per transaction). Never ' +
      'heals: `pay reconcile --heal` does.',
    security,
    request: { query: ReconciliationQuery },
    responses: {
      200: { description: 'The report.', content: { 'application/json': { schema: ReconciliationReport } } },
      ...refusals,
    },
  },
  {
    operationId: 'backOfficeDayClose',
    method: 'get',
    path: DAY_CLOSE_ROUTE,
    summary: 'The day-close per till and store (reports:read)',
    description:
      'Per till, per store and in all: payments begun that day, money taken that day (late successes included), ' +
      "money given back that day and net, in kopecks; with the day's discrepancies.",
    security,
    request: { query: DayCloseQuery },
    responses: {
      200: { description: 'The report.', content: { 'application/json': { schema: DayCloseReport } } },
      ...refusals,
    },
  },
  {
    operationId: 'backOfficeRefund',
    method: 'post',
    path: BACK_OFFICE_REFUND_ROUTE,
    summary: "Refund a till's payment from the back office (payments:refund)",
    description:
      "The till refund's rules and idempotency by refundId, with no card and no till; a key's maxRefundAmount " +
      'bounds each refund.',
    security,
    request: {
      params: BackOfficePaymentParams,
      body: { required: true, content: { 'application/json': { schema: RefundBody } } },
    },
    responses: {
      200: { description: 'The payment as it stands.', content: { 'application/json': { schema: PaymentView } } },
      ...refusals,
      404: refusal('PAYMENT_NOT_FOUND: no such till or payment.'),
      409: refusal('A payment session or Pay API refusal (SESSION_STATE, ...).'),
      413: refusal('PAYLOAD_TOO_LARGE.'),
      415: refusal('UNSUPPORTED_MEDIA_TYPE.'),
      502: refusal('The Pay API failed (PAY_SERVER, PAY_NETWORK, ...).'),
    },
  },
];

/** Registers the back-office key scheme and routes in an OpenAPI document. */
export function documentBackOfficeRoutes(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', BACK_OFFICE_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description:
      'A back-office key (`backOffice` in the configuration): `Authorization: Bearer <key>`, never in the URL. Its ' +
      'scopes: payments:read, payments:refund, reports:read, audit:read.',
  });
  for (const route of BACK_OFFICE_ROUTES) app.openAPIRegistry.registerPath(createRoute(route));
}
