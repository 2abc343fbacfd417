import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cashDeskOpenApiDocument, createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { nodeRoutesOf, withNodeRoutes, type NodeHandler } from '../../../adapters/http-server/node-routes.js';
import { RAW_POST_ROUTES } from '../../../adapters/cashdesk-http/routes.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier } from '../../../src/entries/index.js';
import { BASE_CONFIG } from '../../support/fixtures.js';
import { request, startServer } from '../cashdesk-http/client.js';

describe('withNodeRoutes', () => {
  const seen: string[] = [];
  const handler =
    (name: string): NodeHandler =>
    () =>
      void seen.push(name);
  const listener = withNodeRoutes(new Map([['/v1/barcode/verify', handler('fast')]]), () => void seen.push('fallback'));
  const call = (method: string, url: string) => listener({ method, url } as IncomingMessage, {} as ServerResponse);

  it('takes a POST to a listed path, with or without a query string, and hands anything else to the fallback', () => {
    seen.length = 0;
    call('POST', '/v1/barcode/verify');
    call('POST', '/v1/barcode/verify?key=k');
    call('GET', '/v1/barcode/verify');
    call('HEAD', '/v1/barcode/verify');
    call('POST', '/v1/barcode/verify/');
    call('POST', '/v1/barcode/verif%79');
    call('POST', 'http://127.0.0.1/v1/barcode/verify');
    call('POST', '/v1/token');
    expect(seen).toEqual(['fast', 'fast', 'fallback', 'fallback', 'fallback', 'fallback', 'fallback', 'fallback']);
  });
});

describe('the raw POST routes', () => {
  it('are the same list in the fast path, in the app and in the OpenAPI document', () => {
    const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm' } as Parameters<typeof createVerifier>[0]);
    const app = createHttpApp(new CashDeskService({ verifier, tills: new TillRegistry([]) }));
    const paths = Object.values(RAW_POST_ROUTES)
      .map((route) => route.path)
      .sort();
    expect(paths).toEqual(['/v1/barcode/verify', '/v1/barcode/verify-batch', '/v1/token']);
    expect([...nodeRoutesOf(app)!.keys()].sort()).toEqual(paths);
    for (const path of paths)
      expect(
        app.routes.some((r) => r.method === 'POST' && r.path === path),
        path,
      ).toBe(true);
    const document = cashDeskOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    for (const path of paths) expect(document.paths[path]?.post, path).toBeDefined();
  });

  it('are answered alike when only Hono matches the path (percent-encoded)', async () => {
    const server = await startServer();
    try {
      const fast = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' } });
      const viaHono = await request(server.url, '/v1/barcode/verif%79', { body: { fullBarcode: 'XX;1;;2' } });
      expect(viaHono.status).toBe(200);
      expect(viaHono.body).toEqual(fast.body);
      const refused = await request(server.url, '/v1/barcode/verif%79', {
        body: { fullBarcode: 'XX;1;;2' },
        key: null,
      });
      expect(refused.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
