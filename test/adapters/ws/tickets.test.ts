import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import { createBridge } from '../../../adapters/ws/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TicketStore } from '../../../src/cashdesk/tickets.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier } from '../../../src/entries/index.js';
import { FailureLimiter } from '../../../src/guard/failure-limiter.js';
import { testClock } from '../../support/clock.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { rawUpgrade, RpcClient } from '../../support/ws-client.js';
import { capturingLogger } from './harness.js';

const TILLS = [
  { id: 'till-1', key: 'till-key-0123456789abcdef' },
  { id: 'till-2', key: 'till-key-2-0123456789abcd' },
];
const PAGE = 'https://pos.example.com';

/** The cash desk's HTTP API and bridge on one port, as `serve` runs them, with one clock for tickets and lockouts. */
async function startCashDesk() {
  const time = testClock(NOW);
  const { logger, records } = capturingLogger('info');
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: time.now });
  const service = new CashDeskService({
    verifier,
    tills: new TillRegistry(TILLS),
    tickets: new TicketStore({ now: time.now }),
    bruteForce: new FailureLimiter({
      perAddress: { maxFailures: 3, windowMs: 60_000, lockoutMs: 10_000 },
      clock: time.now,
    }),
  });
  const bridge = createBridge(service, { allowedOrigins: [PAGE], logger });
  const http = await serveHttp(createHttpApp(service));
  http.server.on('upgrade', (req, socket, head) => bridge.handleUpgrade(req, socket, head));
  const ws = `${http.url.replace(/^http/, 'ws')}/ws`;
  const clients: RpcClient[] = [];
  return {
    time,
    records,
    ticket: (key: string) =>
      fetch(`${http.url}/v1/tickets`, {
        method: 'POST',
        headers: key === '' ? {} : { authorization: `Bearer ${key}` },
      }),
    async connect(ticket: string, origin = PAGE) {
      const client = await RpcClient.connect(`${ws}?ticket=${encodeURIComponent(ticket)}`, {
        headers: { Origin: origin },
      });
      clients.push(client);
      return client;
    },
    upgrade: (ticket: string) =>
      rawUpgrade(`${ws}?ticket=${encodeURIComponent(ticket)}`, { 'Sec-WebSocket-Protocol': 'wallet-pos.v1' }),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await bridge.close();
      await http.close();
      await verifier.close();
    },
  };
}

type CashDesk = Awaited<ReturnType<typeof startCashDesk>>;

async function ticketOf(desk: CashDesk, key = TILLS[0]!.key): Promise<string> {
  const answer = await desk.ticket(key);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { ticket: string }).ticket;
}

describe('bridge upgrade with a ticket', () => {
  let desk: CashDesk;
  afterEach(async () => {
    await desk.close();
  });

  it('answers POST /v1/tickets with a ticket and its expiry 30 s on', async () => {
    desk = await startCashDesk();
    const answer = await desk.ticket(TILLS[0]!.key);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const body = (await answer.json()) as { ticket: string; expiresAt: string };
    expect(body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(body.expiresAt)).toBe(NOW + 30_000);
  });

  it('refuses POST /v1/tickets without a till key, or with a wrong one', async () => {
    desk = await startCashDesk();
    expect((await desk.ticket('')).status).toBe(401);
    const wrong = await desk.ticket('not-a-till-key-0000000000');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ status: 'UNAUTHORIZED' });
  });

  it('connects a browser page with its ticket, as the till that asked for it', async () => {
    desk = await startCashDesk();
    const client = await desk.connect(await ticketOf(desk, TILLS[1]!.key));
    expect(await client.call('health')).toMatchObject({ status: 'ok' });
    expect(desk.records.find((r) => r.msg === 'till connected')).toMatchObject({ till: 'till-2' });
  });

  it('refuses a ticket used a second time with 401', async () => {
    desk = await startCashDesk();
    const ticket = await ticketOf(desk);
    await desk.connect(ticket);
    expect(await desk.upgrade(ticket)).toMatchObject({ status: 401 });
  });

  it('refuses a ticket past its 30 s with 401', async () => {
    desk = await startCashDesk();
    const ticket = await ticketOf(desk);
    desk.time.advance(30_000);
    expect(await desk.upgrade(ticket)).toMatchObject({ status: 401 });
  });

  it('refuses a ticket from an origin outside the allowlist with 403, without spending it', async () => {
    desk = await startCashDesk();
    const ticket = await ticketOf(desk);
    await expect(desk.connect(ticket, 'https://evil.example')).rejects.toMatchObject({ status: 403 });
    expect(await (await desk.connect(ticket)).call('health')).toMatchObject({ status: 'ok' });
  });

  it('counts wrong tickets as wrong keys: the address is locked out of tickets and keys alike', async () => {
    desk = await startCashDesk();
    const good = await ticketOf(desk);
    for (let i = 0; i < 3; i++) expect(await desk.upgrade(`forged-ticket-${i}`)).toMatchObject({ status: 401 });
    const locked = await desk.upgrade(good);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await desk.ticket(TILLS[0]!.key)).status).toBe(429);
    // The lockout did not spend the good ticket: once it is over (and the ticket still valid), it connects.
    desk.time.advance(10_000);
    expect(await (await desk.connect(good)).call('health')).toMatchObject({ status: 'ok' });
  });

  it('never logs a ticket', async () => {
    desk = await startCashDesk();
    const ticket = await ticketOf(desk);
    await desk.connect(ticket);
    await desk.upgrade(ticket);
    expect(JSON.stringify(desk.records)).not.toContain(ticket);
  });
});
