import { z } from '@hono/zod-openapi';
import { MAX_BARCODE_LENGTH, TokenRequest, VerifyRequest } from '../../src/contracts/cashdesk.js';
import type { BarcodeVerification } from '../../src/contracts/barcode.js';
import { validationErrors } from '../../src/contracts/validation-errors.js';
import type { CashDeskService, Health } from '../../src/cashdesk/service.js';
import { withoutMeta } from '../../src/telemetry/rpc-span.js';
import { PAY_METHOD_NAMES, PAY_METHODS, type PayBridgeMethods } from './pay-methods.js';

/**
 * The bridge's methods: names, params and results, for typed clients and the
 * docs. Params are named (a JSON object); `health` takes none.
 *
 * @example
 * const call: JsonRpcRequest<BridgeMethods['barcode.verify']['params']> =
 *   { jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode: scanned } };
 */
export interface BridgeMethods extends PayBridgeMethods {
  /**
   * Verifies a scanned barcode; the result is the `Verification` of the HTTP API (a retry by the same till: `repeated:
   * true`).
   */
  'barcode.verify': { params: z.infer<typeof VerifyRequest>; result: BarcodeVerification };
  /** Signs the JSON text of a Pay API request body; `token` goes in `X-Wallet-Token`. */
  'token.get': { params: z.infer<typeof TokenRequest>; result: { token: string } };
  /** Liveness and version of the server. */
  health: { params?: Record<string, never>; result: Health };
}

/** A method name of the bridge. */
export type BridgeMethodName = keyof BridgeMethods;

/** The method names, in the order the docs list them. */
export const BRIDGE_METHODS = [
  'barcode.verify',
  'token.get',
  'health',
  ...PAY_METHOD_NAMES,
] as const satisfies readonly BridgeMethodName[];

/** No params at all: `{}` (or omitted), unknown members refused like the HTTP API does. */
const NoParams = z.object({}).strict();

interface MethodEntry {
  schema: z.ZodType;
  accepts(params: unknown): boolean;
  run(service: CashDeskService, params: never, tillId: string): unknown;
}

/** Each method's params schema, its fast check, and its call into the service, typed by `BridgeMethods`. */
type MethodTable = {
  [M in BridgeMethodName]: {
    schema: z.ZodType<BridgeMethods[M]['params']>;
    /**
     * A hand-written check of the common valid shape, run before the schema:
     * about 0.02 µs against 0.17 µs for zod's safeParse, some 1% of a call's
     * server time under load. It may only say yes to params the
     * schema accepts unchanged; anything else goes to the schema, which says
     * what is wrong (or accepts what this check is too simple to).
     */
    accepts(params: unknown): params is BridgeMethods[M]['params'];
    /** `tillId`: the till the connection authenticated as (payments are per till). */
    run(
      service: CashDeskService,
      params: BridgeMethods[M]['params'],
      tillId: string,
    ): BridgeMethods[M]['result'] | PromiseLike<BridgeMethods[M]['result']>;
  };
};

/** The HTTP API's own contracts validate the params, so both transports refuse the same input the same way. */
const METHODS: MethodTable = {
  'barcode.verify': {
    schema: VerifyRequest,
    accepts: (params): params is { fullBarcode: string } => onlyStringMember(params, 'fullBarcode', MAX_BARCODE_LENGTH),
    // Not `verify`: with an in-process store the result comes back without a promise (see Dispatcher).
    // The till is the requester, so a till retrying after a lost answer gets it again (`repeated: true`).
    run: (service, { fullBarcode }, tillId) => service.verifySync(fullBarcode, tillId),
  },
  'token.get': {
    schema: TokenRequest,
    accepts: (params): params is { requestData: string } => onlyStringMember(params, 'requestData', Infinity),
    run: (service, { requestData }) => service.tokenAnswer(requestData),
  },
  health: {
    schema: NoParams,
    accepts: (params): params is undefined => params === undefined || isEmptyObject(params),
    run: (service) => service.health(),
  },
  ...PAY_METHODS,
};

/**
 * Each method's params schema, the one `checkParams` validates with, by name:
 * every method the bridge dispatches and no other. The AsyncAPI document is
 * built from these.
 */
export function paramsSchemas(): Record<BridgeMethodName, z.ZodType> {
  const entries = Object.entries(METHODS).map(([name, entry]) => [name, entry.schema] as const);
  return Object.fromEntries(entries) as Record<BridgeMethodName, z.ZodType>;
}

/** Why a call's params were refused: `<field>: <message>` lines. */
export class InvalidParams {
  constructor(readonly errors: string[]) {}
}

/** True for the bridge's own method names (not `toString`, `__proto__` and other inherited keys). */
export function isBridgeMethod(name: string): name is BridgeMethodName {
  return Object.hasOwn(METHODS, name);
}

/**
 * Validates a call's params against its method's schema: the params to run
 * the method with, or `InvalidParams`. Positional (array) params are refused:
 * named members are what the contracts describe, and a legacy till sending
 * `["CM;..."]` gets a message that says so.
 */
export function checkParams(method: BridgeMethodName, params: unknown): unknown {
  if (Array.isArray(params)) return new InvalidParams(['params: must be an object with named members, not an array']);
  const entry = METHODS[method] as MethodEntry;
  if (entry.accepts(params)) return params;
  // Omitted params read as `{}`, so a missing field is named ("fullBarcode: must be a string").
  // A `_meta` object (the caller's trace context, rpc-span.ts) is no argument: the method's own members are checked.
  const parsed = entry.schema.safeParse(withoutMeta(params ?? {}));
  return parsed.success ? parsed.data : new InvalidParams(validationErrors(parsed.error));
}

/**
 * Runs a method with params `checkParams` returned. The result is plain when
 * the service answers synchronously (the in-memory store) and a promise
 * otherwise; a synchronous throw is thrown here.
 */
export function runMethod(
  method: BridgeMethodName,
  service: CashDeskService,
  params: unknown,
  tillId: string,
): unknown {
  return (METHODS[method] as MethodEntry).run(service, params as never, tillId);
}

/** `{ [name]: string of at most maxLength }` and nothing else, as a JSON object from the wire. */
function onlyStringMember(params: unknown, name: string, maxLength: number): boolean {
  if (typeof params !== 'object' || params === null) return false;
  let members = 0;
  // for-in sees inherited enumerable keys too: any such oddity fails here and goes to the schema.
  for (const key in params) {
    if (key !== name) return false;
    members++;
  }
  const value = (params as Record<string, unknown>)[name];
  return members === 1 && typeof value === 'string' && value.length <= maxLength;
}

/** `{}` and nothing else. */
function isEmptyObject(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  for (const _ in params) return false;
  return true;
}
