/** One Prometheus sample: name, labels, value. */
interface Sample { name: string; labels: Record<string, string>; value: number }

/** The cash desk metrics the merchant console draws (small charts), read from the Prometheus text the server serves. */
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

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text format (0.0.4) into samples; comments and odd lines are skipped. */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Cumulative `_bucket` series as per-bucket counts. */
function perBucket(samples: Sample[], name: string): Array<{ le: string; count: number }> {
  const cumulative = samples.filter((s) => s.name === `${name}_bucket`).map((s) => ({ le: s.labels.le ?? '', value: s.value }));
  return cumulative.map((b, i) => ({ le: b.le, count: b.value - (i === 0 ? 0 : cumulative[i - 1]!.value) }));
}

/** What the console draws, from one scrape. */
export function metricsView(text: string, history: MetricsView['history']): MetricsView {
  const samples = parsePrometheus(text);
  const value = (name: string) => samples.find((s) => s.name === name)?.value ?? 0;
  return {
    verifications: samples.filter((s) => s.name === 'wpk_barcode_verifications_total' && s.value > 0)
      .map((s) => ({ resultCode: s.labels.result_code ?? '', reason: s.labels.reason ?? '', count: s.value })),
    latency: {
      buckets: perBucket(samples, 'wpk_barcode_verify_duration_seconds'),
      count: value('wpk_barcode_verify_duration_seconds_count'), sumSeconds: value('wpk_barcode_verify_duration_seconds_sum'),
    },
    drift: perBucket(samples, 'wpk_barcode_drift_steps'),
    history,
  };
}
