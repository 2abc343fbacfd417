import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import { ListPayments, PaymentId, StartPayment } from '../../src/contracts/cashdesk-payments.js';
import { PaymentsError } from '../../src/cashdesk/payments/errors.js';
import type { Payments } from '../../src/cashdesk/payments/api.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import type { RequestCounter } from '../http-server/request-metrics.js';
import type { Logger } from 'pino';
import type { NodeEnv } from '../http-server/node-env.js';
import { paymentEventStream, type PaymentEventsOptions } from './payment-events.js';
import { requestBodyLimit } from '../http-server/body-limit.js';
import { HttpProblem } from '../http-server/problem.js';
import { invalidBody, payloadTooLarge, unauthorized } from '../http-server/refusals.js';
import { withAuditCaller } from '../../src/cashdesk/back-office/audit-context.js';
import { readJsonBody } from './json-body.js';
import { countedAnswer, problemOf } from './counted-answer.js';
import { INTENT_ROUTES } from './payment-intents.js';
import type { TillAuthenticator } from './till-keys.js';
import { clientAddressOf } from '../../src/net/client-address.js';

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

/**
 * Mounts `/v1/payments` (till key as for the other routes): the twins of the
 * bridge's payment methods, answering the payment's view, and its events as
 * server-sent events. Refusals are the envelope with the stable code as `status`.
 */
export function mountPaymentRoutes(app: OpenAPIHono<NodeEnv>, deps: PaymentRoutesDeps): void {
  const { counted, limited, till, payments, paymentId } = paymentRequests(deps);
  const holdStream = eventStreamCap(deps.maxEventStreamsPerTill ?? DEFAULT_MAX_EVENT_STREAMS_PER_TILL);
  app.post(
    PAYMENTS_PATH,
    counted(
      PAYMENTS_PATH,
      limited(async (c) => {
        const tillId = till(c);
        const input = await readJsonBody(c, StartPayment);
        return c.json(await payments().intent('start', tillId, input), 200);
      }),
    ),
  );
  app.get(
    PAYMENTS_PATH,
    counted(PAYMENTS_PATH, async (c) => {
      const tillId = till(c);
      const query = ListPayments.safeParse(c.req.query());
      if (!query.success) throw invalidBody(query.error);
      return c.json(await payments().intent('list', tillId, query.data), 200);
    }),
  );
  app.get(
    `${PAYMENTS_PATH}/:paymentId`,
    counted(`${PAYMENTS_PATH}/{paymentId}`, async (c) => {
      const tillId = till(c);
      return c.json(await payments().intent('get', tillId, { paymentId: paymentId(c) }), 200);
    }),
  );
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
  for (const { path, intent, body: schema } of INTENT_ROUTES) {
    const route = `${PAYMENTS_PATH}/{paymentId}/${path}`;
    app.post(
      `${PAYMENTS_PATH}/:paymentId/${path}`,
      counted(
        route,
        limited(async (c) => {
          const tillId = till(c);
          const id = paymentId(c);
          // The intent's params: the body's members with the paymentId the path carries.
          const input = (await readJsonBody(c, schema)) as object | undefined;
          return c.json(await payments().intent(intent, tillId, { ...input, paymentId: id } as never), 200);
        }),
      ),
    );
  }
}

type Route = (c: Context<NodeEnv>) => Promise<Response>;

/**
 * What every payment route does around its handler: `counted` counts and logs the answer by route pattern,
 * `limited` caps the body, `till` authenticates the till, `payments` is the service (or PAY_NOT_CONFIGURED),
 * `paymentId` reads the path's id.
 */
function paymentRequests(deps: PaymentRoutesDeps) {
  // Inside `counted`, so a refusal for the body's size is counted like any other answer.
  const limit = requestBodyLimit(deps.bodyLimitBytes, () => {
    throw payloadTooLarge(deps.bodyLimitBytes);
  });
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
    const found = deps.authenticate(c.req.header('authorization'), c.env.incoming.url, clientAddressOf(c.env.incoming));
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
    if (!parsed.success) throw new HttpProblem('BAD_REQUEST', [`paymentId: ${parsed.error.issues[0]!.message}`]);
    return parsed.data;
  };
  // Counted and logged by route pattern: a label per paymentId would grow without bound. The request's id is
  // current while the payment works (withRequestId): the Pay client sends it on, the Pay API's transaction keeps it.
  const counted =
    (route: string, handler: Route): Handler<NodeEnv> =>
    (c) =>
      countedAnswer(c, deps, route, 'payment request', () =>
        withAuditCaller({ address: clientAddressOf(c.env.incoming) ?? null }, () => handler(c)),
      );
  return { counted, limited, till, payments, paymentId };
}

/**
 * Open event streams per till: a stream lasts as long as its client wants, so without a cap one till key could
 * hold every connection the server allows (the bridge caps a till's WebSocket connections the same way). The
 * answer holds one more stream of `tillId`, or refuses 429; call what it returns once the stream ends.
 */
function eventStreamCap(maxStreams: number): (tillId: string) => () => void {
  const streams = new Map<string, number>();
  return (tillId) => {
    const open = streams.get(tillId) ?? 0;
    if (open >= maxStreams) {
      throw new HttpProblem('TOO_MANY_REQUESTS', [`events: at most ${maxStreams} open event streams per till`], {
        headers: { 'retry-after': '1' },
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
}
