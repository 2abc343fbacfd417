import type { MetricValue, Registry } from 'prom-client';

/** One Prometheus sample: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The cash desk metrics the merchant console draws (small charts), read from the server's prom-client registry. */
export interface MetricsView {
  /** Verifications by `result_code` (and `reason` for the failures). */
  verifications: Array<{ resultCode: string; reason: string; count: number }>;
  /** Verify latency: how many fell in each bucket (not cumulative), upper bound in seconds. */
  latency: { buckets: Array<{ le: string; count: number }>; count: number; sumSeconds: number };
  /** Clock drift of valid barcodes in steps: how many per bucket (not cumulative). */
  drift: Array<{ le: string; count: number }>;
  /** Verifications per sample over the last minutes, oldest first: the live line. */
  history: Array<{ at: string; total: number }>;
}

/**
 * The samples of a registry's metrics, as prom-client reads them (`getMetricsAsJSON`):
 * a histogram's `_bucket`, `_sum` and `_count` by their own names.
 */
async function samplesOf(registry: Registry): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const v of metric.values as Array<MetricValue<string> & { metricName?: string }>) {
      const labels: Record<string, string> = {};
      for (const [key, value] of Object.entries(v.labels)) if (value !== undefined) labels[key] = String(value);
      samples.push({ name: v.metricName ?? metric.name, labels, value: v.value });
    }
  }
  return samples;
}

/** Cumulative `_bucket` series as per-bucket counts. */
function perBucket(samples: Sample[], name: string): Array<{ le: string; count: number }> {
  const cumulative = samples
    .filter((s) => s.name === `${name}_bucket`)
    .map((s) => ({ le: s.labels.le ?? '', value: s.value }));
  return cumulative.map((b, i) => ({ le: b.le, count: b.value - (i === 0 ? 0 : cumulative[i - 1]!.value) }));
}

/** What the console draws, read from the server's registry (the metric objects, not their text). */
export async function metricsView(registry: Registry, history: MetricsView['history']): Promise<MetricsView> {
  const samples = await samplesOf(registry);
  const value = (name: string) => samples.find((s) => s.name === name)?.value ?? 0;
  return {
    verifications: samples
      .filter((s) => s.name === 'wpk_barcode_verifications_total' && s.value > 0)
      .map((s) => ({ resultCode: s.labels.result_code ?? '', reason: s.labels.reason ?? '', count: s.value })),
    latency: {
      buckets: perBucket(samples, 'wpk_barcode_verify_duration_seconds'),
      count: value('wpk_barcode_verify_duration_seconds_count'),
      sumSeconds: value('wpk_barcode_verify_duration_seconds_sum'),
    },
    drift: perBucket(samples, 'wpk_barcode_drift_steps'),
    history,
  };
}
