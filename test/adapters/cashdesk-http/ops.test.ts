import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barcode, request, startServer, type TestServer } from './client.js';
import { cashDeskOpenApiDocument } from '../../../adapters/cashdesk-http/index.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('GET /healthz', () => {
  it('answers the health without a key', async () => {
    const reply = await request(server.url, '/healthz', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', backend: 'wasm', version: '9.9.9', uptimeSeconds: expect.any(Number) });
  });

  it('answers HEAD without a body', async () => {
    const reply = await request(server.url, '/healthz', { method: 'HEAD', key: null });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
  });
});

describe('GET /metrics', () => {
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const label = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*"';
  const PROMETHEUS_LINE = new RegExp(
    `^(?:# HELP ${name} .*|# TYPE ${name} ` +
      `(?:counter|gauge|histogram|summary|untyped)|${name}(?:\\{${label}(?:,${label})*\\})? ` +
      `[-+]?(?:[0-9.]+(?:e[-+]?\\d+)?|NaN|Inf))$`,
  );

  it('counts verifications by result_code and parses as Prometheus text', async () => {
    await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: barcode('4000111122223333') } });
    const reply = await request(server.url, '/metrics', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(reply.text).toMatch(
      /^wpk_barcode_verifications_total\{result_code="CARDSESSION_AVAILABLE",reason="OK"\} [1-9]\d*$/m,
    );
    expect(reply.text.endsWith('\n')).toBe(true);
    for (const line of reply.text.trimEnd().split('\n')) expect(line).toMatch(PROMETHEUS_LINE);
  });

  it('counts requests by route and status, with unknown paths as unmatched', async () => {
    const { httpRequests: requests } = server.service.metrics;
    const verified = await requests.countOf({ route: '/v1/barcode/verify', status: '200' });
    const refused = await requests.countOf({ route: '/v1/barcode/verify', status: '401' });
    const unmatched = await requests.countOf({ route: 'unmatched', status: '404' });
    await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' } });
    await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' }, key: null });
    await request(server.url, '/no/such/path', { key: null });
    expect(await requests.countOf({ route: '/v1/barcode/verify', status: '200' })).toBe(verified + 1);
    expect(await requests.countOf({ route: '/v1/barcode/verify', status: '401' })).toBe(refused + 1);
    expect(await requests.countOf({ route: 'unmatched', status: '404' })).toBe(unmatched + 1);
  });
});

describe('GET /openapi.json', () => {
  it(
    'serves an OpenAPI 3.1 document with the verify, token and payment routes, the components and the till key ' +
      'schemes',
    async () => {
      const reply = await request(server.url, '/openapi.json', { key: null });
      expect(reply.status).toBe(200);
      const doc = reply.body;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info).toMatchObject({ title: 'wallet-partner-kit cash desk server', version: '9.9.9' });
      expect(Object.keys(doc.paths).sort()).toEqual(
        expect.arrayContaining([
          '/healthz',
          '/livez',
          '/metrics',
          '/v1/barcode/verify',
          '/v1/payments',
          '/v1/payments/{paymentId}/events',
          '/v1/token',
        ]),
      );
      expect(Object.keys(doc.components.schemas)).toEqual(
        expect.arrayContaining(['VerifyRequest', 'Verification', 'TokenRequest', 'TokenResponse', 'Health', 'Error']),
      );
      expect(doc.components.securitySchemes.tillKey).toEqual(
        expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      );
      expect(doc.components.securitySchemes.tillKeyQuery).toEqual(
        expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }),
      );
      for (const path of ['/v1/barcode/verify', '/v1/token']) {
        const post = doc.paths[path].post;
        expect(post.security, path).toEqual([{ tillKey: [] }, { tillKeyQuery: [] }]);
        expect(post.responses['401'].content['application/json'].schema, path).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
      expect(doc.paths['/v1/barcode/verify'].post.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/VerifyRequest',
      });
      expect(doc.paths['/v1/token'].post.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/TokenResponse',
      });
      // Probes take no credentials, and the document says so rather than leaving it out.
      expect(doc.paths['/healthz'].get.security).toEqual([]);
      expect(doc).toEqual(cashDeskOpenApiDocument(doc.info.version));
    },
  );

  it('builds the document in a process that made the contracts before it loaded @hono/zod-openapi', async () => {
    // zod gives a schema its prototype's methods when it is made: the contracts, made first, lack zod-to-openapi's.
    const program = [
      "await import('./dist/src/contracts/cashdesk.js');",
      "const { cashDeskOpenApiDocument } = await import('./dist/adapters/cashdesk-http/index.js');",
      'console.log(Object.keys(cashDeskOpenApiDocument().components.schemas).includes("TokenRequest"));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program], { cwd: root });
    expect(stdout.trim()).toBe('true');
  });
});
