import { payOpenApiDocument } from '../../contracts/pay/openapi.js';
import { SIMULATOR_ROUTES } from './simulator-spec.js';

let cached: object | undefined;

/**
 * The sandbox's Pay document: the Pay API with the wallet-app simulator and
 * the test controls under `/sandbox/` (the build script writes it to
 * openapi/pay.json).
 */
export function sandboxPayOpenApiDocument(): object {
  cached ??= payOpenApiDocument(SIMULATOR_ROUTES);
  return structuredClone(cached);
}
