import {
  type Attributes,
  type Context,
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { kitTracer, tracingActive } from './tracing.js';

/** What a traced client call says of itself: its span's name and the request it sends. */
export interface ClientCall {
  /** The span's name: `METHOD route` or the operation (`POST /v1/payment/checkout`, `loyalty sendPromoCode`). */
  name: string;
  method: string;
  /** The URL called: only its host and port are recorded (a path or query may hold a card number). */
  url: string;
  /** The request's headers: `traceparent` (and `tracestate`) are added here before `send` runs. */
  headers: Record<string, string>;
  /** More attributes for the span (`wpk.pay.operation`, `wpk.webhook.type`...). */
  attributes?: Attributes;
  /** The parent: default the current context (`ROOT_CONTEXT`: a trace of its own). */
  parent?: Context;
}

/**
 * Runs one outgoing HTTP request as a client span, child of the current span, whose W3C `traceparent` goes out
 * in `call.headers`; the span ends with the answer's status (4xx and 5xx are errors, as for any client) or the
 * failure. Without an SDK it only runs `send`.
 *
 * @example
 * const headers = { 'content-type': 'application/json' };
 * const call = { name: 'POST /hook', method: 'POST', url, headers };
 * const response = await clientSpan(call, () => fetch(url, { method: 'POST', headers, body }));
 */
export async function clientSpan(call: ClientCall, send: () => Promise<Response>): Promise<Response> {
  if (!tracingActive()) return send();
  const parent = call.parent ?? context.active();
  const span = kitTracer().startSpan(
    call.name,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': call.method, ...hostAttributes(call.url), ...call.attributes },
    },
    parent,
  );
  const active = trace.setSpan(parent, span);
  propagation.inject(active, call.headers);
  try {
    const response = await context.with(active, send);
    span.setAttribute('http.response.status_code', response.status);
    if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    return response;
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'failed' });
    throw error;
  } finally {
    span.end();
  }
}

function hostAttributes(url: string): Attributes {
  try {
    const { hostname, port, protocol } = new URL(url);
    return { 'server.address': hostname, 'server.port': Number(port) || (protocol === 'https:' ? 443 : 80) };
  } catch {
    return {};
  }
}
