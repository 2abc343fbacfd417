import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { type RunningServer, startServer } from '../../../src/server/serve.js';
import { haveService, REDIS_URL } from '../../support/services.js';

/** A loopback port nothing listens on (bound, read, released). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function get(server: RunningServer, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: await res.json() };
}

describe('cash desk /healthz and /livez', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers 503 naming redis while the shared replay store does not answer, and /livez 200', async () => {
    server = await startServer(
      resolveServeConfig(
        { ...demoConfig, server: { port: 0, drainSeconds: 0 }, redisUrl: `redis://127.0.0.1:${await deadPort()}` },
        {},
      ),
    );
    expect(await get(server, '/healthz')).toEqual({ status: 503, body: { status: 'unavailable', failing: ['redis'] } });
    expect(await get(server, '/livez')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers 200 with the in-memory store, which cannot be unreachable', async () => {
    server = await startServer(resolveServeConfig({ ...demoConfig, server: { port: 0 } }, {}));
    expect(await get(server, '/healthz')).toMatchObject({
      status: 200,
      body: { status: 'ok', backend: expect.any(String) },
    });
  });

  it.runIf(haveService('REDIS_URL', REDIS_URL, 'the cash desk health check against a live Redis'))(
    'answers 200 while Redis answers PING',
    async () => {
      server = await startServer(resolveServeConfig({ ...demoConfig, server: { port: 0 }, redisUrl: REDIS_URL }, {}));
      expect(await get(server, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    },
  );
});
