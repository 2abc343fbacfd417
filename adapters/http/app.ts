import { OpenAPIHono } from '@hono/zod-openapi';
import { ServerMetrics } from '../../src/server/metrics.js';
import type { CashDeskService } from '../../src/server/service.js';
import { closeAfterRefusal } from './connection.js';
import { limitBody, requireJsonMediaType, requireTill } from './guards.js';
import { type HttpAdapterOptions, resolveHttpAdapterOptions } from './options.js';
import { errorHandler, notFoundHandler, validationHook } from './problems.js';
import { countRequests } from './request-metrics.js';
import { ALLOWED_METHODS, healthRoute, metricsRoute, PATHS, registerComponents, tokenRoute, verifyRoute } from './routes.js';
import { readRequestData } from './token-body.js';

/**
 * The cash desk server's HTTP API (DESIGN.md section 7) over a
 * {@link CashDeskService}: `POST /v1/barcode/verify`, `POST /v1/token` (till
 * key required), `GET /healthz`, `GET /metrics`, `GET /openapi.json`. Every
 * refusal is the envelope `{ status, errors[] }`; the OpenAPI 3.1 document is
 * generated from the same zod schemas that validate the requests.
 *
 * @throws ConfigError when `options` are invalid.
 * @example
 * const app = createHttpApp(service, { logger });
 * const { url, close } = await serveHttp(app, { port: 8080 });
 */
export function createHttpApp(service: CashDeskService, options?: HttpAdapterOptions): OpenAPIHono {
  const { bodyLimitBytes, logger } = resolveHttpAdapterOptions(options);
  const app = new OpenAPIHono({ defaultHook: validationHook });

  // First, so it sees the final response of every request, errors and 404s included.
  app.use('*', countRequests(service.metrics, new Set(ALLOWED_METHODS.keys())));
  app.use('*', closeAfterRefusal);
  app.onError(errorHandler(logger));
  app.notFound(notFoundHandler(ALLOWED_METHODS));
  registerComponents(app);

  // Auth before the body limit: an unauthenticated caller is refused without its body being read.
  const guards = [requireTill(service), limitBody(bodyLimitBytes)];

  app.openapi(verifyRoute(guards), async (c) => {
    const { fullBarcode } = c.req.valid('json');
    return c.json(await service.verify(fullBarcode), 200);
  });
  app.openapi(tokenRoute([...guards, requireJsonMediaType]), async (c) => {
    const requestData = await readRequestData(c);
    return c.json({ token: service.token(requestData) }, 200);
  });
  app.openapi(healthRoute, (c) => c.json(service.health(), 200));
  app.openapi(metricsRoute, (c) => c.text(service.metrics.render(), 200, { 'Content-Type': ServerMetrics.contentType }));

  // Routes are fixed once this function returns, so the document is built once, on first request.
  let document: string | undefined;
  app.get(PATHS.openapi, (c) => {
    document ??= JSON.stringify(app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'wallet-partner-kit cash desk server',
        version: service.health().version,
        description: 'Barcode verification and Pay API token signing for cash desks. Errors are `{ status, errors[] }`.',
      },
    }));
    return c.body(document, 200, { 'Content-Type': 'application/json' });
  });
  return app;
}
