import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Counter, Histogram, ServerMetrics, SeriesCounter } from '../../../src/cashdesk/metrics.js';
import { register } from '../../../src/log/metrics.js';

/** A metric's text as prom-client renders it from a registry of its own. */
async function rendered(metric: Counter | Histogram): Promise<string> {
  const registry = new Registry();
  register(registry, metric);
  return registry.metrics();
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ServerMetrics', () => {
  it('renders counters with escaped labels and histograms with cumulative buckets', async () => {
    const counter = new Counter('c_total', 'help');
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
  });

  it('renders every line as Prometheus text exposition', async () => {
    const metrics = new ServerMetrics();
    metrics.verifications.inc({ result_code: 'VALIDATION_FAILED', reason: 'MALFORMED' });
    metrics.bridgeConnections.inc();
    // Blank lines separate metrics (the format ignores them). A value may be NaN in any case, as Go's ParseFloat
    // reads it (Prometheus, promtool): the event loop's lag gauges are NaN until their monitor has a sample, so
    // this file alone, first in a fresh process, sees `Nan`.
    for (const line of (await metrics.render()).trimEnd().split('\n').filter((l) => l !== '')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? ([-+.\deE]+|[Nn][Aa][Nn])|\w+(\{[^}]*\})? \+?Inf)$/);
    }
  });
});

describe('SeriesCounter', () => {
  it('adds every call to its label set at once', async () => {
    const counter = new Counter('t_calls_total', 'test');
    const calls = new SeriesCounter(() => counter, ['method', 'outcome']);
    for (let i = 0; i < 32; i++) calls.count('barcode.verify', 'ok');
    calls.count('barcode.verify', 'BAD_REQUEST');
    calls.count('other', 'METHOD_NOT_FOUND');
    expect(counter.get({ method: 'barcode.verify', outcome: 'ok' })).toBe(32);
    await nextTurn();
    expect(counter.get({ method: 'barcode.verify', outcome: 'ok' })).toBe(32);
    expect(counter.get({ method: 'barcode.verify', outcome: 'BAD_REQUEST' })).toBe(1);
    expect(counter.get({ method: 'other', outcome: 'METHOD_NOT_FOUND' })).toBe(1);
    calls.count('health', 'ok');
    await nextTurn();
    expect(counter.get({ method: 'health', outcome: 'ok' })).toBe(1);
    expect(counter.get({ method: 'barcode.verify', outcome: 'ok' })).toBe(32);
  });
});
