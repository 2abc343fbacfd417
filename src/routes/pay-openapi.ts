import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { VERSION } from '../version.js';
import { registerWebhookSecurity } from './webhook-security.js';
import { PAY_ERROR_STATUS } from '../contracts/pay/errors.js';
import { PAY_ROUTES, PAY_SECURITY_SCHEME, PAY_SECURITY_SCHEME_OBJECT, transactionUpdatedWebhook } from './pay.js';
import { demoServers, OPENAPI_LICENSE } from './openapi-info.js';

function description(): string {
  const codes = Object.entries(PAY_ERROR_STATUS)
    .map(([code, status]) => `\`${code}\` ${status}`)
    .join(', ');
  return [
    'The Pay API of the wallet service as the sandbox serves it, with the wallet-app simulator and the test ' +
      'controls under `/sandbox/`.',
    '',
    `Every non-2xx answer is \`{ "status": "<CODE>", "errors": ["<field>: <message>" | "<message>"] }\`; codes: ` +
      `${codes}`,
    '(and, from the sandbox, `UNSUPPORTED_MEDIA_TYPE` 415, `UNAVAILABLE` 503). Checks run in this order, the ' +
      'first failure answers:',
    'token (401), body shape (400), amounts (422), then stored state (404, 409). Nothing is stored for a refused ' +
      'request.',
    'Amounts are integers in kopecks: totalAmount = sum(quantity x price) - discountAmount.',
  ].join('\n');
}

/** Registers the Pay API's security scheme and `transaction.updated` webhook on an app, for its document. */
export function registerPayOpenApi(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', PAY_SECURITY_SCHEME, PAY_SECURITY_SCHEME_OBJECT);
  registerWebhookSecurity(app);
  app.openAPIRegistry.registerWebhook(transactionUpdatedWebhook);
}

/**
 * The OpenAPI 3.1 document of the Pay API, plus the routes a server adds
 * beside it (the sandbox passes its simulator and test controls), made from
 * the same schemas that validate requests, without starting a server.
 *
 * @example
 * writeFileSync('pay.json', JSON.stringify(payOpenApiDocument(), null, 2));
 */
export function payOpenApiDocument(extraRoutes: readonly RouteConfig[] = []): object {
  const app = new OpenAPIHono();
  registerPayOpenApi(app);
  for (const route of [...Object.values(PAY_ROUTES), ...extraRoutes]) app.openAPIRegistry.registerPath(route);
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Pay API (wallet-partner-kit sandbox)',
      version: VERSION,
      description: description(),
      license: OPENAPI_LICENSE,
    },
    servers: demoServers(8090, 'The sandbox wallet service'),
  });
}
