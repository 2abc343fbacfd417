import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger, eventually } from '../ws/harness.js';
import { request, startServer, type TestServer, TILL_KEY } from './client.js';

describe('a client aborting mid-body', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is logged at info, not error, and counted as 499, not 500', async () => {
    const { logger, records } = capturingLogger('debug');
    server = await startServer({ options: { logger } });
    const { hostname, port } = new URL(server.url);
    for (const end of ['destroy', 'resetAndDestroy'] as const) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /v1/barcode/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TILL_KEY}\r\nContent-Type: ` +
              `application/json\r\nContent-Length: 1000\r\n\r\n{"fullBarcode":`,
          );
          // Wait for the server to have the head (and to be reading the body) before going away.
          setImmediate(() => socket[end]());
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
    }
    const aborted = () => records.filter((r) => r.msg === 'request aborted by the client');
    await eventually(() => aborted().length === 2, 5_000, 'both aborts logged');
    expect(aborted().every((r) => r.level === 30 && r.path === '/v1/barcode/verify')).toBe(true);
    expect(records.some((r) => (r.level as number) >= 50)).toBe(false);
    const metrics = (await request(server.url, '/metrics', { key: null })).text;
    expect(metrics).toContain('wpk_http_requests_total{route="/v1/barcode/verify",status="499"} 2');
    expect(metrics).not.toContain('status="500"');
  });

  // The payment routes read their body through Hono (a web Request): an abort there rejects with Node's own
  // `aborted` error, which was logged at error with its stack and counted 500.
  it('is logged at info and counted as 499 on a route Hono answers too (the payment routes)', async () => {
    const { logger, records } = capturingLogger('debug');
    server = await startServer({ options: { logger } });
    const { hostname, port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /v1/payments/sale-1/basket HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ` +
            `${TILL_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"basket":`,
        );
        setImmediate(() => socket.destroy());
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve());
    });
    const aborted = () => records.filter((r) => r.msg === 'request aborted by the client');
    await eventually(() => aborted().length === 1, 5_000, 'the abort logged');
    expect(aborted()[0]).toMatchObject({ level: 30, method: 'POST', path: '/v1/payments/sale-1/basket' });
    expect(records.filter((r) => (r.level as number) >= 50)).toEqual([]);
    const metrics = (await request(server.url, '/metrics', { key: null })).text;
    expect(metrics).toContain('wpk_http_requests_total{route="/v1/payments/{paymentId}/basket",status="499"} 1');
    expect(metrics).not.toContain('status="500"');
  });
});
