import { request as httpRequest } from 'node:http';
import { createRoute, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import { createApiApp, problem } from '../../../adapters/http-server/index.js';
import { routePattern } from '../../../adapters/http-server/route-table.js';
import type { Database } from '../../../src/db/index.js';
import { databaseCases } from '../../support/databases.js';
import { captureLog, leakedSecrets } from '../../support/log-capture.js';

const SECRET = 'whsec_c2VjcmV0LXRoYXQtbXVzdC1uZXZlci1iZS1sb2dnZWQ=';

function app(log = captureLog(), db?: Database) {
  const api = createApiApp({ logger: log.logger, bodyLimitBytes: 1024 * 1024 });
  api.openapi(
    createRoute({
      method: 'post',
      path: '/things',
      request: {
        body: { required: true, content: { 'application/json': { schema: z.object({ a: z.unknown() }).strict() } } },
      },
      responses: { 200: { description: 'ok' } },
    }),
    (c) => c.json({ text: JSON.stringify(c.req.valid('json')) }, 200),
  );
  api.get('/things/:id', (c) => c.json({ id: c.req.param('id') }));
  api.use('/private/*', async () => {
    throw problem('UNAUTHORIZED', ['Invalid authorization token']);
  });
  api.get('/private/thing', (c) => c.json({}));
  api.post('/store', async (c) => {
    const { name } = await c.req.json<{ name: string }>();
    await db!.query('INSERT INTO hostile (name, secret) VALUES ($1, $2)', [name, SECRET]);
    return c.json({ ok: true });
  });
  return api;
}

const post = (_path: string, body: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});
const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;

describe('createApiApp, given hostile input', () => {
  it(
    'takes JSON nested 64 deep and refuses 65 or 5000 deep with 400, ' + 'before zod or JSON.stringify see it',
    async () => {
      const api = app();
      expect((await api.request('/things', post('/things', nested(64)))).status).toBe(200);
      for (const depth of [65, 5000, 100_000]) {
        const res = await api.request('/things', post('/things', nested(depth)));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          status: 'BAD_REQUEST',
          errors: ['body: nesting deeper than 64 levels'],
        });
      }
    },
  );

  it('refuses a control character in the path or the query, encoded or not, with 400', async () => {
    const api = app();
    for (const [url, field] of [
      ['/things/a%00b', 'path'],
      ['/things/a%1Fb', 'path'],
      ['/things/a?x=%00', 'query'],
      ['/things/a%7f', 'path'],
    ] as const) {
      const res = await api.request(url);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        status: 'BAD_REQUEST',
        errors: [`${field}: must not contain control characters`],
      });
    }
    expect((await api.request('/things/a%20b')).status).toBe(200);
  });

  it(
    'answers a known path under another method with 405 and Allow, before an auth ' +
      'middleware, and unknown paths 404',
    async () => {
      const api = app();
      const res = await api.request('/private/thing', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(await res.json()).toMatchObject({ status: 'METHOD_NOT_ALLOWED', errors: ['method: must be GET or HEAD'] });
      expect((await api.request('/private/thing')).status).toBe(401);
      expect((await api.request('/things', { method: 'PUT' })).headers.get('allow')).toBe('POST');
      expect((await api.request('/nothing', { method: 'DELETE' })).status).toBe(404);
    },
  );

  it(
    'logs a client that goes away mid-body at info and counts it as 499, as the cash desk does, not as a ' + '500',
    async () => {
      const log = captureLog('info');
      const api = createApiApp({ logger: log.logger });
      let started!: () => void;
      const reading = new Promise<void>((resolve) => {
        started = resolve;
      });
      api.post('/upload', async (c) => {
        started();
        return c.json(await c.req.json());
      });
      const server = await serveHttp(api, { host: '127.0.0.1', port: 0 });
      try {
        const { port } = new URL(server.url);
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          path: '/upload',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '1000' },
        });
        req.on('error', () => {});
        req.write('{"a":[1,2,');
        await reading;
        req.destroy();
        await expect
          .poll(() => log.lines().map((l) => l.msg), { timeout: 10_000 })
          .toContain('request aborted by the client');
        expect(log.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
        await expect
          .poll(async () => (await fetch(`${server.url}/metrics`)).text(), { timeout: 10_000 })
          .toContain('wpk_http_requests_total{route="/upload",status="499"} 1');
      } finally {
        await server.close();
      }
    },
  );
});

describe.each(databaseCases('the database refusal guard'))(
  'createApiApp on $name, when the database refuses a value',
  ({ open }) => {
    let db: Database;
    beforeAll(async () => {
      db = await open();
      await db.exec('CREATE TABLE hostile (name TEXT, secret TEXT)');
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it(
      'answers 400 BAD_REQUEST (SQLSTATE class 22), not 500, and logs neither ' + 'the value nor the other parameters',
      async () => {
        const log = captureLog();
        const res = await app(log, db).request('/store', post('/store', JSON.stringify({ name: 'a\u0000b' })));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ status: 'BAD_REQUEST' });
        const lines = log.lines();
        expect(lines).toContainEqual(
          expect.objectContaining({
            level: 40,
            msg: 'input refused by the database',
            err: expect.objectContaining({ code: expect.stringMatching(/^22/) }),
          }),
        );
        expect(leakedSecrets(log.text(), [SECRET])).toEqual([]);
        expect((await db.query('SELECT count(*)::int AS n FROM hostile')).rows).toEqual([{ n: 0 }]);
      },
    );
  },
);

describe('routePattern', () => {
  it('matches Hono paths: params, constrained params, optional params, wildcards', () => {
    expect(routePattern('/a/:id').test('/a/x')).toBe(true);
    expect(routePattern('/a/:id').test('/a/x/y')).toBe(false);
    expect(routePattern('/a/:id{[0-9]+}').test('/a/x')).toBe(false);
    expect(routePattern('/a/:id?').test('/a')).toBe(true);
    expect(routePattern('/a/*').test('/a/b/c')).toBe(true);
    expect(routePattern('/').test('/')).toBe(true);
  });
});
