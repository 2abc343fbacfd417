import { createRoute, z } from '@hono/zod-openapi';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApiApp, problem, REQUEST_ID_HEADER, serveOpenApi } from '../../../adapters/http-server/index.js';
import { serveHttp } from '../../../adapters/http-server/serve.js';

function testApp(logged: unknown[] = []) {
  const logger = pino(
    { level: 'error' },
    {
      write: (line: string) => {
        logged.push(JSON.parse(line));
      },
    },
  );
  const app = createApiApp({ logger, bodyLimitBytes: 1024 });
  app.openapi(
    createRoute({
      method: 'post',
      path: '/things',
      request: {
        body: {
          required: true,
          content: {
            'application/json': { schema: z.object({ name: z.string().min(1), count: z.number().int() }).strict() },
          },
        },
      },
      responses: {
        200: { description: 'ok', content: { 'application/json': { schema: z.object({ name: z.string() }) } } },
      },
    }),
    (c) => c.json({ name: c.req.valid('json').name }, 200),
  );
  app.get('/refuse', () => {
    throw problem('INVALID_STATE', ['status: must be created'], { headers: { 'retry-after': '1' } });
  });
  app.get('/crash', () => {
    throw new Error('db password=hunter2 leaked in a driver message');
  });
  serveOpenApi(app, { title: 'test', version: '1.0.0' });
  return app;
}

describe('createApiApp', () => {
  it('answers a body that fails the schema with 400 BAD_REQUEST and one line per field', async () => {
    const res = await testApp().request('/things', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"","count":1.5,"x":1}',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { status: string; errors: string[] };
    expect(body.status).toBe('BAD_REQUEST');
    expect(body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^name: /), expect.stringMatching(/^count: /), 'x: unknown field']),
    );
  });

  it('answers text that is not JSON with 400 and body: must be JSON', async () => {
    const res = await testApp().request('/things', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'BAD_REQUEST', errors: ['body: must be JSON'] });
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await testApp().request('/things', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2000), count: 1 }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      status: 'PAYLOAD_TOO_LARGE',
      errors: ['body: must be at most 1024 bytes'],
    });
  });

  it('answers a thrown problem with its own status, envelope and headers', async () => {
    const res = await testApp().request('/refuse');
    expect(res.status).toBe(409);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ status: 'INVALID_STATE', errors: ['status: must be created'] });
  });

  it('answers an unexpected failure with 500 INTERNAL, saying nothing of it, and logs it', async () => {
    const logged: Array<{ err?: { message?: string } }> = [];
    const res = await testApp(logged).request('/crash');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: 'INTERNAL', errors: ['Internal error'] });
    expect(text).not.toContain('hunter2');
    expect(logged[0]?.err?.message).toContain('leaked');
  });

  it('answers an unknown route with 404 NOT_FOUND in the envelope', async () => {
    const res = await testApp().request('/nowhere');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 'NOT_FOUND', errors: ['No such route'] });
  });

  it('echoes a sane x-request-id and makes one up for a missing or hostile one', async () => {
    const app = testApp();
    expect(
      (await app.request('/nowhere', { headers: { [REQUEST_ID_HEADER]: 'till-7-000123' } })).headers.get(
        REQUEST_ID_HEADER,
      ),
    ).toBe('till-7-000123');
    const made = (await app.request('/nowhere', { headers: { [REQUEST_ID_HEADER]: 'a b\u0007' } })).headers.get(
      REQUEST_ID_HEADER,
    );
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a POST with no body and no Content-Length (curl -X POST) through the route, not a 500', async () => {
    const http = await serveHttp(testApp());
    try {
      const { connect } = await import('node:net');
      const { port } = new URL(http.url);
      // Written by hand: clients add Content-Length or chunked framing themselves, curl -X POST does not.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.end('POST /things HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
        );
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      const status = Number(answer.split(' ')[1]);
      expect(answer).toContain('BAD_REQUEST');
      expect(status).not.toBe(500);
    } finally {
      await http.close();
    }
  });

  it('serves an OpenAPI 3.1 document listing its routes, over a real socket', async () => {
    const http = await serveHttp(testApp());
    try {
      const res = await fetch(`${http.url}/openapi.json`);
      const document = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toBe('3.1.0');
      expect(Object.keys(document.paths)).toContain('/things');
    } finally {
      await http.close();
    }
  });
});
