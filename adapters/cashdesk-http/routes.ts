import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  Health,
  MAX_VERIFY_BATCH,
  TokenRequest,
  TokenResponse,
  Verification,
  VerifyBatchRequest,
  VerifyBatchResponse,
  VerifyRequest,
} from '../../src/contracts/cashdesk.js';
import { ErrorEnvelope } from '../../src/contracts/errors.js';
import { ServerMetrics } from '../../src/cashdesk/metrics.js';
import { METRICS_DESCRIPTION } from '../../src/routes/ops.js';

/** Paths of the HTTP adapter (the README's Cash desk server). */
export const PATHS = {
  verify: '/v1/barcode/verify',
  verifyBatch: '/v1/barcode/verify-batch',
  token: '/v1/token',
  health: '/healthz',
  live: '/livez',
  metrics: '/metrics',
  openapi: '/openapi.json',
  asyncapi: '/asyncapi.json',
} as const;

/** Security scheme names in the OpenAPI document: the till key, in a header or the query. */
export const SECURITY_SCHEMES = { bearer: 'tillKey', query: 'tillKeyQuery' } as const;

/** Declares the till key schemes (and the token body's `TokenRequest`) in the app's OpenAPI registry. */
export function registerComponents(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', SECURITY_SCHEMES.bearer, {
    type: 'http',
    scheme: 'bearer',
    description: "The till's key: `Authorization: Bearer <key>`.",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', SECURITY_SCHEMES.query, {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description: "The till's key as `?key=`, for tills that cannot set headers.",
  });
  // The token body is described by hand (below), so its schema is registered explicitly for the $ref. A clone made
  // now: zod copies ZodType's prototype methods (`.openapi`, which register() calls) onto a schema when it is made,
  // and the contract may have been made before @hono/zod-openapi extended zod (register() then threw: a 500).
  app.openAPIRegistry.register('TokenRequest', TokenRequest.clone());
}

// Either scheme admits the request.
const tillSecurity: Array<Record<string, string[]>> = [
  { [SECURITY_SCHEMES.bearer]: [] },
  { [SECURITY_SCHEMES.query]: [] },
];

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ErrorEnvelope } } };
}

const postErrors = {
  400: errorResponse(
    'The body is not JSON or fails the schema (`BAD_REQUEST`, one `<field>: <message>` line per problem).',
  ),
  401: errorResponse('No till key, or a key of no till (`UNAUTHORIZED`). Sent with `WWW-Authenticate: Bearer`.'),
  413: errorResponse('The body is over the configured limit (`PAYLOAD_TOO_LARGE`).'),
  415: errorResponse('The body is not declared as `application/json` (`UNSUPPORTED_MEDIA_TYPE`).'),
  429: errorResponse(
    'Too many wrong till keys from this address (`TOO_MANY_REQUESTS`): locked out, the key not checked. ' +
      '`Retry-After` gives the seconds left.',
  ),
  500: errorResponse('An unexpected failure (`INTERNAL`); details are logged, never returned.'),
  503: errorResponse(
    'The shared verification store is down (`STORE_UNAVAILABLE`), the verifier is closed ' +
      '(`VERIFIER_CLOSED`) or the server is draining (`SERVICE_UNAVAILABLE`): retry.',
  ),
};

/**
 * `POST /v1/barcode/verify`, for the OpenAPI document only: the route itself
 * is a raw route (raw-route.ts) that checks the same `VerifyRequest` schema.
 */
export const verifyRoute = createRoute({
  operationId: 'verifyBarcode',
  method: 'post',
  path: PATHS.verify,
  summary: 'Verify a scanned barcode',
  description:
    'Splits and checks a loyalty-card barcode (interface document section 2.2). A refused barcode is a 200 with ' +
    '`totpCodeValid: false`.',
  security: tillSecurity,
  request: { body: { required: true, content: { 'application/json': { schema: VerifyRequest } } } },
  responses: {
    200: { description: 'The verification result.', content: { 'application/json': { schema: Verification } } },
    ...postErrors,
  },
});

/**
 * `POST /v1/barcode/verify-batch`, for the OpenAPI document only: the route
 * itself is a raw route (raw-route.ts) that checks the same `VerifyBatchRequest` schema.
 */
export const verifyBatchRoute = createRoute({
  operationId: 'verifyBarcodeBatch',
  method: 'post',
  path: PATHS.verifyBatch,
  summary: 'Verify several scanned barcodes at once',
  description:
    `Verifies 1 to ${MAX_VERIFY_BATCH} barcodes in one request, in the order sent, each exactly as ` +
    '`POST /v1/barcode/verify` would one after the other: `results[i]` answers `fullBarcodes[i]`, and a refused ' +
    'barcode is a ' +
    '`Verification` with `totpCodeValid: false`, never a refusal of the request. A body that fails the schema ' +
    '(not an array, ' +
    `empty, over ${MAX_VERIFY_BATCH} items, an item not a string) is refused whole: no barcode of it is verified.`,
  security: tillSecurity,
  request: { body: { required: true, content: { 'application/json': { schema: VerifyBatchRequest } } } },
  responses: {
    200: {
      description: 'One result per barcode, in order.',
      content: { 'application/json': { schema: VerifyBatchResponse } },
    },
    ...postErrors,
    400: errorResponse(
      'The body is not JSON or fails the schema (`BAD_REQUEST`, one `<field>: <message>` line per problem, ' +
        'items named by index: `fullBarcodes.3: must be a string`).',
    ),
  },
});

/**
 * `POST /v1/token`, for the OpenAPI document only: the route itself is a raw
 * route (raw-route.ts) that reads the body as token-body.ts describes.
 */
export const tokenRoute = createRoute({
  operationId: 'signToken',
  method: 'post',
  path: PATHS.token,
  summary: 'Sign a Pay API request body',
  description:
    'Returns the `X-Wallet-Token` for a request body. Send either the body itself, which is signed byte for byte ' +
    'as received, or `{ "requestData": "<json text>" }`. Text that is not JSON is refused with ' +
    '`REQUEST_DATA_INVALID` and its byte offset.',
  security: tillSecurity,
  request: {
    body: {
      required: true,
      content: {
        // A plain schema object, not zod: the raw form is any JSON and must reach the handler unparsed.
        // anyOf, not oneOf: a { requestData } object is also "any JSON".
        'application/json': {
          schema: {
            anyOf: [
              { $ref: '#/components/schemas/TokenRequest' },
              { description: 'The Pay API request body itself (any JSON text), signed exactly as sent.' },
            ],
          },
        },
      },
    },
  },
  responses: {
    200: { description: 'The token.', content: { 'application/json': { schema: TokenResponse } } },
    ...postErrors,
    400: errorResponse(
      'Not JSON (`REQUEST_DATA_INVALID`, with the byte offset) or `requestData` not a string (`BAD_REQUEST`).',
    ),
  },
});

/** The `/healthz` answer while a dependency does not answer its probe. */
export const HealthUnavailable = z
  .object({
    status: z.literal('unavailable'),
    failing: z.array(z.string()).openapi({ example: ['redis'] }),
  })
  .openapi('HealthUnavailable');

/** `GET /healthz`, unauthenticated. */
export const healthRoute = createRoute({
  operationId: 'health',
  security: [],
  method: 'get',
  path: PATHS.health,
  summary: 'Readiness: the server and the dependencies it needs',
  description:
    "Probes the shared Redis store (when configured) with `PING` and the payments' database " +
    '(when payments are configured) with `SELECT 1`, at most about once a second.',
  responses: {
    200: {
      description: 'The server is up and its dependencies answer.',
      content: { 'application/json': { schema: Health } },
    },
    503: {
      description:
        'A dependency does not answer (named in `failing`: `redis`, `database`): ' +
        'verifications or payments would fail.',
      content: { 'application/json': { schema: HealthUnavailable } },
    },
  },
});

/** `GET /livez`, unauthenticated: 200 while the process answers at all, whatever its dependencies. */
export const liveRoute = createRoute({
  operationId: 'liveness',
  security: [],
  method: 'get',
  path: PATHS.live,
  summary: 'Liveness',
  responses: {
    200: {
      description: 'The process is up.',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
  },
});

/** `GET /metrics`, unauthenticated: the server binds loopback by default and scrapers are expected on the host. */
export const metricsRoute = createRoute({
  operationId: 'metrics',
  security: [],
  method: 'get',
  path: PATHS.metrics,
  summary: 'Prometheus metrics',
  description: METRICS_DESCRIPTION,
  responses: {
    200: {
      description: 'The metrics.',
      content: { [ServerMetrics.contentType]: { schema: z.string() } },
    },
  },
});

/**
 * The POST routes answered from Node's request and response (raw-route.ts), by
 * name: the one list the server mounts (in Hono's router and in the fast path
 * `serveHttp` takes before it) and the OpenAPI document describes, so the two
 * cannot diverge.
 */
export const RAW_POST_ROUTES = { verify: verifyRoute, verifyBatch: verifyBatchRoute, token: tokenRoute } as const;

/** A name of {@link RAW_POST_ROUTES}. */
export type RawPostRouteName = keyof typeof RAW_POST_ROUTES;
