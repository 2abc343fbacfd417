import { describe, expect, it } from 'vitest';
import { apiMetrics, createApiApp } from '../../../adapters/http-server/index.js';

function app(options: Parameters<typeof createApiApp>[0] = {}) {
  const built = createApiApp(options);
  built.get('/things/:id', (c) => c.json({ id: c.req.param('id') }));
  return built;
}

describe('GET /metrics of an API app', () => {
  it('shows the process metrics and counts answers by route pattern, never the path', async () => {
    const metrics = apiMetrics();
    const served = app({ metrics });
    await served.request('/things/4000123412341234');
    await served.request('/nowhere');
    const res = await served.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
      'nodejs_active_handles',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).toContain('wpk_http_requests_total{route="/things/{id}",status="200"} 1');
    expect(text).toContain('wpk_http_requests_total{route="unmatched",status="404"} 1');
    expect(text).not.toContain('4000123412341234');
    expect(await metrics.httpRequests.countOf({ route: '/things/{id}', status: '200' })).toBe(1);
  });

  it("keeps each app's series apart in one process, and can be turned off", async () => {
    const [a, b] = [app(), app()];
    await a.request('/things/1');
    expect(await (await b.request('/metrics')).text()).not.toContain('route="/things/{id}"');
    expect((await app({ metrics: false }).request('/metrics')).status).toBe(404);
  });
});
