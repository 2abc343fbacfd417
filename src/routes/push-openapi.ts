import { OpenAPIHono } from '@hono/zod-openapi';
import { callbackWebhook } from './callback-webhook.js';
import { registerWebhookSecurity } from './webhook-security.js';
import { PUSH_API_VERSION } from '../contracts/push/paths.js';
import { PUSH_ROUTES, PUSH_SECURITY_SCHEME } from './push.js';
import { demoServers, OPENAPI_LICENSE } from './openapi-info.js';
import { withRequestIds } from './ops.js';

const DESCRIPTION = [
  'Push API (interface document 2.5, 3, 4.3, 5, 7, 8): JSON, UTF-8, HTTPS, HTTP Basic (RFC 7617).',
  '',
  'The initial password of an account must be reset with `PUT /public/user/reset-password`; until then every ' +
    'other call answers 401.',
  'Answers: 200 done; 304 too early (no body, `Retry-After`); 400 `BAD_REQUEST`; 401 `UNAUTHORIZED`; 404 `NOT_FOUND`.',
  'Every error body is `{ "status": "<CODE>", "errors": ["<field>: <message>" | "<message>"] }`.',
  '',
  "Callback API: the `pushEvent` webhook below is POSTed to the account's callback URL for each",
  'delivery (`push.delivered`), reading (`push.read`) and failure (`push.failed`), signed per Standard Webhooks.',
  '',
  '| Version | Change |',
  '|---|---|',
  '| 1.0.0 | Initial |',
  '| 1.1.0 | Added PUT /public/user/reset-password |',
].join('\n');

/** Registers the Basic scheme of the Push API on an app, for its OpenAPI document. */
export function registerPushOpenApi(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', PUSH_SECURITY_SCHEME, {
    type: 'http',
    scheme: 'basic',
    description: "The account's login and password (the initial one must be reset first).",
  });
}

let cached: object | undefined;

/**
 * The Push API's OpenAPI 3.1 document with the Callback API as its
 * `webhooks.pushEvent`, made from the schemas that validate requests, without
 * a server.
 *
 * @example
 * writeFileSync('openapi/push.json', JSON.stringify(pushOpenApiDocument(), null, 2));
 */
export function pushOpenApiDocument(): object {
  if (cached) return structuredClone(cached);
  const app = new OpenAPIHono();
  registerPushOpenApi(app);
  for (const route of Object.values(PUSH_ROUTES)) app.openAPIRegistry.registerPath(route);
  registerWebhookSecurity(app);
  app.openAPIRegistry.registerWebhook(callbackWebhook);
  cached = withRequestIds(
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Push API and Callback API',
        version: PUSH_API_VERSION,
        description: DESCRIPTION,
        license: OPENAPI_LICENSE,
      },
      servers: demoServers(8090, 'The sandbox wallet service'),
    }),
  );
  return structuredClone(cached);
}
