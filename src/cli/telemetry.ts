import { context, diag, DiagConsoleLogger, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import { VERSION } from '../version.js';
import { setThreadTelemetry } from '../telemetry/thread-setup.js';
import { type TelemetrySettings, telemetrySettings } from './telemetry-settings.js';

/** The tracing the CLI set up. */
export interface Telemetry {
  /** Exports the spans still buffered, then stops; idempotent. */
  shutdown(): Promise<void>;
}

let running: Telemetry | undefined;

/**
 * Sets up OpenTelemetry tracing from the standard `OTEL_*` variables (see `telemetrySettings`), before any server
 * starts: a tracer provider exporting over OTLP (`http/protobuf` or `http/json`) or to stdout, the W3C trace
 * context and baggage propagators, and the AsyncLocalStorage context manager. The SDK's packages are imported
 * only here and only then: with the variables unset nothing is loaded and the servers make no spans. Worker
 * threads of the kit set up the same (`setThreadTelemetry`). `service.name` is `OTEL_SERVICE_NAME`, else
 * `wallet-partner-kit-<command>`.
 *
 * @throws ConfigError for a variable whose value cannot be honoured.
 */
export async function startTelemetry(command?: string): Promise<Telemetry | undefined> {
  if (running !== undefined) return running;
  const settings = telemetrySettings(process.env);
  if (settings === undefined) return undefined;
  const [sdk, core, resources, { AsyncLocalStorageContextManager }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
  ]);
  diag.setLogger(new DiagConsoleLogger(), diagLevel(process.env.OTEL_LOG_LEVEL));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
  const defaults = resources.resourceFromAttributes({
    'service.name': command === undefined ? 'wallet-partner-kit' : `wallet-partner-kit-${command}`,
    'service.version': VERSION,
  });
  // The variables' attributes (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) win over the defaults.
  const resource = resources
    .defaultResource()
    .merge(defaults)
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const exporters = await Promise.all(settings.exporters.map((name) => exporterFor(name, settings, sdk)));
  const provider = new sdk.TracerProvider({
    resource,
    sampler: samplerFor(settings, sdk),
    spanProcessors: exporters.map((exporter) => new sdk.BatchSpanProcessor({ exporter, ...settings.batch })),
  });
  trace.setGlobalTracerProvider(provider);
  setThreadTelemetry(import.meta.url);
  let stopping: Promise<void> | undefined;
  running = { shutdown: () => (stopping ??= provider.shutdown().catch(() => {})) };
  return running;
}

/** Exports what is buffered and stops the tracing {@link startTelemetry} set up, if any (before the process exits). */
export async function stopTelemetry(): Promise<void> {
  await running?.shutdown();
}

type Sdk = typeof import('@opentelemetry/sdk-trace');

async function exporterFor(name: 'otlp' | 'console', settings: TelemetrySettings, sdk: Sdk): Promise<SpanExporter> {
  if (name === 'console') return new sdk.ConsoleSpanExporter();
  // Each exporter reads its endpoint, headers, timeout and compression from the OTEL_EXPORTER_OTLP_* variables.
  if (settings.protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

function samplerFor({ sampler, ratio }: TelemetrySettings, sdk: Sdk): Sampler {
  const root = sampler.endsWith('always_off')
    ? new sdk.AlwaysOffSampler()
    : sampler.endsWith('traceidratio')
      ? new sdk.TraceIdRatioBasedSampler(ratio)
      : new sdk.AlwaysOnSampler();
  return sampler.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
}

/** `OTEL_LOG_LEVEL` for the SDK's own messages (an export that failed...), on stderr; default `warn`. */
function diagLevel(value: string | undefined): DiagLogLevel {
  const levels: Record<string, DiagLogLevel> = {
    none: DiagLogLevel.NONE,
    error: DiagLogLevel.ERROR,
    warn: DiagLogLevel.WARN,
    info: DiagLogLevel.INFO,
    debug: DiagLogLevel.DEBUG,
    verbose: DiagLogLevel.VERBOSE,
    all: DiagLogLevel.ALL,
  };
  return levels[value?.trim().toLowerCase() ?? 'warn'] ?? DiagLogLevel.WARN;
}
