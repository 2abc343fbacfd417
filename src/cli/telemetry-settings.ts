import { ConfigError } from '../errors.js';

/** The samplers of `OTEL_TRACES_SAMPLER` the CLI sets up (the specification's, less `jaeger_remote` and `xray`). */
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** The OTLP protocols the CLI exports with (`grpc` is not one: point it at the collector's HTTP port, 4318). */
export const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** What the `OTEL_*` variables ask of the CLI's tracing. */
export interface TelemetrySettings {
  /** Where spans go: OTLP (its endpoint and headers read by the exporter from `OTEL_EXPORTER_OTLP_*`) or stdout. */
  exporters: ReadonlyArray<'otlp' | 'console'>;
  protocol: (typeof PROTOCOLS)[number];
  sampler: (typeof SAMPLERS)[number];
  /** The ratio of the `traceidratio` samplers, 0 to 1 (`OTEL_TRACES_SAMPLER_ARG`, default 1). */
  ratio: number;
  /** The batch span processor's `OTEL_BSP_*` settings that were given. */
  batch: {
    scheduledDelayMillis?: number;
    exportTimeoutMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
  };
}

type Env = Readonly<Record<string, string | undefined>>;

const BATCH_VARIABLES = {
  scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY',
  exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT',
  maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE',
  maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
} as const;

const given = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * Reads the standard OpenTelemetry variables: undefined when no traces are to be exported (the SDK is then
 * never loaded). Traces are exported when `OTEL_TRACES_EXPORTER` names an exporter, or, with it unset, when an
 * OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set; never with
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`.
 *
 * @throws ConfigError naming the variable, for a value the CLI cannot honour.
 */
export function telemetrySettings(env: Env): TelemetrySettings | undefined {
  if (given(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const issues: string[] = [];
  const named = given(env, 'OTEL_TRACES_EXPORTER')
    ?.toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const endpoint = given(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? given(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const listed = named ?? (endpoint === undefined ? [] : ['otlp']);
  if (listed.length === 0 || listed.includes('none')) return undefined;
  for (const name of listed) {
    if (name !== 'otlp' && name !== 'console')
      issues.push(`OTEL_TRACES_EXPORTER: '${name}' is not one of otlp, console, none`);
  }
  const protocol = (
    given(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    given(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf'
  ).toLowerCase();
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    issues.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL: '${protocol}' is not one of ${PROTOCOLS.join(', ')} (grpc: use port 4318)`,
    );
  }
  const sampler = (given(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(sampler))
    issues.push(`OTEL_TRACES_SAMPLER: '${sampler}' is not one of ${SAMPLERS.join(', ')}`);
  const ratioText = given(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = ratioText === undefined ? 1 : Number(ratioText);
  if (sampler.endsWith('traceidratio') && !(ratio >= 0 && ratio <= 1)) {
    issues.push(`OTEL_TRACES_SAMPLER_ARG: '${ratioText}' is not a ratio from 0 to 1`);
  }
  const batch: TelemetrySettings['batch'] = {};
  for (const [key, name] of Object.entries(BATCH_VARIABLES) as Array<[keyof typeof BATCH_VARIABLES, string]>) {
    const text = given(env, name);
    if (text === undefined) continue;
    const value = Number(text);
    if (Number.isInteger(value) && value >= 0) batch[key] = value;
    else issues.push(`${name}: '${text}' is not a whole number of at least 0`);
  }
  if (issues.length > 0) throw new ConfigError(issues, 'OpenTelemetry settings');
  return {
    exporters: [...new Set(listed)] as Array<'otlp' | 'console'>,
    protocol: protocol as TelemetrySettings['protocol'],
    sampler: sampler as TelemetrySettings['sampler'],
    ratio,
    batch,
  };
}
