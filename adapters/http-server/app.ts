import type { IncomingMessage } from 'node:http';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, silentLogger, withLogPolicy, withRequestId } from '../../src/log/index.js';
import { requestBodyLimit } from './body-limit.js';
import { isClientAbort, problemFor } from './failures.js';
import { apiMetrics, mountMetrics, type ApiMetrics } from './metrics.js';
import {
  bodyNotJson,
  invalidBody,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
} from './refusals.js';
import { keepRequestIdInHeader, sendProblem } from './reply.js';
import { requestIdFor, requestIdOfContext } from './request-id.js';
import { boundJsonDepth, jsonTooDeepProblem, refuseControlsInUrl, wasTooDeep } from './request-guards.js';
import { methodTable, routeTable } from './route-table.js';
import { nameHttpSpan } from '../../src/telemetry/http-span.js';

/** Options of {@link createApiApp}. */
export interface ApiAppOptions {
  /**
   * Where failures are logged, under the kit's log policy (never bodies, parameters or credentials). Default: silent.
   */
  logger?: Logger;
  /** Largest request body. Default 1 MiB. */
  bodyLimitBytes?: number;
  /**
   * The level of the one line logged per answer (`reqId`, method, route pattern, status, ms). Default `debug`; `false`:
   * none.
   */
  requestLog?: 'info' | 'debug' | false;
  /**
   * Refusals carry the request's id as `requestId` (besides the header). Default true; the sandbox says
   * false: it answers the wallet service's documented bodies word for word.
   */
  requestIdInBody?: boolean;
  /**
   * Metrics served at `GET /metrics` (see `mountMetrics`). Default: a fresh set for this app. `false`: no `/metrics`.
   */
  metrics?: ApiMetrics | false;
}

/** The Node request of `c` when it came over a socket; undefined for `app.request()`. */
function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * An OpenAPIHono app with the kit's conventions, for the sandbox, the Loyalty
 * server and the Callback receiver: zod validation failures answer 400
 * `BAD_REQUEST` with `<field>: <message>` lines; a body that is not JSON 400;
 * a body nested deeper than 64 levels 400 (before anything walks it); a control
 * character in the path or query 400; over the limit 413; unknown routes 404; a
 * known path under another method 405 with `Allow` (before any auth); a thrown
 * {@link HttpProblem} its own envelope; input the database refuses as invalid
 * data (SQLSTATE class 22) 400; a client gone mid-body 499, logged at `info`;
 * the kit's own failures as `problemFor` (failures.ts) maps them for every server;
 * anything else 500 `INTERNAL`, logged, with nothing internal in the answer.
 * Every answer carries `x-request-id` (the caller's when sane, else a new
 * UUID; refusals carry it as `requestId` too), is logged in one line, and is counted in the metrics served
 * at `GET /metrics` (process metrics and `wpk_http_requests_total`).
 *
 * @example
 * const app = createApiApp({ logger });
 * app.openapi(route, (c) => c.json(...));
 */
export function createApiApp<E extends Env = Env>(options: ApiAppOptions = {}): OpenAPIHono<E> {
  const {
    logger: given,
    bodyLimitBytes = 1024 * 1024,
    metrics = apiMetrics(),
    requestLog = 'debug',
    requestIdInBody = true,
  } = options;
  const logger = withLogPolicy(given ?? silentLogger());
  const app = new OpenAPIHono<E>({
    defaultHook: (result, c) => {
      if (!result.success) return sendProblem(c, invalidBody(result.error));
      return undefined;
    },
  });
  const routes = routeTable(app);
  app.use('*', async (c, next) => {
    const id = requestIdFor(c);
    c.header(REQUEST_ID_HEADER, id);
    if (!requestIdInBody) keepRequestIdInHeader(c);
    const started = performance.now();
    // Everything the request starts knows its id (the sandbox stores it with a transaction it creates).
    await withRequestId(id, next);
    nameHttpSpan(c.req.method, routes(c.req.path)?.route);
    if (requestLog !== false) {
      // The route pattern, never the path: a path may hold a card number.
      logger[requestLog](
        {
          reqId: id,
          method: c.req.method,
          route: routes(c.req.path)?.route ?? 'unmatched',
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  });
  if (metrics !== false) mountMetrics(app, metrics);
  app.use('*', refuseControlsInUrl());
  const allowedMethods = methodTable(app);
  app.use('*', async (c, next) => {
    const allowed = allowedMethods(c.req.path, c.req.method);
    if (allowed !== undefined) throw methodNotAllowed(allowed);
    await next();
  });
  app.use('*', boundJsonDepth());
  app.use(
    '*',
    requestBodyLimit(bodyLimitBytes, (c) => sendProblem(c, payloadTooLarge(bodyLimitBytes))),
  );
  app.onError((error, c) => {
    const incoming = incomingOf(c);
    // Aborted: the request's signal says the client went, whatever the body's reader made of the cut-short body.
    const aborted = c.req.raw.signal?.aborted === true || isClientAbort(error, incoming);
    if (error instanceof HTTPException && !aborted) {
      if (error.status === 400) return sendProblem(c, wasTooDeep(c) ? jsonTooDeepProblem() : bodyNotJson());
      if (error.status === 415) return sendProblem(c, unsupportedMediaType());
    }
    // A client gone mid-body gets 499, the cash desk's answer: counted and logged apart, read by nobody.
    const request = { method: c.req.method, path: c.req.path, reqId: requestIdOfContext(c), incoming, aborted };
    return sendProblem(c, problemFor(error, logger, request));
  });
  app.notFound((c) => sendProblem(c, notFound()));
  return app;
}

/**
 * Serves the app's OpenAPI 3.1 document at `GET /openapi.json`, built once on
 * first request (routes are fixed by then).
 */
export function serveOpenApi(
  app: OpenAPIHono<Env>,
  info: { title: string; version: string; description?: string },
): void {
  let document: string | undefined;
  app.get('/openapi.json', (c) => {
    document ??= JSON.stringify(app.getOpenAPI31Document({ openapi: '3.1.0', info }));
    return c.body(document, 200, { 'Content-Type': 'application/json' });
  });
}
