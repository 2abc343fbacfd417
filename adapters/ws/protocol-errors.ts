import { randomUUID } from 'node:crypto';
import { failure, JsonRpcErrorCode, type JsonRpcFailure, type JsonRpcId } from './jsonrpc.js';

/**
 * The bridge's own error codes (`error.data.code`): a frame or a call refused by the JSON-RPC layer before any
 * method ran, each with the specification's `error.code` and `error.message` it is answered with, and when (for
 * the AsyncAPI document). Every other code a till sees is a kit error's, from the code table (src/errors/codes.ts).
 */
export const BRIDGE_ERROR_CODES = {
  PARSE_ERROR: { jsonRpc: JsonRpcErrorCode.ParseError, message: 'Parse error', when: 'not JSON text' },
  INVALID_REQUEST: {
    jsonRpc: JsonRpcErrorCode.InvalidRequest,
    message: 'Invalid Request',
    when: 'not a JSON-RPC 2.0 request object, or an empty batch',
  },
  BINARY_FRAME: {
    jsonRpc: JsonRpcErrorCode.InvalidRequest,
    message: 'Invalid Request',
    when: 'a binary frame: send text frames',
  },
  BATCH_TOO_LARGE: {
    jsonRpc: JsonRpcErrorCode.InvalidRequest,
    message: 'Invalid Request',
    when: 'a batch over `maxBatch` calls: refused whole, no call of it ran',
  },
  METHOD_NOT_FOUND: {
    jsonRpc: JsonRpcErrorCode.MethodNotFound,
    message: 'Method not found',
    when: 'an unknown method',
  },
  /**
   * The kit's `BAD_REQUEST` for params the method's schema refuses, numbered as the specification's invalid params
   * (-32602): the code table's -32010 is for a Pay API's `BAD_REQUEST` relayed.
   */
  BAD_REQUEST: {
    jsonRpc: JsonRpcErrorCode.InvalidParams,
    message: 'Invalid params',
    when: 'the params fail the schema, or are an array (params are named)',
  },
} as const;

/** One of the bridge's own error codes. */
export type BridgeErrorCode = keyof typeof BRIDGE_ERROR_CODES;

/** The bridge's codes answered with the JSON-RPC `error.code` `jsonRpc`, each with when, in the table's order. */
export function bridgeCodesOf(jsonRpc: number): Record<string, string> {
  return Object.fromEntries(
    Object.entries(BRIDGE_ERROR_CODES)
      .filter(([, mapping]) => mapping.jsonRpc === jsonRpc)
      .map(([code, mapping]) => [code, mapping.when]),
  );
}

/**
 * The failed response for one of the bridge's own codes, with a fresh `data.requestId` for the log line.
 * `errors`: `<field>: <message>` lines saying what is wrong.
 */
export function bridgeFailure(id: JsonRpcId, code: BridgeErrorCode, errors?: string[]): JsonRpcFailure {
  const { jsonRpc, message } = BRIDGE_ERROR_CODES[code];
  const requestId = randomUUID();
  return failure(id, jsonRpc, message, errors === undefined ? { code, requestId } : { code, errors, requestId });
}
