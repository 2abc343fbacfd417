// A JSON-RPC request checked before it runs: the call to run, or the outcome of one refused without running.
import type { Context } from '@opentelemetry/api';
import { callParent } from '../../src/telemetry/rpc-span.js';
import { checkRequest, type JsonRpcId } from './jsonrpc.js';
import { bridgeFailure } from './protocol-errors.js';
import { type BridgeMethodName, checkParams, InvalidParams, isBridgeMethod } from './methods.js';
import { answer, type CallOutcome } from './frame-outcome.js';

/** A request that passed every check: ready to run. */
export interface Prepared {
  prepared: true;
  method: BridgeMethodName;
  id: JsonRpcId;
  notification: boolean;
  params: unknown;
  /** The call's parent span, when tracing: its `params._meta.traceparent`, else the connection's. */
  parent?: Context;
}

/** True for a call that passed every check. */
export function isPrepared(entry: Prepared | CallOutcome): entry is Prepared {
  return (entry as Prepared).prepared === true;
}

/**
 * Checks a request and its params: the call to run, or the outcome of a call refused without running anything.
 * `count` records each refusal (method, outcome); `tracing`: read the call's parent span.
 */
export function prepareCall(
  value: unknown,
  rawId: string | undefined,
  tracing: boolean,
  count: (method: string, outcome: string) => void,
): Prepared | CallOutcome {
  const check = checkRequest(value, rawId);
  if (!check.ok) {
    count('other', 'INVALID_REQUEST');
    return {
      invalid: true,
      response: bridgeFailure(check.id, 'INVALID_REQUEST', check.errors),
    };
  }
  const { request, notification } = check;
  const id = request.id ?? null;
  if (!isBridgeMethod(request.method)) {
    count('other', 'METHOD_NOT_FOUND');
    return answer(notification, bridgeFailure(id, 'METHOD_NOT_FOUND'));
  }
  const method = request.method;
  const params = checkParams(method, request.params);
  if (params instanceof InvalidParams) {
    count(method, 'BAD_REQUEST');
    return answer(notification, bridgeFailure(id, 'BAD_REQUEST', params.errors));
  }
  const parent = tracing ? callParent(request.params) : undefined;
  return { prepared: true, method, id, notification, params, parent };
}

/** True for a request object whose id JSON.parse made a number: its text is read from the frame. */
export function hasNumberId(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';
}
