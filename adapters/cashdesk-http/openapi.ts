import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { registerWebhookSecurity, webhookSecurity } from '../../src/routes/webhook-security.js';
import { TransactionUpdatedEvent } from '../../src/contracts/pay/index.js';
import { ErrorEnvelope } from '../../src/contracts/errors.js';
import { VERSION } from '../../src/version.js';
import { documentBackOfficeRoutes } from './back-office-openapi.js';
import { documentPaymentRoutes } from './payments-openapi.js';
import { ticketRoute } from './tickets.js';
import { healthRoute, liveRoute, metricsRoute, PATHS, RAW_POST_ROUTES, registerComponents } from './routes.js';
import { demoServers, OPENAPI_LICENSE } from '../../src/routes/openapi-info.js';
import { withRequestIds } from '../../src/routes/ops.js';

/** Where the Pay service posts `transaction.updated` (mounted when `pay.webhookSecret` is set). */
export const PAY_WEBHOOK_PATH = '/webhooks/pay';

const openapiRoute = createRoute({
  operationId: 'openapi',
  method: 'get',
  path: PATHS.openapi,
  summary: 'This document',
  security: [],
  responses: {
    200: {
      description: 'The OpenAPI 3.1 document.',
      content: { 'application/json': { schema: z.object({}).passthrough() } },
    },
  },
});

const asyncapiRoute = createRoute({
  operationId: 'asyncapi',
  method: 'get',
  path: PATHS.asyncapi,
  summary: 'The AsyncAPI document of the bridge',
  description:
    'The AsyncAPI 3.0 document of the WebSocket bridge (`/ws`, subprotocol `wallet-pos.v1`): ' +
    'its methods, errors and notifications.',
  security: [],
  responses: {
    200: {
      description: 'The AsyncAPI 3.0 document.',
      content: { 'application/json': { schema: z.object({}).passthrough() } },
    },
  },
});

const payWebhookRoute = createRoute({
  operationId: 'payWebhook',
  method: 'post',
  path: PAY_WEBHOOK_PATH,
  summary: "The Pay service's transaction.updated events (mounted when pay.webhookSecret is set)",
  description:
    'Standard Webhooks over the raw body with the configured `whsec_` secret; the payment sessions waiting on ' +
    'the transaction take the status.',
  security: webhookSecurity,
  request: { body: { required: true, content: { 'application/json': { schema: TransactionUpdatedEvent } } } },
  responses: {
    204: { description: 'Taken.' },
    400: {
      description: 'Not JSON, or not a transaction.updated event (`BAD_REQUEST`).',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
    401: {
      description: 'The signature does not verify, the timestamp is stale or a header is missing.',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
    413: {
      description: "The body is over the server's body limit (`PAYLOAD_TOO_LARGE`), refused before it is read.",
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
    500: {
      description: 'The event could not be processed: the service retries.',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
    503: {
      description:
        'The database does not answer (`DATABASE_UNAVAILABLE`), so the state could not be written: ' +
        'the service retries after `Retry-After`.',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
  },
});

/**
 * The cash desk server's OpenAPI 3.1 document (verification, token, payments,
 * health, metrics), from the same route declarations the server mounts, without
 * a server: `GET /openapi.json` answers it and the build writes it to openapi/cashdesk.json.
 */
export function cashDeskOpenApiDocument(version: string = VERSION): object {
  const app = new OpenAPIHono();
  registerComponents(app);
  registerWebhookSecurity(app);
  const routes = [
    ...Object.values(RAW_POST_ROUTES),
    ticketRoute,
    healthRoute,
    liveRoute,
    metricsRoute,
    openapiRoute,
    asyncapiRoute,
    payWebhookRoute,
  ];
  for (const route of routes) app.openAPIRegistry.registerPath(route);
  documentPaymentRoutes(app);
  documentBackOfficeRoutes(app);
  return withRequestIds(
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'wallet-partner-kit cash desk server',
        version,
        description:
          'Barcode verification, Pay API token signing and payments for cash desks. Errors are `{ status, ' +
          'errors[], requestId }`; every answer carries `X-Request-Id`.',
        license: OPENAPI_LICENSE,
      },
      servers: demoServers(8080, 'The cash desk server'),
    }),
  );
}
