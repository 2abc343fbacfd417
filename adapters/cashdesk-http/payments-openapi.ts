// The payment routes' OpenAPI description: their paths, parameters, bodies and answers.
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ListPayments,
  PaymentId,
  PaymentList,
  PaymentView,
  SessionUpdate,
  StartPayment,
} from '../../src/contracts/cashdesk-payments.js';
import { ErrorEnvelope } from '../../src/contracts/errors.js';
import { INTENT_ROUTES } from './payment-intents.js';
import { PAYMENTS_PATH } from './payments.js';
import { SECURITY_SCHEMES } from './routes.js';

const tillSecurity: Array<Record<string, string[]>> = [
  { [SECURITY_SCHEMES.bearer]: [] },
  { [SECURITY_SCHEMES.query]: [] },
];
const errors = (codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      code,
      {
        description:
          code === 503
            ? 'Unavailable: `status` is DATABASE_UNAVAILABLE (the database does not answer; retry after ' +
              '`Retry-After` seconds), PAY_NOT_CONFIGURED, PAYMENT_BUSY or PAYMENT_MOVED (another instance holds ' +
              'the payment a moment: retry), or PAYMENTS_CLOSED.'
            : 'Refused: `status` is the stable code (a Pay API, payment session or cash desk code, e.g. ' +
              'CARD_SESSION_INVALID, SESSION_STATE, PAYMENT_NOT_FOUND).',
        content: { 'application/json': { schema: ErrorEnvelope } },
      },
    ]),
  );
const viewAnswer = {
  200: { description: 'The payment as it stands.', content: { 'application/json': { schema: PaymentView } } },
  ...errors([400, 401, 404, 409, 422, 502, 503, 504]),
};
/**
 * The POST routes' answers: also 413 (over the body limit) and 415 (a body not declared as JSON,
 * `UNSUPPORTED_MEDIA_TYPE`).
 */
const postViewAnswer = { ...viewAnswer, ...errors([413, 415]) };
const idParam = z.object({ paymentId: PaymentId });

/** Registers the payment routes in an OpenAPI document. */
export function documentPaymentRoutes(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  const register = (route: Parameters<typeof createRoute>[0]) => app.openAPIRegistry.registerPath(createRoute(route));
  register({
    operationId: 'startPayment',
    method: 'post',
    path: PAYMENTS_PATH,
    summary: 'Start a payment (pay.start)',
    security: tillSecurity,
    description:
      'Verifies `fullBarcode` (or takes `cardSession`), asks for the providers, and checks out at once when ' +
      'walletPayIsDefault. A known `paymentId` answers that payment.',
    request: { body: { required: true, content: { 'application/json': { schema: StartPayment } } } },
    responses: postViewAnswer,
  });
  register({
    operationId: 'listPayments',
    method: 'get',
    path: PAYMENTS_PATH,
    summary: "This till's payments (pay.list)",
    security: tillSecurity,
    request: { query: ListPayments },
    responses: {
      200: { description: 'Most recent first.', content: { 'application/json': { schema: PaymentList } } },
      ...errors([400, 401, 503]),
    },
  });
  register({
    operationId: 'getPayment',
    method: 'get',
    path: `${PAYMENTS_PATH}/{paymentId}`,
    summary: 'A payment (pay.get)',
    security: tillSecurity,
    request: { params: idParam },
    responses: viewAnswer,
  });
  register({
    operationId: 'paymentEvents',
    method: 'get',
    path: `${PAYMENTS_PATH}/{paymentId}/events`,
    summary: "A payment's updates as server-sent events",
    security: tillSecurity,
    description:
      'Server-sent events named `pay.sessionUpdated`, each with its `seq` as `id:`: first the current state ' +
      '(restated), or, with `Last-Event-ID`, the events after it from the last 100 kept (older: the current ' +
      'state), then every newer phase change and session event; `retry:` 2000 ms and a comment every 15 s.',
    request: { params: idParam },
    responses: {
      200: { description: 'An event stream.', content: { 'text/event-stream': { schema: SessionUpdate } } },
      ...errors([401, 404, 429, 503]),
    },
  });
  for (const { path, intent, body, summary } of INTENT_ROUTES) {
    register({
      operationId: `${path}Payment`,
      method: 'post',
      path: `${PAYMENTS_PATH}/{paymentId}/${path}`,
      summary: `${summary} (pay.${intent})`,
      security: tillSecurity,
      request: {
        params: idParam,
        ...(body ? { body: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      },
      responses: postViewAnswer,
    });
  }
}
