import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { errorEnvelope, validationErrors } from '../contracts/errors.js';
import { currentRequestId, REQUEST_ID_HEADER, requestIdFrom, silentLogger, withLogPolicy, withRequestId } from '../log/index.js';
import { requestBodyLimit } from './body-limit.js';
import { clientAborted, databaseRefusal } from './failures.js';
import { boundJsonDepth, jsonTooDeepProblem, refuseControlsInUrl, wasTooDeep } from './guards.js';
import { methodTable, routeTable } from './methods.js';
import { apiMetrics, mountMetrics, type ApiMetrics } from './metrics.js';
import { HttpProblem, problem } from './problem.js';
import { nameHttpSpan } from '../telemetry/http-span.js';

/** Options of {@link createApiApp}. */
export interface ApiAppOptions {
  /** Where failures are logged, under the kit's log policy (never bodies, parameters or credentials). Default: silent. */
  logger?: Logger;
  /** Largest request body. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** The level of the one line logged per answer (`reqId`, method, route pattern, status, ms). Default `debug`; `false`: none. */
  requestLog?: 'info' | 'debug' | false;
  /**
   * Refusals carry the request's id as `requestId` (besides the header). Default true; the sandbox says
   * false: it answers the wallet service's documented bodies word for word.
   */
  requestIdInBody?: boolean;
  /** Metrics served at `GET /metrics` (see `mountMetrics`). Default: a fresh set for this app. `false`: no `/metrics`. */
  metrics?: ApiMetrics | false;
}

export { REQUEST_ID_HEADER };

/** The id of the request `c` answers (the one in its `x-request-id`). */
export function requestIdOf(c: Context): string | undefined {
  return currentRequestId() ?? c.res.headers.get(REQUEST_ID_HEADER) ?? undefined;
}

/** Apps whose refusals leave the id out of the body (`requestIdInBody: false`). */
const headerOnly = new WeakSet<object>();

/** A refusal's envelope, with the request's id unless the app keeps it to the header. */
function refusal(c: Context, status: string, errors: readonly string[]) {
  return errorEnvelope(status, errors, headerOnly.has(c.req.raw) ? undefined : requestIdOf(c));
}

/** Answers a refusal as the error envelope, with the request's id. */
export function sendProblem(c: Context, p: HttpProblem): Response {
  return c.json(refusal(c, p.status, p.errors), p.httpStatus as 400, p.headers);
}

/**
 * An OpenAPIHono app with the kit's conventions, for the sandbox, the Loyalty
 * server and the Callback receiver: zod validation failures answer 400
 * `BAD_REQUEST` with `<field>: <message>` lines; a body that is not JSON 400;
 * a body nested deeper than 64 levels 400 (before anything walks it); a control
 * character in the path or query 400; over the limit 413; unknown routes 404; a
 * known path under another method 405 with `Allow` (before any auth); a thrown
 * {@link HttpProblem} its own envelope; input the database refuses as invalid
 * data (SQLSTATE class 22) 400; a client gone mid-body logged at `info`;
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
  const { logger: given, bodyLimitBytes = 1024 * 1024, metrics = apiMetrics(), requestLog = 'debug', requestIdInBody = true } = options;
  const logger = withLogPolicy(given ?? silentLogger());
  const app = new OpenAPIHono<E>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json(refusal(c, 'BAD_REQUEST', validationErrors(result.error)), 400);
      return undefined;
    },
  });
  const routes = routeTable(app);
  app.use('*', async (c, next) => {
    const id = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.header(REQUEST_ID_HEADER, id);
    if (!requestIdInBody) headerOnly.add(c.req.raw);
    const started = performance.now();
    // Everything the request starts knows its id (the sandbox stores it with a transaction it creates).
    await withRequestId(id, next);
    nameHttpSpan(c.req.method, routes(c.req.path)?.route);
    if (requestLog !== false) {
      // The route pattern, never the path: a path may hold a card number.
      logger[requestLog]({ reqId: id, method: c.req.method, route: routes(c.req.path)?.route ?? 'unmatched', status: c.res.status,
        ms: Math.round(performance.now() - started) }, 'request');
    }
  });
  if (metrics !== false) mountMetrics(app, metrics);
  app.use('*', refuseControlsInUrl());
  const allowedMethods = methodTable(app);
  app.use('*', async (c, next) => {
    const allowed = allowedMethods(c.req.path, c.req.method);
    if (allowed !== undefined) {
      throw problem(405, 'METHOD_NOT_ALLOWED', [`method: must be ${allowed.join(' or ')}`], { allow: allowed.join(', ') });
    }
    await next();
  });
  app.use('*', boundJsonDepth());
  app.use('*', requestBodyLimit(bodyLimitBytes,
    (c) => c.json(refusal(c, 'PAYLOAD_TOO_LARGE', [`body: must be at most ${bodyLimitBytes} bytes`]), 413)));
  app.onError((error, c) => {
    if (error instanceof HttpProblem) return sendProblem(c, error);
    if (clientAborted(c)) {
      logger.info({ reqId: requestIdOf(c), method: c.req.method, path: c.req.path }, 'request aborted by the client');
      return c.json(refusal(c, 'REQUEST_ABORTED', ['body: the client closed the connection before the body ended']), 400);
    }
    if (error instanceof HTTPException && error.status === 400) {
      if (wasTooDeep(c)) return sendProblem(c, jsonTooDeepProblem());
      return c.json(refusal(c, 'BAD_REQUEST', ['body: must be JSON']), 400);
    }
    const refused = databaseRefusal(error);
    if (refused !== undefined) {
      logger.warn({ err: error, reqId: requestIdOf(c), method: c.req.method, path: c.req.path }, 'input refused by the database');
      return sendProblem(c, refused);
    }
    if (error instanceof HTTPException && error.status === 415) {
      return c.json(refusal(c, 'UNSUPPORTED_MEDIA_TYPE', ['Content-Type: must be application/json']), 415);
    }
    logger.error({ err: error, reqId: requestIdOf(c), method: c.req.method, path: c.req.path }, 'request failed');
    return c.json(refusal(c, 'INTERNAL', ['Internal error']), 500);
  });
  app.notFound((c) => c.json(refusal(c, 'NOT_FOUND', ['No such route']), 404));
  return app;
}

/**
 * Serves the app's OpenAPI 3.1 document at `GET /openapi.json`, built once on
 * first request (routes are fixed by then).
 */
export function serveOpenApi(app: OpenAPIHono<any>, info: { title: string; version: string; description?: string }): void {
  let document: string | undefined;
  app.get('/openapi.json', (c) => {
    document ??= JSON.stringify(app.getOpenAPI31Document({ openapi: '3.1.0', info }));
    return c.body(document, 200, { 'Content-Type': 'application/json' });
  });
}
