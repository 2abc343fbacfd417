import { describe, expect, it } from 'vitest';
import { startingApp } from '../../../adapters/http-server/starting-app.js';

const request = (path: string, init?: RequestInit) => new Request(`http://server${path}`, init);
const realApp = (seen: string[]) => ({
  async fetch(req: Request) {
    seen.push(`${req.method} ${new URL(req.url).pathname} ${req.method === 'POST' ? await req.text() : ''}`.trim());
    return new Response(JSON.stringify({ from: 'app' }), {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
  },
});

describe('startingApp', () => {
  it('answers /livez 200 and /healthz 503 starting while the app is being built', async () => {
    const app = startingApp();
    const live = await app.fetch(request('/livez'), {});
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    const health = await app.fetch(request('/healthz'), {});
    expect([health.status, await health.json()]).toEqual([503, { status: 'starting' }]);
  });

  it('holds other requests until the app is ready, then the app answers them, bodies intact', async () => {
    const app = startingApp();
    const seen: string[] = [];
    let answered = false;
    const early = Promise.resolve(app.fetch(request('/v1/thing', { method: 'POST', body: '{"a":1}' }), {})).then(
      (res) => {
        answered = true;
        return res;
      },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    app.ready(realApp(seen));
    const res = await early;
    expect([res.status, await res.json()]).toEqual([201, { from: 'app' }]);
    expect(seen).toEqual(['POST /v1/thing {"a":1}']);
  });

  it('hands every request to the app once ready, health included', async () => {
    const app = startingApp();
    const seen: string[] = [];
    app.ready(realApp(seen));
    expect((await app.fetch(request('/healthz'), {})).status).toBe(201);
    expect(seen).toEqual(['GET /healthz']);
  });

  it('answers held and later requests 503 when the start failed', async () => {
    const app = startingApp();
    const held = app.fetch(request('/v1/thing'), {});
    app.failed();
    for (const res of [await held, await app.fetch(request('/v1/other'), {})]) {
      expect([res.status, await res.json()]).toEqual([503, { status: 'unavailable', failing: ['start-up'] }]);
    }
  });
});
