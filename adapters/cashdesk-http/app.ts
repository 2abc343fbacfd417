import { OpenAPIHono } from '@hono/zod-openapi';
import { ServerMetrics } from '../../src/cashdesk/metrics.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import { REQUEST_ID_HEADER, withRequestId } from '../../src/log/request-id.js';
import { requestBodyLimit } from '../http-server/body-limit.js';
import { errorHandler, notFoundHandler } from '../http-server/fallbacks.js';
import type { NodeEnv } from '../http-server/node-env.js';
import { attachNodeRoutes, type NodeHandler } from '../http-server/node-routes.js';
import { HttpProblem } from '../http-server/problem.js';
import { type Answer, honoRoute, rawJsonRoute } from '../http-server/raw-route.js';
import { payloadTooLarge } from '../http-server/refusals.js';
import { requestIdOf } from '../http-server/request-id.js';
import { countRequests, requestCounter } from '../http-server/request-metrics.js';
import { routeTable } from '../http-server/route-table.js';
import { cashDeskBridgeAsyncApiDocument } from '../ws/asyncapi.js';
import { BackOfficeRegistry } from '../../src/cashdesk/back-office/credentials.js';
import { BackOffice } from '../../src/cashdesk/back-office/service.js';
import { mountBackOfficePaymentRoutes } from './back-office-routes.js';
import { tillAdmission } from './guards.js';
import { cashDeskOpenApiDocument, PAY_WEBHOOK_PATH } from './openapi.js';
import { type HttpAdapterOptions, resolveHttpAdapterOptions } from './options.js';
import { mountPaymentRoutes } from './payments.js';
import { healthRoute, liveRoute, metricsRoute, PATHS, RAW_POST_ROUTES, type RawPostRouteName } from './routes.js';
import { mountTicketRoute } from './tickets.js';
import { rememberingAuthenticator } from './till-keys.js';
import { requestDataFrom } from './token-body.js';
import { fullBarcodeFrom, fullBarcodesFrom } from './verify-body.js';
import type { Till } from '../../src/cashdesk/tills.js';
import type { Logger } from 'pino';
import type { RequestCounter } from '../http-server/request-metrics.js';

/**
 * The cash desk server's HTTP API (the README's Cash desk server) over a
 * {@link CashDeskService}: `POST /v1/barcode/verify`, `POST /v1/barcode/verify-batch`,
 * `POST /v1/token`, `POST /v1/tickets` (till key required), `GET /healthz` (503 naming a dependency that does
 * not answer), `GET /livez`,
 * `GET /metrics`, `GET /openapi.json`, `GET /asyncapi.json` (the bridge's). Every
 * refusal is the envelope `{ status, errors[] }`; the OpenAPI 3.1 document is
 * generated from the same zod schemas that validate the requests.
 *
 * The POST routes and the refusals are written straight to the Node response,
 * so the app must be served by @hono/node-server, as `serveHttp` (adapters/http-server) does.
 *
 * @throws ConfigError when `options` are invalid.
 * @example
 * const app = createHttpApp(service, { logger });
 * const { url, close } = await serveHttp(app, { port: 8080 });
 */
export function createHttpApp(service: CashDeskService, options?: HttpAdapterOptions): OpenAPIHono<NodeEnv> {
  const { bodyLimitBytes, logger, health, eventHeartbeatMs, backOffice } = resolveHttpAdapterOptions(options);
  const app = new OpenAPIHono<NodeEnv>();

  // The POST routes are raw routes (raw-route.ts): they authenticate, limit, count and refuse
  // by themselves, and no middleware is put on their paths. serveHttp answers them before
  // Hono (node-routes.ts); Hono's router gets the same handlers for paths only it matches.
  // The document is cashDeskOpenApiDocument(): app.openapi() would add zod-openapi's
  // validator, which reads the body through a web Request.
  const requests = requestCounter(service.metrics);
  const authenticate = rememberingAuthenticator(service);
  const deps = { admit: tillAdmission(authenticate, bodyLimitBytes), requests, bodyLimitBytes, logger };
  mountRawPostRoutes(app, service, deps);

  mountPayWebhook(app, service, { requests, bodyLimitBytes, logger });

  mountPaymentRoutes(app, {
    service,
    authenticate,
    requests,
    bodyLimitBytes,
    logger,
    events: { heartbeatMs: eventHeartbeatMs },
  });
  // Without a back office every caller of its routes is unknown: 401, as for a wrong key.
  const office = backOffice ?? new BackOffice({ keys: new BackOfficeRegistry([]), tills: [] });
  mountBackOfficePaymentRoutes(app, { service, backOffice: office, requests, bodyLimitBytes, logger });

  mountTicketRoute(app, { service, authenticate, requests, logger });

  app.onError(errorHandler(logger));
  // Every route's methods, the payment routes' included: a wrong method gets 405 with Allow, before any till key is
  // asked for.
  app.notFound(notFoundHandler(routeTable(app), requests));
  // Before the GET routes, so it wraps them (hono runs matched handlers in the order they were added).
  app.on('GET', [PATHS.health, PATHS.live, PATHS.metrics, PATHS.openapi, PATHS.asyncapi], countRequests(requests));

  app.openapi(healthRoute, async (c) => {
    const { failing } = await health.check();
    if (failing.length > 0) return c.json({ status: 'unavailable' as const, failing: [...failing] }, 503);
    return c.json(service.health(), 200);
  });
  app.openapi(liveRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(metricsRoute, async (c) => {
    return c.text(await service.metrics.render(), 200, { 'Content-Type': ServerMetrics.contentType });
  });

  let document: string | undefined;
  app.get(PATHS.openapi, (c) => {
    document ??= JSON.stringify(cashDeskOpenApiDocument(service.health().version));
    return c.body(document, 200, { 'Content-Type': 'application/json' });
  });
  let asyncapi: string | undefined;
  app.get(PATHS.asyncapi, (c) => {
    asyncapi ??= JSON.stringify(cashDeskBridgeAsyncApiDocument(service.health().version));
    return c.body(asyncapi, 200, { 'Content-Type': 'application/json' });
  });
  return app;
}

/** The batch route's answer, `{ results }`, from the results or a promise of them. */
function withResults<T>(results: T[] | Promise<T[]>): { results: T[] } | Promise<{ results: T[] }> {
  return Array.isArray(results) ? { results } : results.then((settled) => ({ results: settled }));
}

/** The POST routes as raw routes, each keyed by its name in RAW_POST_ROUTES, answered by the service. */
function mountRawPostRoutes(
  app: OpenAPIHono<NodeEnv>,
  service: CashDeskService,
  deps: Parameters<typeof rawJsonRoute<Till>>[0],
): void {
  // verifySync: no promise per request with an in-process store (a promise of the result with Redis).
  // The till is the requester: its retry after a lost answer gets the first answer again (`repeated: true`).
  // Keyed by RAW_POST_ROUTES' names, so a route declared (and documented) there cannot go unmounted.
  const answers: Record<RawPostRouteName, Answer<Till>> = {
    verify: (body, till) => service.verifySync(fullBarcodeFrom(body), till.id),
    verifyBatch: (body, till) => withResults(service.verifyBatchSync(fullBarcodesFrom(body), till.id)),
    token: (body) => service.tokenAnswer(requestDataFrom(body)),
  };
  const nodeRoutes = new Map<string, NodeHandler>();
  for (const [name, route] of Object.entries(RAW_POST_ROUTES) as Array<
    [RawPostRouteName, (typeof RAW_POST_ROUTES)[RawPostRouteName]]
  >) {
    const handler = rawJsonRoute(deps, route.path, answers[name]);
    app.post(route.path, honoRoute(handler));
    nodeRoutes.set(route.path, handler);
  }
  attachNodeRoutes(app, nodeRoutes);
}

/**
 * `POST /webhooks/pay`, when the service has payments: Pay's transaction.updated events (Standard Webhooks,
 * signed with the configured secret): no till key, the signature is the auth.
 */
function mountPayWebhook(
  app: OpenAPIHono<NodeEnv>,
  service: CashDeskService,
  { requests, bodyLimitBytes, logger }: { requests: RequestCounter; bodyLimitBytes: number; logger: Logger },
): void {
  const payWebhook = service.payments?.webhookHandler();
  if (payWebhook === undefined) return;
  // The body limit first: the signature can only be checked over the whole body, so without it any caller
  // could have a body of any size held in memory (no credentials needed to send one).
  const limit = requestBodyLimit(bodyLimitBytes, () => {
    throw payloadTooLarge(bodyLimitBytes);
  });
  app.post(PAY_WEBHOOK_PATH, async (c) => {
    // The sandbox sends the id of the request that created the transaction: the payment's id in both servers' logs.
    const id = requestIdOf(c.env.incoming);
    let answer: Response | undefined;
    try {
      await limit(c, async () => {
        answer = await withRequestId(id, () => payWebhook(c.req.raw));
      });
    } catch (error) {
      // Refused before the webhook could look (the body's size): counted here, answered by onError.
      requests.count(PAY_WEBHOOK_PATH, error instanceof HttpProblem ? error.httpStatus : 500);
      throw error;
    }
    logger.info({ reqId: id, route: PAY_WEBHOOK_PATH, status: answer!.status }, 'pay webhook');
    requests.count(PAY_WEBHOOK_PATH, answer!.status);
    const headers = new Headers(answer!.headers);
    headers.set(REQUEST_ID_HEADER, id);
    return new Response(answer!.body, { status: answer!.status, headers });
  });
}
