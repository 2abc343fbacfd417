import { randomBytes } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig, type ServeConfigInput } from '../../../src/server/config.js';
import { type RunningServer, startServer } from '../../../src/server/serve.js';
import { makeCertificate, type TestCertificate } from '../../support/tls-cert.js';
import { RpcClient } from '../../support/ws-client.js';
import { captureLog } from '../../support/log-capture.js';

const TILLS = [
  { id: 'till-1', key: randomBytes(24).toString('base64url') },
  { id: 'till-2', key: randomBytes(24).toString('base64url') },
];

function config(cert: TestCertificate, extra: Partial<ServeConfigInput> = {}): ServeConfigInput {
  return {
    verifier: { ...demoConfig.verifier, key: randomBytes(32).toString('hex') },
    tills: TILLS,
    server: { port: 0, drainSeconds: 0 },
    tls: { cert: cert.cert, key: cert.key },
    ...extra,
  };
}

/** One HTTPS request trusting `ca` only; the answer read whole. */
function call(
  url: string,
  agent: Agent,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A verify call with `key`, as forwarded for `client` when given. */
function verify(server: RunningServer, agent: Agent, key: string, client?: string) {
  return call(`${server.url}/v1/barcode/verify`, agent, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(client === undefined ? {} : { 'x-forwarded-for': client }),
    },
    body: JSON.stringify({ fullBarcode: 'CM;4000123412341234;AB12CD34;00000000' }),
  });
}

/** The subject CN of the certificate a fresh TLS connection to `server` is shown. */
function certificateName(server: RunningServer, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/livez`, { ca, agent: false }, (res) => {
      resolve(String((res.socket as TLSSocket).getPeerCertificate().subject.CN));
      res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the cash desk server going live (TLS, trusted proxies)', () => {
  let server: RunningServer | undefined;
  let agent: Agent | undefined;
  afterEach(async () => {
    agent?.destroy();
    await server?.close();
    server = undefined;
  });

  it('serves HTTPS with nosniff, no-store and HSTS on its answers', async () => {
    const cert = makeCertificate('first');
    server = await startServer(resolveServeConfig(config(cert), {}));
    agent = new Agent({ ca: cert.pem, keepAlive: true });
    expect(server.url).toMatch(/^https:\/\//);
    expect(server.wsUrl).toMatch(/^wss:\/\//);
    const answer = await call(`${server.url}/healthz`, agent);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });

  it('refuses to start on a certificate file it cannot read, naming tls.cert', async () => {
    const cert = makeCertificate('first');
    const start = startServer(resolveServeConfig(config({ ...cert, cert: `${cert.cert}.missing` }), {}));
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/tls\.cert: cannot read/);
  });

  it('locks out only the client behind the trusted proxy that sent wrong keys, not the other tills', async () => {
    const cert = makeCertificate('first');
    const log = captureLog('info');
    server = await startServer(resolveServeConfig(config(cert, { trustedProxies: ['127.0.0.1/32'] }), {}), log.logger);
    agent = new Agent({ ca: cert.pem, keepAlive: true, maxSockets: 4 });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await verify(server, agent, 'wrong-key-0123456789', '198.51.100.1')).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    // The other till, behind the same proxy, is not locked out; the locked one stays locked with its right key.
    expect((await verify(server, agent, TILLS[1]!.key, '198.51.100.2')).status).toBe(200);
    expect((await verify(server, agent, TILLS[0]!.key, '198.51.100.1')).status).toBe(429);
    // Told once per address and window, by the client's address; no key in any line.
    const failed = log.lines().filter((line) => String(line.msg).startsWith('till authentication failed'));
    expect(failed).toMatchObject([{ remoteAddress: '198.51.100.1', transport: 'http' }]);
    const locked = log.lines().filter((line) => line.msg === 'till authentication locked out');
    expect(locked).toMatchObject([{ remoteAddress: '198.51.100.1' }]);
    for (const key of ['wrong-key-0123456789', ...TILLS.map((t) => t.key)]) expect(log.text()).not.toContain(key);
  });

  it('believes no forwarding header without trusted proxies: a forged X-Forwarded-For escapes no lockout', async () => {
    const cert = makeCertificate('first');
    server = await startServer(resolveServeConfig(config(cert), {}));
    agent = new Agent({ ca: cert.pem, keepAlive: true, maxSockets: 4 });
    for (let i = 0; i < 50; i++) await verify(server, agent, 'wrong-key-0123456789', `203.0.113.${i}`);
    expect((await verify(server, agent, TILLS[0]!.key, '192.0.2.77')).status).toBe(429);
  });

  it('takes a new certificate for new connections on reload while an open WSS connection goes on', async () => {
    const first = makeCertificate('first');
    const live = { cert: `${first.cert}.live`, key: `${first.key}.live` };
    copyFileSync(first.cert, live.cert);
    copyFileSync(first.key, live.key);
    server = await startServer(resolveServeConfig(config({ ...first, ...live }), {}));
    const bridge = await RpcClient.connect(server.wsUrl, { key: TILLS[0]!.key, ws: { ca: first.pem } });
    try {
      const second = makeCertificate('second');
      copyFileSync(second.cert, live.cert);
      copyFileSync(second.key, live.key);
      expect(server.reloadTls()).toBe(true);
      expect(await certificateName(server, second.pem)).toBe('second');
      expect(await bridge.call('health')).toMatchObject({ status: 'ok' });
      // Bad files: the certificate in use stays.
      writeFileSync(live.cert, 'not a certificate');
      expect(server.reloadTls()).toBe(false);
      expect(await certificateName(server, second.pem)).toBe('second');
    } finally {
      await bridge.close();
    }
  });
});
