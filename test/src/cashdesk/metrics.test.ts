import { describe, expect, it } from 'vitest';
import { Counter, ServerMetrics, SeriesCounter } from '../../../src/cashdesk/metrics.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ServerMetrics', () => {
  it('renders every line as Prometheus text exposition', async () => {
    const metrics = new ServerMetrics();
    metrics.verifications.inc({ result_code: 'VALIDATION_FAILED', reason: 'MALFORMED' });
    metrics.bridgeConnections.inc();
    // Blank lines separate metrics (the format ignores them). A value may be NaN in any case, as Go's ParseFloat
    // reads it (Prometheus, promtool): the event loop's lag gauges are NaN until their monitor has a sample, so
    // this file alone, first in a fresh process, sees `Nan`.
    for (const line of (await metrics.render())
      .trimEnd()
      .split('\n')
      .filter((l) => l !== '')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? ([-+.\deE]+|[Nn][Aa][Nn])|\w+(\{[^}]*\})? \+?Inf)$/);
    }
  });
});

describe('SeriesCounter', () => {
  it('adds every call to its label set', async () => {
    const counter = new Counter('t_calls_total', 'test', ['method', 'outcome']);
    const calls = new SeriesCounter(() => counter, ['method', 'outcome']);
    for (let i = 0; i < 32; i++) calls.count('barcode.verify', 'ok');
    calls.count('barcode.verify', 'BAD_REQUEST');
    calls.count('other', 'METHOD_NOT_FOUND');
    expect(await counter.countOf({ method: 'barcode.verify', outcome: 'ok' })).toBe(32);
    await nextTurn();
    expect(await counter.countOf({ method: 'barcode.verify', outcome: 'ok' })).toBe(32);
    expect(await counter.countOf({ method: 'barcode.verify', outcome: 'BAD_REQUEST' })).toBe(1);
    expect(await counter.countOf({ method: 'other', outcome: 'METHOD_NOT_FOUND' })).toBe(1);
    calls.count('health', 'ok');
    await nextTurn();
    expect(await counter.countOf({ method: 'health', outcome: 'ok' })).toBe(1);
    expect(await counter.countOf({ method: 'barcode.verify', outcome: 'ok' })).toBe(32);
  });
});
