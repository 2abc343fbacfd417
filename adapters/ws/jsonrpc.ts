/**
 * JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as the bridge speaks
 * it: the message shapes, the error codes, and the check of a request object.
 */

import { JSON_RPC } from '../../src/errors/codes.js';

/**
 * A number id whose text JSON.stringify would not reproduce (past 2^53, `1.0`, `1e3`): kept as the till wrote it,
 * so the answer carries the same digits. `toJSON` is only a fallback; the bridge writes `text` itself.
 */
export class NumberId {
  /** @param text the id's JSON number text, exactly as it was in the request. */
  constructor(readonly text: string) {}

  /** The nearest double, for anything that serialises the id without {@link idText}. */
  toJSON(): number {
    return Number(this.text);
  }
}

/** A request id: echoed exactly as written so a till can match (and safely retry) its calls. */
export type JsonRpcId = string | number | NumberId | null;

/** An id as JSON text, digit for digit as the till sent it. */
export function idText(id: JsonRpcId): string {
  return id instanceof NumberId ? id.text : JSON.stringify(id);
}

/**
 * Every `error.code` the bridge answers with. The first five are the
 * specification's; the -32000..-32099 range carries the kit's own errors, one
 * fixed code per `KitError#code` (the same code is in `error.data.code`).
 */
export const JsonRpcErrorCode = {
  /** The frame is not JSON. The response id is null. */
  ParseError: -32700,
  /** Not a request: wrong `jsonrpc`, no `method`, bad `id` or `params`, empty or oversized batch, binary frame. */
  InvalidRequest: -32600,
  /** No such method. */
  MethodNotFound: -32601,
  /** Params refused by the method's schema; `data.errors` lists `<field>: <message>` lines. */
  InvalidParams: -32602,
  /** A bug on the server side; nothing about it is sent, it is logged. */
  InternalError: JSON_RPC.internal,
  /** A kit error without a code of its own below (`data.code` names it). */
  ServerError: JSON_RPC.serverError,
  /** `token.get`: `requestData` is not JSON text (`RequestDataError`). */
  RequestDataInvalid: JSON_RPC.requestDataInvalid,
  /** The shared replay/lockout store failed; the barcode was neither accepted nor refused: retry. */
  StoreUnavailable: JSON_RPC.storeUnavailable,
  /** The server's verifier is closed (the server is stopping). */
  VerifierClosed: JSON_RPC.verifierClosed,
  /** A `pay.*` call needs the database, which does not answer: retry after `data.retryAfterMs`. */
  DatabaseUnavailable: JSON_RPC.databaseUnavailable,
} as const;

/** One of the codes of `JsonRpcErrorCode`. */
export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/**
 * The stable, machine-readable part of every error the bridge sends, in
 * `error.data.code`: one of the bridge's own (protocol-errors.ts: `PARSE_ERROR`,
 * `INVALID_REQUEST`, `BINARY_FRAME`, `BATCH_TOO_LARGE`, `METHOD_NOT_FOUND`,
 * `BAD_REQUEST` for invalid params) or a `KitError` code of the code table
 * (`INTERNAL`, `REQUEST_DATA_INVALID`...).
 */
export interface JsonRpcErrorData {
  code: string;
  /** `<field>: <message>` lines, for INVALID_REQUEST, BATCH_TOO_LARGE, BINARY_FRAME and BAD_REQUEST. */
  errors?: string[];
  /** The id of this failure in the server's log lines (a `pay.*` call's: the one its Pay API requests carried). */
  requestId?: string;
  /** For DATABASE_UNAVAILABLE: how long to wait before the same call again, in ms. */
  retryAfterMs?: number;
}

/** The `error` member of a failed response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data: JsonRpcErrorData;
}

/** A call as sent by a till; without `id` it is a notification and gets no response. */
export interface JsonRpcRequest<P = unknown> {
  jsonrpc: '2.0';
  method: string;
  params?: P;
  id?: JsonRpcId;
}

/** A successful response. */
export interface JsonRpcSuccess<R = unknown> {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: R;
}

/** A failed response. */
export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

/** What the bridge sends back for one call. */
export type JsonRpcResponse<R = unknown> = JsonRpcSuccess<R> | JsonRpcFailure;

/** Builds a failed response. */
export function failure(id: JsonRpcId, code: number, message: string, data: JsonRpcErrorData): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: { code, message, data } };
}

/** Builds a successful response. */
export function success<R>(id: JsonRpcId, result: R): JsonRpcSuccess<R> {
  return { jsonrpc: '2.0', id, result };
}

/**
 * A response as JSON text, the same as `JSON.stringify(response)`. The
 * envelope of a success is written by hand, so only the result goes through
 * JSON.stringify: this runs once per call.
 */
export function responseText(response: JsonRpcResponse): string {
  // The id is written by hand in both shapes: a NumberId's text must go out as it came in.
  if ('result' in response) {
    const result = JSON.stringify(response.result);
    // `undefined` (no result, or a toJSON returning nothing) leaves the member out, as JSON.stringify does.
    return `{"jsonrpc":"2.0","id":${idText(response.id)}${result === undefined ? '' : `,"result":${result}`}}`;
  }
  return `{"jsonrpc":"2.0","id":${idText(response.id)},"error":${JSON.stringify(response.error)}}`;
}

/** The outcome of checking one element of a frame against the request shape. */
export type RequestCheck =
  | { ok: true; request: JsonRpcRequest; notification: boolean }
  | { ok: false; id: JsonRpcId; errors: string[] };

/**
 * Checks that a parsed value is a request object. Invalid requests are always
 * answered (a notification cannot be told apart from a broken request), with
 * the request's id when that id itself is valid, so the till can match it.
 *
 * @param rawId the id member's text in the frame (see raw-ids.ts): with it, any JSON number is an id, echoed as
 *   written; without it, only numbers a JSON round trip keeps unchanged are.
 */
export function checkRequest(value: unknown, rawId?: string): RequestCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, id: null, errors: ['request: must be an object'] };
  }
  const object = value as Record<string, unknown>;
  const errors: string[] = [];
  const hasId = Object.hasOwn(object, 'id');
  const given = hasId && typeof object.id === 'number' && rawId !== undefined ? numberId(object.id, rawId) : object.id;
  const idValid = !hasId || isId(given);
  if (!idValid) errors.push('id: must be a string, a number or null');
  if (object.jsonrpc !== '2.0') errors.push('jsonrpc: must be "2.0"');
  if (typeof object.method !== 'string') errors.push('method: must be a string');
  const params = object.params;
  if (Object.hasOwn(object, 'params') && (typeof params !== 'object' || params === null)) {
    errors.push('params: must be an object or an array');
  }
  const id = hasId && idValid ? (given as JsonRpcId) : null;
  if (errors.length > 0) return { ok: false, id, errors };
  const request: JsonRpcRequest = { jsonrpc: '2.0', method: object.method as string, params };
  if (hasId) request.id = id;
  return { ok: true, request, notification: !hasId };
}

/** The id to echo for a number written as `text`: the plain number when JSON.stringify writes it back the same. */
function numberId(value: number, text: string): number | NumberId {
  return JSON.stringify(value) === text ? value : new NumberId(text);
}

/**
 * Strings, null, numbers kept as written, and (without their text) numbers
 * that survive a JSON round trip unchanged: a number beyond 2^53 has been
 * rounded by JSON.parse, so echoing it would answer a different id than the
 * till sent (and confuse its retries).
 */
function isId(id: unknown): id is JsonRpcId {
  if (id === null || typeof id === 'string' || id instanceof NumberId) return true;
  return typeof id === 'number' && Number.isFinite(id) && Math.abs(id) <= Number.MAX_SAFE_INTEGER;
}
