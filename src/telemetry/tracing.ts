import {
  type Context,
  context,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { VERSION } from '../version.js';

/** The instrumentation scope of every span the kit makes. */
export const TRACER_NAME = 'wallet-partner-kit';

/** What the API answers while no SDK is registered: a fresh proxy's delegate is that no-op provider. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * True when an OpenTelemetry SDK has registered a tracer provider (the CLI does when `OTEL_TRACES_EXPORTER` or an
 * OTLP endpoint is set; an embedding application may register its own). Servers and clients ask once, when they
 * are made, so that without an SDK the hot paths carry no span work at all: register the SDK before starting them.
 */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider() as TracerProvider & { getDelegate?(): TracerProvider };
  const delegate = typeof provider.getDelegate === 'function' ? provider.getDelegate() : provider;
  return delegate !== NOOP_PROVIDER;
}

/** The kit's tracer (from the registered provider, or the API's no-op one). */
export function kitTracer(): Tracer {
  return trace.getTracer(TRACER_NAME, VERSION);
}

/** The W3C `traceparent` of the active span, to carry where headers cannot go (a thread's message); else undefined. */
export function currentTraceparent(): string | undefined {
  if (trace.getActiveSpan() === undefined) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a W3C `traceparent` (and `tracestate`) names as remote parent; the root context when absent. */
export function contextOf(traceparent: unknown, tracestate?: unknown): Context {
  if (typeof traceparent !== 'string') return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent };
  if (typeof tracestate === 'string') carrier.tracestate = tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** Runs `fn` under the remote parent `traceparent` names (as is, when there is none). */
export function withTraceparent<T>(traceparent: string | undefined, fn: () => T): T {
  return traceparent === undefined ? fn() : context.with(contextOf(traceparent), fn);
}

/**
 * Runs `work` as an internal span `name`, child of the current one and current while it runs (`failed` says
 * which outcomes are errors); without an SDK it only runs `work`.
 */
export async function inSpan<T>(name: string, work: () => Promise<T>, failed?: (outcome: T) => boolean): Promise<T> {
  if (!tracingActive()) return work();
  const span = kitTracer().startSpan(name);
  try {
    const outcome = await context.with(trace.setSpan(context.active(), span), work);
    if (failed?.(outcome) === true) span.setStatus({ code: SpanStatusCode.ERROR });
    return outcome;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'failed' });
    throw error;
  } finally {
    span.end();
  }
}
