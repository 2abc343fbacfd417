import { payOpenApiDocument } from '../../routes/pay-openapi.js';
import { metricsOperation, withRequestIds } from '../../routes/ops.js';
import { SIMULATOR_ROUTES } from './simulator-spec.js';

let cached: object | undefined;

/**
 * The sandbox's Pay document: the Pay API with the wallet-app simulator and
 * the test controls under `/sandbox/`, its `GET /metrics`, and the
 * `X-Request-Id` of every request and answer (the build script writes it to
 * openapi/pay.json).
 */
export function sandboxPayOpenApiDocument(): object {
  cached ??= withRequestIds(payOpenApiDocument([...SIMULATOR_ROUTES, metricsOperation]));
  return structuredClone(cached);
}
