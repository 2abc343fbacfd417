import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../../../adapters/http-server/serve.js';
import { createCallbackReceiver, type CallbackReceiver } from '../../../src/entries/callback.js';
import type { CallbackEvent } from '../../../src/contracts/callback/index.js';
import type { Database } from '../../../src/db/index.js';
import { createPushClient } from '../../../src/entries/push.js';
import { generateWebhookSecret } from '../../../src/entries/webhooks.js';
import { databaseCases } from '../../support/databases.js';
import { generatedNumbers, startPushSandbox, type PushSandbox } from '../push/sandbox.js';

const message = { title: 'Hello', text: 'Your order is ready' };

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  history: Array<{ httpStatus: number | null }>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The sandbox's callback sender retries on its schedule (RETRY_SCHEDULE_MS) divided by 1000:
// immediately, 5 ms, 300 ms, 1.8 s, 7.2 s...
// One sandbox for the file (each test makes its own account); only the receiver's database differs per case.
let sandbox: PushSandbox;
beforeAll(async () => {
  sandbox = await startPushSandbox({ timeScale: 1000 });
}, 180_000); // PGlite start-up: stretched many times over on a loaded machine
afterAll(async () => {
  await sandbox?.close();
});

describe.each(databaseCases('callback delivery'))('callbacks from the sandbox to a receiver on $name', ({ open }) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
  }, 180_000);
  afterAll(async () => {
    await db?.close();
  });

  async function deliveries(login: string): Promise<Delivery[]> {
    const response = await fetch(`${sandbox.url}/sandbox/push/deliveries?login=${login}`);
    return ((await response.json()) as { deliveries: Delivery[] }).deliveries;
  }

  async function sendTo(callbackUrl: string, secret: string, subId: string, numbers: string[]) {
    const { login, password } = await sandbox.createAccount({
      callbackUrl,
      callbackSecret: secret,
      batchIntervalMs: 0,
      simulateDelivery: true,
    });
    const client = createPushClient({ url: sandbox.url, login, password });
    await client.resetPassword('callback-password-0123');
    const batch = await client.batch({ msisdn: numbers, subId, message });
    return { login, messages: batch.messages ?? [] };
  }

  async function storedCount(eventIds: string[]): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM callback_events WHERE event_id = ANY($1::text[])',
      [eventIds],
    );
    return rows[0]!.n;
  }

  it(
    'stores each event exactly once through a receiver that fails its ' + 'first attempts, some after storing',
    async () => {
      const secret = generateWebhookSecret();
      const handled: CallbackEvent[] = [];
      const receiver: CallbackReceiver = await createCallbackReceiver({
        secrets: secret,
        database: db,
        handler: (e) => {
          handled.push(e);
        },
        pollMs: 20,
      });
      // In front of it, the first six requests fail: three before reaching it, three after it stored the
      // event (the answer is then lost to the sender, which must send again: the receiver de-duplicates).
      let requests = 0;
      const front: HttpServerHandle = await serveHttp({
        async fetch(request, env) {
          const n = ++requests;
          if (n <= 3) return new Response('down', { status: 503 });
          const answer = await receiver.app.fetch(request, env);
          return n <= 6 ? new Response('lost', { status: 500 }) : answer;
        },
      });
      receiver.start();
      try {
        const { login, messages } = await sendTo(
          `${front.url}/callback`,
          secret,
          'flaky-receiver',
          generatedNumbers(4, 100),
        );
        const read = messages[0]!;
        await expect
          .poll(async () => (await deliveries(login)).filter((d) => d.status === 'delivered').length, {
            timeout: 15_000,
          })
          .toBe(4);
        const readAnswer = await fetch(
          `${sandbox.url}/sandbox/app/inbox/${read.msisdn}/messages/${read.messageId}/read`,
          { method: 'POST' },
        );
        expect(readAnswer.status).toBe(200);
        await expect
          .poll(async () => (await deliveries(login)).filter((d) => d.status === 'delivered').length, {
            timeout: 15_000,
          })
          .toBe(5);

        const all = await deliveries(login);
        expect(all.reduce((sum, d) => sum + d.attempts, 0)).toBeGreaterThanOrEqual(5 + 6);
        expect(await storedCount(all.map((d) => d.id))).toBe(5);
        await expect.poll(() => handled.length).toBe(5);
        expect(new Set(handled.map((e) => e.eventId))).toEqual(new Set(all.map((d) => d.id)));
        expect(await receiver.store.messageState(read.messageId)).toMatchObject({
          status: 'READ',
          msisdn: read.msisdn,
          subId: 'flaky-receiver',
        });
        expect(await receiver.store.messageState(messages[1]!.messageId)).toMatchObject({ status: 'DELIVERED' });
      } finally {
        await front.close();
        await receiver.close();
      }
    },
  );

  it("gets every event once a receiver that was down comes up, through the sender's retries", async () => {
    const secret = generateWebhookSecret();
    const port = await freePort();
    const { login, messages } = await sendTo(
      `http://127.0.0.1:${port}/callback`,
      secret,
      'down-receiver',
      generatedNumbers(3, 200),
    );
    // Down: the sender has met a refused connection at least twice for every event.
    await expect
      .poll(
        async () => {
          const list = await deliveries(login);
          return list.length === 3 && list.every((d) => d.attempts >= 2);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(
      (await deliveries(login)).every((d) => d.status === 'pending' && d.history.every((h) => h.httpStatus === null)),
    ).toBe(true);

    const receiver = await createCallbackReceiver({ secrets: secret, database: db });
    await receiver.listen({ port });
    try {
      await expect
        .poll(async () => (await deliveries(login)).filter((d) => d.status === 'delivered').length, { timeout: 20_000 })
        .toBe(3);
      const ids = (await deliveries(login)).map((d) => d.id);
      expect(await storedCount(ids)).toBe(3);
      for (const m of messages) expect((await receiver.store.messageState(m.messageId))?.status).toBe('DELIVERED');
    } finally {
      await receiver.close();
    }
  });

  it('refuses events signed with a secret it does not know, so the sender keeps them pending', async () => {
    const receiver = await createCallbackReceiver({ secrets: generateWebhookSecret(), database: db });
    const { url } = await receiver.listen();
    try {
      const { login } = await sendTo(
        `${url}/callback`,
        generateWebhookSecret(),
        'wrong-secret',
        generatedNumbers(1, 300),
      );
      await expect
        .poll(async () => (await deliveries(login))[0]?.history.length ?? 0, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);
      const [delivery] = await deliveries(login);
      expect(delivery).toMatchObject({ status: 'pending' });
      expect(delivery!.history.every((h) => h.httpStatus === 401)).toBe(true);
      expect(await storedCount([delivery!.id])).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});
