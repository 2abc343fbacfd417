import { OpenAPIHono } from '@hono/zod-openapi';
import { LOYALTY_ERROR_STATUS } from '../contracts/loyalty/errors.js';
import { LOYALTY_ROUTES, LOYALTY_SECURITY_SCHEME } from './loyalty.js';
import { LOYALTY_API_VERSION, LOYALTY_API_VERSIONS } from '../contracts/loyalty/versions.js';
import { demoServers, OPENAPI_LICENSE } from './openapi-info.js';
import { metricsOperation, withRequestIds } from './ops.js';

function description(): string {
  const history = LOYALTY_API_VERSIONS.map((v) => `| ${v.version} | ${v.date} | ${v.change} |`).join('\n');
  const codes = Object.entries(LOYALTY_ERROR_STATUS)
    .map(([code, status]) => `\`${code}\` ${status}`)
    .join(', ');
  return [
    'The Loyalty API is served by the merchant and called by the wallet service, with HTTP Basic credentials.',
    '',
    `Every non-2xx answer is \`{ "status": "<CODE>", "errors": ["<field>: <message>" | "<message>"] }\`; codes: ` +
      `${codes}.`,
    "The kit's server adds `requestId` to it, and answers every request with `X-Request-Id`; it also serves " +
      '`GET /metrics`.',
    "What happened to a promo code or a receipt (INVALID, EXPIRED, ALREADY_USED, DUPLICATE) is a 200 answer's " +
      '`result`, not an error.',
    '',
    '| Version | Date | Change |',
    '|---|---|---|',
    history,
  ].join('\n');
}

/** Registers the six routes and the Basic scheme on an app, for its OpenAPI document. */
export function registerLoyaltyOpenApi(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', LOYALTY_SECURITY_SCHEME, {
    type: 'http',
    scheme: 'basic',
    description: 'The login and password the merchant gave the wallet service (RFC 7617).',
  });
}

let cached: object | undefined;

/**
 * The Loyalty API's OpenAPI 3.1 document, made from the same schemas that
 * validate requests: paths under `/v1`, the error envelope, and the version
 * history of the interface document (section 9) in `info` (as a table in
 * `description`, and as `x-version-history`).
 *
 * @example
 * writeFileSync('openapi/loyalty.json', JSON.stringify(loyaltyOpenApiDocument(), null, 2));
 */
export function loyaltyOpenApiDocument(): object {
  if (cached) return structuredClone(cached);
  const app = new OpenAPIHono();
  registerLoyaltyOpenApi(app);
  for (const route of Object.values(LOYALTY_ROUTES)) app.openAPIRegistry.registerPath(route);
  app.openAPIRegistry.registerPath(metricsOperation);
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: { title: 'Loyalty API', version: LOYALTY_API_VERSION, description: description(), license: OPENAPI_LICENSE },
    servers: demoServers(8091, 'The default Loyalty server'),
  }) as unknown as { info: Record<string, unknown> };
  document.info['x-version-history'] = LOYALTY_API_VERSIONS.map((v) => ({ ...v }));
  cached = withRequestIds(document);
  return structuredClone(cached);
}
