import { describe, expect, it } from 'vitest';
import { telemetrySettings } from '../../../src/cli/telemetry-settings.js';

describe('telemetrySettings', () => {
  it('asks for nothing when no variable is set, with OTEL_SDK_DISABLED=true, or with the exporter none', () => {
    expect(telemetrySettings({})).toBeUndefined();
    expect(telemetrySettings({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
    expect(
      telemetrySettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBeUndefined();
  });

  it("exports over OTLP when only an endpoint is set, with the specification's defaults", () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toEqual({
      exporters: ['otlp'],
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      ratio: 1,
      batch: {},
    });
  });

  it('reads the protocol, the sampler and its ratio, and the batch settings', () => {
    expect(
      telemetrySettings({
        OTEL_TRACES_EXPORTER: 'otlp,console',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      }),
    ).toEqual({
      exporters: ['otlp', 'console'],
      protocol: 'http/json',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      batch: { scheduledDelayMillis: 100 },
    });
  });

  it('refuses what it cannot honour, naming each variable', () => {
    expect(() =>
      telemetrySettings({
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      }),
    ).toThrow(/OTEL_TRACES_EXPORTER: 'zipkin'.*OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc'.*OTEL_TRACES_SAMPLER_ARG: '2'/);
  });
});
