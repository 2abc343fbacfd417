import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { kitTracer, tracingActive } from './tracing.js';

/** Names the route of a request path (`/v1/payments/{paymentId}`), or undefined when the path is no known route. */
export type RouteNamer = (path: string) => string | undefined;

/** Spans already named by the app that answered (see {@link nameHttpSpan}). */
const named = new WeakSet<Span>();

/**
 * The request listener of a server, with a server span around each request when an SDK is registered (decided
 * once, here): the span joins the caller's W3C `traceparent`, is current while the request is handled (what the
 * handler calls becomes its children), and ends with the answer. Named `METHOD route`, never with the path itself
 * (a path may hold a card number): `routeOf` names it unless the app did ({@link nameHttpSpan}). Without an SDK,
 * `listener` itself is returned: nothing is added to any request.
 */
export function traceHttpRequests(listener: RequestListener, routeOf?: RouteNamer): RequestListener {
  if (!tracingActive()) return listener;
  const tracer = kitTracer();
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const method = incoming.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, incoming.headers);
    const span = tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.scheme': 'http',
          'network.protocol.version': incoming.httpVersion,
          'server.port': incoming.socket.localPort ?? 0,
        },
      },
      parent,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (!named.has(span) && routeOf !== undefined) nameSpan(span, method, routeOf(pathOf(incoming.url)));
      const status = outgoing.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!outgoing.writableFinished) span.setAttribute('wpk.http.aborted', true);
      span.end();
    };
    outgoing.once('finish', end);
    outgoing.once('close', end);
    context.with(trace.setSpan(parent, span), () => listener(incoming, outgoing));
  };
}

/**
 * Names the current server span after the route the app matched (`GET /v1/card/{cardNumber}`): for apps whose
 * routes the listener cannot see. Does nothing outside a traced request.
 */
export function nameHttpSpan(method: string, route: string | undefined): void {
  const span = trace.getActiveSpan();
  if (span === undefined || route === undefined) return;
  nameSpan(span, method, route);
  named.add(span);
}

function nameSpan(span: Span, method: string, route: string | undefined): void {
  if (route === undefined) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}

function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
