import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { ZodType } from 'zod';
import {
  BasketBody,
  ListPayments,
  PaymentId,
  PaymentList,
  PaymentView,
  ReceiptBody,
  RefundBody,
  RescanBody,
  SessionUpdate,
  StartPayment,
} from '../../src/contracts/cashdesk-payments.js';
import { ErrorEnvelope } from '../../src/contracts/errors.js';
import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from '../../src/contracts/json-depth.js';
import { PaymentsError, paymentRefusal } from '../../src/cashdesk/payments/errors.js';
import type { Payments } from '../../src/cashdesk/payments/api.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import type { RequestCounter } from '../http-server/request-metrics.js';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, withRequestId } from '../../src/log/request-id.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { paymentEventStream, type PaymentEventsOptions } from './payment-events.js';
import { requestIdOf } from '../http-server/request-id.js';
import { isJsonMediaType } from '../http-server/media-type.js';
import { requestBodyLimit } from '../http-server/body-limit.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { CLIENT_CLOSED_REQUEST, isClientAbort } from '../http-server/failures.js';
import { HttpProblem } from '../http-server/problem.js';
import {
  bodyNotJson,
  databaseUnavailable,
  invalidBody,
  payloadTooLarge,
  unauthorized,
  unsupportedMediaType,
} from '../http-server/refusals.js';
import { SECURITY_SCHEMES } from './routes.js';
import type { TillAuthenticator } from './till-keys.js';

/** The HTTP twins of the bridge's `pay.*` methods. */
export const PAYMENTS_PATH = '/v1/payments';

/** What the payment routes share with the rest of the app. */
export interface PaymentRoutesDeps {
  service: CashDeskService;
  authenticate: TillAuthenticator;
  requests: RequestCounter;
  bodyLimitBytes: number;
  /**
   * Where each payment request is logged in one line (its `reqId`, route, status): the id the Pay API and webhooks
   * carry on.
   */
  logger: Logger;
  /**
   * Open `GET /v1/payments/{paymentId}/events` streams per till; one more is refused 429. Default {@link
   * DEFAULT_MAX_EVENT_STREAMS_PER_TILL}.
   */
  maxEventStreamsPerTill?: number;
  /** The event streams' heartbeat and retry (defaults: a comment every 15 s, `retry: 2000`). */
  events?: PaymentEventsOptions;
}

/** Open event streams per till by default: as many as the bridge's WebSocket connections per till. */
export const DEFAULT_MAX_EVENT_STREAMS_PER_TILL = 16;

type Intent = 'checkout' | 'basket' | 'cancel' | 'retry' | 'rescan' | 'refund' | 'receipt' | 'abandon';

/** One intent: its body schema (none: no body, or `{}`) and its call, given what that schema parsed. */
interface IntentEntry {
  body?: ZodType;
  summary: string;
  // biome-ignore lint/suspicious/noExplicitAny: each entry's call takes what its own schema parsed; one table holds all
  run(p: Payments, till: string, id: string, body: any): Promise<unknown>;
}

/** Each `POST /v1/payments/{paymentId}/{intent}`. */
const INTENTS: Record<Intent, IntentEntry> = {
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
  for (const [intent, { body, summary }] of Object.entries(INTENTS)) {
    register({
      operationId: `${intent}Payment`,
      method: 'post',
      path: `${PAYMENTS_PATH}/{paymentId}/${intent}`,
      summary: `${summary} (pay.${intent === 'basket' ? 'changeBasket' : intent})`,
      security: tillSecurity,
      request: {
        params: idParam,
        ...(body ? { body: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      },
      responses: postViewAnswer,
    });
  }
}

/** The HTTP refusal of a payment call's failure; anything that is none stays as it is (a bug: 500). */
function problemOf(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const refusal = paymentRefusal(error);
  if (refusal === undefined) return error;
  return new HttpProblem(
    refusal.httpStatus,
    refusal.code,
    refusal.errors.length > 0 ? refusal.errors : [refusal.message],
  );
}

/**
 * Mounts `/v1/payments` (till key as for the other routes): the twins of the
 * bridge's payment methods, answering the payment's view, and its events as
 * server-sent events. Refusals are the envelope with the stable code as `status`.
 */
export function mountPaymentRoutes(app: OpenAPIHono<NodeEnv>, deps: PaymentRoutesDeps): void {
  // Inside `counted`, so a refusal for the body's size is counted like any other answer.
  const limit = requestBodyLimit(deps.bodyLimitBytes, () => {
    throw payloadTooLarge(deps.bodyLimitBytes);
  });
  type Route = (c: Context<NodeEnv>) => Promise<Response>;
  const limited =
    (handler: Route): Route =>
    async (c) => {
      let response: Response | undefined;
      await limit(c, async () => {
        response = await handler(c);
      });
      return response!;
    };
  const till = (c: Context<NodeEnv>): string => {
    const found = deps.authenticate(
      c.req.header('authorization'),
      c.env.incoming.url,
      c.env.incoming.socket.remoteAddress,
    );
    if (found === undefined) throw unauthorized();
    return found.id;
  };
  const payments = (): Payments => {
    if (deps.service.payments === undefined)
      throw problemOf(new PaymentsError('PAY_NOT_CONFIGURED', 'this server has no Pay API configured (pay.url)'));
    return deps.service.payments;
  };
  const paymentId = (c: Context<NodeEnv>): string => {
    const parsed = PaymentId.safeParse(c.req.param('paymentId'));
    if (!parsed.success) throw new HttpProblem(400, 'BAD_REQUEST', [`paymentId: ${parsed.error.issues[0]!.message}`]);
    return parsed.data;
  };
  const body = async <T>(c: Context<NodeEnv>, schema: ZodType<T> | undefined): Promise<T> => {
    // As the raw POST routes (guards.ts): a declared type that is not JSON is refused before reading, a body without
    // one after. A form or text/plain body is what a page of another origin can send without asking first.
    const contentType = c.req.header('content-type');
    if (contentType !== undefined && !isJsonMediaType(contentType)) throw unsupportedMediaType();
    const text = await c.req.text();
    if (contentType === undefined && text.length > 0) throw unsupportedMediaType();
    if (schema === undefined) {
      if (text.trim() === '' || /^\s*\{\s*\}\s*$/.test(text)) return undefined as T;
      throw new HttpProblem(400, 'BAD_REQUEST', ['body: must be empty or {}']);
    }
    // Bounded before anything walks it (JSON.parse would take any depth; what comes after may not).
    if (jsonTooDeep(text)) throw new HttpProblem(400, 'BAD_REQUEST', [JSON_TOO_DEEP_MESSAGE]);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw bodyNotJson();
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw invalidBody(parsed.error);
    return parsed.data;
  };
  // Counted and logged by route pattern: a label per paymentId would grow without bound. The request's id is
  // current while the payment works (withRequestId): the Pay client sends it on, the Pay API's transaction keeps it.
  const counted =
    (route: string, handler: (c: Context<NodeEnv>) => Promise<Response>): Handler<NodeEnv> =>
    async (c) => {
      const reqId = requestIdOf(c.env.incoming);
      c.header(REQUEST_ID_HEADER, reqId);
      const log = (status: number) =>
        deps.logger.info({ reqId, method: c.req.method, route, status }, 'payment request');
      try {
        const response = await withRequestId(reqId, () => handler(c));
        deps.requests.count(route, response.status);
        log(response.status);
        return response;
      } catch (error) {
        const problem = problemOf(error);
        const status =
          problem instanceof HttpProblem ? problem.httpStatus : isClientAbort(problem) ? CLIENT_CLOSED_REQUEST : 500;
        deps.requests.count(route, status);
        log(status);
        throw problem;
      }
    };

  app.post(
    PAYMENTS_PATH,
    counted(
      PAYMENTS_PATH,
      limited(async (c) => {
        const tillId = till(c);
        const input = await body(c, StartPayment);
        return c.json(await payments().start(tillId, input), 200);
      }),
    ),
  );
  app.get(
    PAYMENTS_PATH,
    counted(PAYMENTS_PATH, async (c) => {
      const tillId = till(c);
      const query = ListPayments.safeParse(c.req.query());
      if (!query.success) throw invalidBody(query.error);
      return c.json({ payments: await payments().list(tillId, query.data.phase) }, 200);
    }),
  );
  app.get(
    `${PAYMENTS_PATH}/:paymentId`,
    counted(`${PAYMENTS_PATH}/{paymentId}`, async (c) => {
      const tillId = till(c);
      return c.json(await payments().get(tillId, paymentId(c)), 200);
    }),
  );
  // Open event streams per till: a stream lasts as long as its client wants, so without a cap one till key could
  // hold every connection the server allows (the bridge caps a till's WebSocket connections the same way).
  const streams = new Map<string, number>();
  const maxStreams = deps.maxEventStreamsPerTill ?? DEFAULT_MAX_EVENT_STREAMS_PER_TILL;
  const holdStream = (tillId: string): (() => void) => {
    const open = streams.get(tillId) ?? 0;
    if (open >= maxStreams) {
      throw new HttpProblem(429, 'TOO_MANY_REQUESTS', [`events: at most ${maxStreams} open event streams per till`], {
        'retry-after': '1',
      });
    }
    streams.set(tillId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = streams.get(tillId)! - 1;
      if (left === 0) streams.delete(tillId);
      else streams.set(tillId, left);
    };
  };
  app.get(
    `${PAYMENTS_PATH}/:paymentId/events`,
    counted(`${PAYMENTS_PATH}/{paymentId}/events`, async (c) => {
      const tillId = till(c);
      const id = paymentId(c);
      const service = payments();
      const release = holdStream(tillId);
      return paymentEventStream(c, service, tillId, id, release, deps.events);
    }),
  );
  for (const [intent, { body: schema, run }] of Object.entries(INTENTS)) {
    const route = `${PAYMENTS_PATH}/{paymentId}/${intent}`;
    app.post(
      `${PAYMENTS_PATH}/:paymentId/${intent}`,
      counted(
        route,
        limited(async (c) => {
          const tillId = till(c);
          const id = paymentId(c);
          const input = await body(c, schema);
          return c.json((await run(payments(), tillId, id, input)) as PaymentView, 200);
        }),
      ),
    );
  }
}
