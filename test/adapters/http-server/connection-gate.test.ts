import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { type HttpServerHandle, serveHttp } from '../../../adapters/http-server/index.js';
import { createBridge } from '../../../adapters/ws/index.js';
import { SUBPROTOCOL } from '../../../adapters/ws/upgrade.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier } from '../../../src/entries/index.js';
import { until } from '../../support/attacks.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';

const TILL = { id: 'till-1', key: 'till-key-0123456789abcdef' };
const root = join(import.meta.dirname, '..', '..', '..');

/** What one raw `GET` got: the status (0 when closed unanswered), its headers, and whether the socket was reset. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  socket: Socket;
  /** Resolves with the socket's error code (ECONNRESET...) or undefined once it is closed. */
  closed: Promise<string | undefined>;
}

/** Sends one keep-alive `GET path` on a new connection; resolves once its answer is in, or on close. */
function rawGet(port: number, path = '/livez'): Promise<RawAnswer> {
  const socket = connect(port, '127.0.0.1');
  let error: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => {
    error = e.code;
  });
  const closed = new Promise<string | undefined>((resolve) => socket.once('close', () => resolve(error)));
  return new Promise((resolve) => {
    let text = '';
    const done = (status: number, headers: Record<string, string>) => resolve({ status, headers, socket, closed });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => {
          const colon = l.indexOf(':');
          return [l.slice(0, colon).toLowerCase(), l.slice(colon + 1).trim()];
        }),
      );
      const bodyIn = text.length - end - 4 >= Number(headers['content-length'] ?? 0);
      if (bodyIn) done(Number(statusLine.split(' ')[1]), headers);
    });
    void closed.then(() => done(0, {}));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

/** Expects a clean refusal: 503 with Retry-After in the error envelope, then a close without a reset. */
async function expectRefused(answer: RawAnswer): Promise<void> {
  expect(answer.status).toBe(503);
  expect(answer.headers['retry-after']).toBe('1');
  expect(answer.headers.connection).toBe('close');
  expect(await answer.closed).toBeUndefined();
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serveWithBridge(maxConnections: number): Promise<HttpServerHandle> {
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW, replay: false });
  const service = new CashDeskService({ verifier, tills: new TillRegistry([TILL]) });
  const bridge = createBridge(service);
  const served = await serveHttp(createHttpApp(service), { limits: { maxConnections, keepAliveTimeoutMs: 600_000 } });
  served.server.on('upgrade', (req, socket, head) => bridge.handleUpgrade(req, socket, head));
  closers.push(async () => {
    await bridge.close();
    served.server.closeAllConnections();
    await served.close();
    await verifier.close();
  });
  return served;
}

describe('the connection gate of serveHttp', () => {
  it('answers 503 with Retry-After over the cap, never a reset, and takes one again once one closes', async () => {
    const served = await serveWithBridge(2);
    const port = Number(new URL(served.url).port);
    const kept = [await rawGet(port), await rawGet(port)];
    expect(kept.map((a) => a.status)).toEqual([200, 200]);
    for (let i = 0; i < 3; i++) await expectRefused(await rawGet(port));
    expect(served.connections.refused).toEqual({ connections: 3, descriptors: 0 });
    kept[0]!.socket.destroy();
    await until(() => served.connections.open === 1, 'the server saw the close');
    const again = await rawGet(port);
    expect(again.status).toBe(200);
    again.socket.destroy();
    kept[1]!.socket.destroy();
  });

  it('answers a WebSocket upgrade over the cap with 503 and Retry-After, before upgrading', async () => {
    const served = await serveWithBridge(1);
    const port = Number(new URL(served.url).port);
    const kept = await rawGet(port);
    expect(kept.status).toBe(200);
    const headers = { authorization: `Bearer ${TILL.key}` };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, SUBPROTOCOL, { headers });
    const response = await new Promise<{ status: number | undefined; retryAfter: unknown }>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] });
      });
      ws.once('open', () => reject(new Error('upgraded over the cap')));
      ws.once('error', reject);
    });
    expect(response).toEqual({ status: 503, retryAfter: '1' });
    ws.terminate();
    kept.socket.destroy();
  });
});

describe('the connection gate at the open-file limit (a server process under `ulimit -n`)', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
  });

  it('answers each connection past the limit 503 with Retry-After, never a reset, and serves again after', async () => {
    const limit = 160;
    const command = `ulimit -n ${limit} && exec "${process.execPath}" --import tsx test/support/fd-limit-child.ts`;
    child = spawn('sh', ['-c', command], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const [port, seenLimit] = (await new Promise<number[]>((resolve, reject) => {
      child!.stdout!.on('data', (chunk: Buffer) => {
        const match = /READY (\d+) (\d+)/.exec(chunk.toString());
        if (match) resolve([Number(match[1]), Number(match[2])]);
      });
      void exited.then((code) => reject(new Error(`server process exited with ${code}`)));
    })) as [number, number];
    expect(seenLimit).toBe(limit);
    // Connections the server holds until it refuses, then five more: each of those must be a clean 503.
    const kept: RawAnswer[] = [];
    const refused: RawAnswer[] = [];
    while (refused.length < 5 && kept.length < limit) {
      const answer = await rawGet(port);
      if (answer.status === 200) kept.push(answer);
      else refused.push(answer);
    }
    expect(kept.length).toBeGreaterThan(limit / 2);
    expect(kept.length).toBeLessThan(limit);
    for (const answer of refused) await expectRefused(answer);
    // Still alive, and serving again once connections close (the server sees the closes in its own time).
    for (const answer of kept.splice(0, 20)) answer.socket.destroy();
    let status = 0;
    for (let attempt = 0; attempt < 200 && status !== 200; attempt++) {
      const answer = await rawGet(port);
      status = answer.status;
      if (status === 200) kept.push(answer);
    }
    expect(status).toBe(200);
    expect(child.exitCode).toBeNull();
    for (const answer of kept) answer.socket.destroy();
  }, 60_000);
});
