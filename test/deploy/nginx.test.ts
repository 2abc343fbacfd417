import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChanges } from '../../adapters/http-server/change-stream.js';
import { demoConfig } from '../../src/demo.js';
import { resolveServeConfig } from '../../src/server/config.js';
import { type RunningServer, startServer } from '../../src/server/serve.js';
import { ADDRESSES } from '../support/from-address.js';
import { freePort, NGINX, type RunningNginx, siteFor, startNginx } from '../support/nginx.js';
import { makeCertificate, type TestCertificate } from '../support/tls-cert.js';
import { RpcClient } from '../support/ws-client.js';

const haveNginx = existsSync(NGINX);
if (!haveNginx) console.warn(`${NGINX} not found: skipping the deploy/nginx.conf tests (.ci/run installs nginx)`);
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const haveSystemd = existsSync(SYSTEMD_ANALYZE);
if (!haveSystemd) console.warn(`${SYSTEMD_ANALYZE} not found: skipping the systemd unit check`);

const TILLS = [
  { id: 'till-1', key: randomBytes(24).toString('base64url') },
  { id: 'till-2', key: randomBytes(24).toString('base64url') },
];
/** A path served through nginx's plain `location /`, buffering on: only the stream's own header turns it off. */
const STREAM_PATH = '/v1/test-stream';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

describe.runIf(haveNginx)('deploy/nginx.conf in front of serve', () => {
  let kit: RunningServer;
  let nginx: RunningNginx;
  let cert: TestCertificate;
  let base: string;
  const agents = new Map<string, Agent>();
  const agentFor = (localAddress: string) => {
    let agent = agents.get(localAddress);
    if (agent === undefined) {
      agent = new Agent({ ca: cert.pem, keepAlive: true, localAddress } as ConstructorParameters<typeof Agent>[0]);
      agents.set(localAddress, agent);
    }
    return agent;
  };
  /** One request to nginx from `from`; with `until`, the body is read only until it holds (an event stream). */
  const call = (path: string, from: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const method = body === undefined ? 'GET' : 'POST';
      const req = request(`${base}${path}`, { method, headers, agent: agentFor(from) }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (path === STREAM_PATH && text.includes('event: ready')) {
            resolve({ status: res.statusCode!, headers: res.headers, text });
            res.destroy();
          }
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const verify = (key: string, from: string) =>
    call(
      '/v1/barcode/verify',
      from,
      { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      JSON.stringify({ fullBarcode: 'CM;4000123412341234;AB12CD34;00000000' }),
    );

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpk-nginx-'));
    cert = makeCertificate('proxy', dir);
    const config = resolveServeConfig(
      {
        verifier: { ...demoConfig.verifier, key: randomBytes(32).toString('hex') },
        tills: TILLS,
        server: { port: 0, drainSeconds: 0 },
        trustedProxies: ['127.0.0.1/32'],
      },
      {},
    );
    kit = await startServer(config, undefined, {
      mount: (app) => app.get(STREAM_PATH, (c) => streamChanges(c, () => () => {}, { heartbeatMs: 1_000 })),
    });
    const port = await freePort();
    const site = siteFor({ port, upstreamPort: kit.port, cert: cert.cert, key: cert.key });
    nginx = await startNginx(dir, site, port);
    base = `https://127.0.0.1:${port}`;
  }, 60_000);

  afterAll(async () => {
    for (const agent of agents.values()) agent.destroy();
    await nginx?.stop();
    await kit?.close();
  });

  it('passes the HTTP API through, with the kit headers', async () => {
    const answer = await call('/healthz', ADDRESSES.honest);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps /metrics off the internet', async () => {
    expect((await call('/metrics', ADDRESSES.honest)).status).toBe(404);
  });

  it('upgrades the bridge (wss through the proxy) and answers its calls', async () => {
    const bridge = await RpcClient.connect(`wss://127.0.0.1:${new URL(base).port}/ws`, {
      key: TILLS[0]!.key,
      ws: { ca: cert.pem, localAddress: ADDRESSES.honest },
    });
    try {
      expect(await bridge.call('health')).toMatchObject({ status: 'ok' });
    } finally {
      await bridge.close();
    }
  });

  it('delivers an event stream at once, even through a location that buffers', async () => {
    const answer = await call(STREAM_PATH, ADDRESSES.honest);
    expect(answer.headers['x-accel-buffering']).toBeUndefined(); // nginx consumes it
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(answer.text).toContain('event: ready');
  });

  it('locks out only the till that sent wrong keys, by the address nginx forwards', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await verify('wrong-key-0123456789', ADDRESSES.attacker)).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    expect((await verify(TILLS[1]!.key, ADDRESSES.other)).status).toBe(200);
    expect((await verify(TILLS[0]!.key, ADDRESSES.newcomer)).status).toBe(200);
  });
});

describe.runIf(haveSystemd)('deploy/wallet-partner-kit.service', () => {
  it('passes systemd-analyze verify', () => {
    // Throws (exit status not 0) on an error in the unit; warnings about this host (no such user) go to stderr only.
    expect(() =>
      execFileSync(SYSTEMD_ANALYZE, ['verify', 'deploy/wallet-partner-kit.service'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
