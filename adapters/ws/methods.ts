import { z } from '@hono/zod-openapi';
import { TokenRequest, VerifyRequest } from '../../src/contracts/cashdesk.js';
import type { BarcodeVerification } from '../../src/contracts/barcode.js';
import { validationErrors } from '../../src/contracts/errors.js';
import type { CashDeskService, Health } from '../../src/server/service.js';

/**
 * The bridge's methods: names, params and results, for typed clients and the
 * docs. Params are named (a JSON object); `health` takes none.
 *
 * @example
 * const call: JsonRpcRequest<BridgeMethods['barcode.verify']['params']> =
 *   { jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode: scanned } };
 */
export interface BridgeMethods {
  /** Verifies a scanned barcode; the result is the `Verification` of the HTTP API. */
  'barcode.verify': { params: z.infer<typeof VerifyRequest>; result: BarcodeVerification };
  /** Signs the JSON text of a Pay API request body; `token` goes in `X-Wallet-Token`. */
  'token.get': { params: z.infer<typeof TokenRequest>; result: { token: string } };
  /** Liveness and version of the server. */
  health: { params?: Record<string, never>; result: Health };
}

/** A method name of the bridge. */
export type BridgeMethodName = keyof BridgeMethods;

/** The method names, in the order the docs list them. */
export const BRIDGE_METHODS = ['barcode.verify', 'token.get', 'health'] as const satisfies readonly BridgeMethodName[];

/** No params at all: `{}` (or omitted), unknown members refused like the HTTP API does. */
const NoParams = z.object({}).strict();

interface MethodEntry {
  schema: z.ZodType;
  run(service: CashDeskService, params: never): unknown;
}

/** Each method's params schema and its call into the service, typed by `BridgeMethods`. */
type MethodTable = {
  [M in BridgeMethodName]: {
    schema: z.ZodType<BridgeMethods[M]['params']>;
    run(service: CashDeskService, params: BridgeMethods[M]['params']): BridgeMethods[M]['result'] | Promise<BridgeMethods[M]['result']>;
  };
};

/** The HTTP API's own contracts validate the params, so both transports refuse the same input the same way. */
const METHODS: MethodTable = {
  'barcode.verify': { schema: VerifyRequest, run: (service, { fullBarcode }) => service.verify(fullBarcode) },
  'token.get': { schema: TokenRequest, run: (service, { requestData }) => ({ token: service.token(requestData) }) },
  health: { schema: NoParams, run: (service) => service.health() },
};

/** A method ready to run, or why its params were refused. */
export type PreparedCall =
  | { ok: true; run(service: CashDeskService): Promise<unknown> }
  | { ok: false; errors: string[] };

/** True for the bridge's own method names (not `toString`, `__proto__` and other inherited keys). */
export function isBridgeMethod(name: string): name is BridgeMethodName {
  return Object.hasOwn(METHODS, name);
}

/**
 * Validates a call's params against its method's schema. Positional (array)
 * params are refused: named members are what the contracts describe, and a
 * legacy till sending `["CM;..."]` gets a message that says so.
 */
export function prepareCall(method: BridgeMethodName, params: unknown): PreparedCall {
  if (Array.isArray(params)) return { ok: false, errors: ['params: must be an object with named members, not an array'] };
  const entry = METHODS[method] as MethodEntry;
  // Omitted params read as `{}`, so a missing field is named ("fullBarcode: must be a string").
  const parsed = entry.schema.safeParse(params ?? {});
  if (!parsed.success) return { ok: false, errors: validationErrors(parsed.error) };
  return { ok: true, run: async (service) => entry.run(service, parsed.data as never) };
}
