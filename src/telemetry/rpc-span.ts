import { type Context, context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { contextOf, kitTracer } from './tracing.js';

/** A call's `params._meta`: where a JSON-RPC caller may put its W3C trace context (`traceparent`, `tracestate`). */
export interface CallMeta {
  traceparent?: unknown;
  tracestate?: unknown;
}

/** The `_meta` member of a call's params, when it is an object. */
export function callMeta(params: unknown): CallMeta | undefined {
  if (typeof params !== 'object' || params === null || !Object.hasOwn(params, '_meta')) return undefined;
  const meta = (params as { _meta: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? (meta as CallMeta) : undefined;
}

/**
 * The params without their `_meta` object (trace context, not an argument of the method), so the method's
 * schema sees only its own members; the params themselves when there is none.
 */
export function withoutMeta(params: unknown): unknown {
  if (callMeta(params) === undefined) return params;
  const { _meta: _, ...rest } = params as Record<string, unknown>;
  return rest;
}

/**
 * The parent of a call: the trace context its `params._meta` carries, else the current one (the connection's,
 * from the `traceparent` of its upgrade request, when it gave one).
 */
export function callParent(params: unknown): Context {
  const meta = callMeta(params);
  return typeof meta?.traceparent === 'string' ? contextOf(meta.traceparent, meta.tracestate) : context.active();
}

/**
 * Runs one JSON-RPC call as a server span `method` under `parent`; the span is current while the call runs and
 * ends when its outcome is there. `failure` reads an outcome's error code (undefined when it succeeded).
 */
export function traceCall<T>(
  method: string,
  parent: Context,
  run: () => T | PromiseLike<T>,
  failure: (outcome: T) => string | undefined,
): T | Promise<T> {
  const span = kitTracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: { 'rpc.system': 'jsonrpc', 'rpc.method': method },
    },
    parent,
  );
  const end = (outcome: T): T => {
    const code = failure(outcome);
    if (code !== undefined) {
      span.setAttribute('rpc.jsonrpc.error_code', code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    }
    span.end();
    return outcome;
  };
  const outcome = context.with(trace.setSpan(parent, span), run);
  if (typeof (outcome as PromiseLike<T> | null)?.then !== 'function') return end(outcome as T);
  return Promise.resolve(outcome).then(end, (error: unknown) => {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    throw error;
  });
}

/** Remembered trace contexts of upgraded sockets: a bridge connection's calls join the one its upgrade carried. */
const connections = new WeakMap<object, Context>();

/** Keeps the W3C trace context of an upgrade request for the connection on `socket` (only while tracing). */
export function rememberUpgradeTrace(socket: object, headers: Readonly<Record<string, unknown>>): void {
  if (typeof headers.traceparent === 'string')
    connections.set(socket, contextOf(headers.traceparent, headers.tracestate));
}

/** The trace context the upgrade of `socket` carried, if any. */
export function upgradeTrace(socket: object): Context | undefined {
  return connections.get(socket);
}
