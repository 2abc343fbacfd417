import { createRoute, z } from '@hono/zod-openapi';

/** What every server's `GET /metrics` says of itself in its OpenAPI document. */
export const METRICS_DESCRIPTION = [
  "Prometheus text format 0.0.4: the process's metrics (`process_cpu_seconds_total`, `process_resident_memory_bytes`,",
  '`nodejs_heap_size_used_bytes`, `nodejs_gc_duration_seconds`, `nodejs_eventloop_lag_seconds`, ' +
    '`nodejs_active_handles`, ...)',
  "and the server's own series (`wpk_http_requests_total{route,status}`, ...).",
  'Unauthenticated, like `/healthz`: it holds no secret and no personal data (route patterns, never paths). The ' +
    'servers bind',
  'loopback by default; on an exposed address, keep `/metrics` to the scraper at the reverse proxy.',
].join(' ');

/** `GET /metrics` of the servers built on `createApiApp` (sandbox, Loyalty server, Callback receiver). */
export const metricsOperation = createRoute({
  operationId: 'metrics',
  method: 'get',
  path: '/metrics',
  summary: 'Prometheus metrics',
  security: [],
  description: METRICS_DESCRIPTION,
  responses: {
    200: {
      description: 'The metrics.',
      content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: z.string() } },
    },
  },
});

const HEADER = 'X-Request-Id';

/**
 * Adds the request id to every operation of an OpenAPI 3.1 document: the
 * optional `X-Request-Id` request header (components.parameters.RequestId)
 * and the `X-Request-Id` of every answer (components.headers.RequestId).
 * The kit's servers answer every request with it, refusals with it as
 * `requestId` too. Changes and returns `document`.
 */
export function withRequestIds<T extends object>(document: T): T {
  const doc = document as unknown as {
    paths?: Record<
      string,
      Record<string, { parameters?: unknown[]; responses?: Record<string, { headers?: Record<string, unknown> }> }>
    >;
    components?: { parameters?: Record<string, unknown>; headers?: Record<string, unknown> };
  };
  doc.components ??= {};
  doc.components.parameters = {
    ...doc.components.parameters,
    RequestId: {
      name: HEADER,
      in: 'header',
      required: false,
      description:
        "Your id for this request, to find it in the server's logs: 1 to 128 of `A-Z a-z 0-9 . _ ~ : @ / + = " +
        '-`. Anything else, or none: the server makes one up (a UUID).',
      schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._~:@/+=-]{1,128}$' },
    },
  };
  doc.components.headers = {
    ...doc.components.headers,
    RequestId: {
      description:
        "The request's id: yours when sane, else a UUID. It is in the server's log lines for this request, and " +
        "in a refusal's `requestId`.",
      schema: { type: 'string' },
    },
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method)) continue;
      operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/RequestId' }];
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = { ...response.headers, [HEADER]: { $ref: '#/components/headers/RequestId' } };
      }
    }
  }
  return document;
}
