import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Counter } from '../../../src/metrics/counter.js';
import { Histogram } from '../../../src/metrics/histogram.js';

/** A metric's text as prom-client renders it from a registry of its own. */
async function rendered(metric: Counter | Histogram): Promise<string> {
  const registry = new Registry();
  registry.registerMetric(metric);
  return registry.metrics();
}

describe('prom-client metrics of the kit', () => {
  it('renders counters with escaped labels and histograms with cumulative buckets', async () => {
    const counter = new Counter('c_total', 'help', ['label']);
    counter.inc({ label: 'a"b\\c' });
    counter.inc({ label: 'a"b\\c' }, 2);
    expect(await rendered(counter)).toContain('c_total{label="a\\"b\\\\c"} 3');
    const histogram = new Histogram('h', 'help', [0.1, 1]);
    histogram.observe(0.05);
    histogram.observe(0.5);
    histogram.observe(5);
    const text = await rendered(histogram);
    expect(text).toContain('h_bucket{le="0.1"} 1');
    expect(text).toContain('h_bucket{le="1"} 2');
    expect(text).toContain('h_bucket{le="+Inf"} 3');
    expect(text).toContain('h_count 3');
    expect(text).toContain('h_sum 5.55');
    const json = await histogram.get();
    expect(json.values.at(-1)).toEqual({ metricName: 'h_count', labels: {}, value: 3 });
  });

  it('exports a bound series at 0, then with what it counted once read', async () => {
    const counter = new Counter('s_total', 'help', ['kind']);
    const series = counter.series({ kind: 'a' });
    expect(await rendered(counter)).toContain('s_total{kind="a"} 0');
    series.inc();
    series.inc(2);
    counter.inc({ kind: 'a' });
    expect(await counter.countOf({ kind: 'a' })).toBe(4);
    expect(await rendered(counter)).toContain('s_total{kind="a"} 4');
    expect(await counter.countOf({ kind: 'b' })).toBe(0);
  });
});
