import { describe, expect, it } from 'vitest';
import { Counter, Histogram, ServerMetrics } from '../../../src/server/metrics.js';

describe('ServerMetrics', () => {
  it('renders counters with escaped labels and histograms with cumulative buckets', () => {
    const counter = new Counter('c_total', 'help');
    counter.inc({ label: 'a"b\\c' });
    counter.inc({ label: 'a"b\\c' }, 2);
    expect(counter.render()).toContain('c_total{label="a\\"b\\\\c"} 3');
    const histogram = new Histogram('h', 'help', [0.1, 1]);
    histogram.observe(0.05);
    histogram.observe(0.5);
    histogram.observe(5);
    const text = histogram.render();
    expect(text).toContain('h_bucket{le="0.1"} 1');
    expect(text).toContain('h_bucket{le="1"} 2');
    expect(text).toContain('h_bucket{le="+Inf"} 3');
    expect(text).toContain('h_count 3');
  });

  it('renders every line as Prometheus text exposition', () => {
    const metrics = new ServerMetrics();
    metrics.verifications.inc({ result_code: 'VALIDATION_FAILED', reason: 'MALFORMED' });
    metrics.bridgeConnections.inc();
    for (const line of metrics.render().trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? [-+.\deE]+|\w+(\{[^}]*\})? \+?Inf)$/);
    }
  });
});
