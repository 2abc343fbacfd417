import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPushClient, PushError } from '../../../src/entries/push.js';

const OLD = 'initial-password-1';
const NEW = 'Brand-new-password-2';
const basic = (password: string) => `Basic ${Buffer.from(`push-login:${password}`).toString('base64')}`;

/** How the next reset-password call is answered. */
interface Answer {
  status: number;
  body?: string;
  contentType?: string;
}

/**
 * A Push service stand-in: answers PUT /public/user/reset-password as told, and records the Authorization of every
 * GET /public/push/{id} (answered with a message state), so a test sees which password the client sends next.
 */
async function pushService(): Promise<{ url: string; server: Server; next: { answer: Answer }; seen: string[] }> {
  const next = { answer: { status: 200 } as Answer };
  const seen: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'PUT') {
        const { status, body, contentType } = next.answer;
        res.writeHead(status, contentType === undefined ? {} : { 'content-type': contentType });
        res.end(body);
        return;
      }
      seen.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ messageId: 'm-1', status: 'DELIVERED' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, next, seen };
}

describe('PushClient.resetPassword', () => {
  let service: Awaited<ReturnType<typeof pushService>>;
  beforeAll(async () => {
    service = await pushService();
  });
  afterAll(() => {
    service?.server.close();
  });

  /** Resets with the service answering `answer`, then makes one call: the password that call carried. */
  async function passwordAfter(answer: Answer): Promise<{ error?: unknown; sent: string }> {
    service.next.answer = answer;
    const client = createPushClient({ url: service.url, login: 'push-login', password: OLD, retries: 0 });
    const error = await client.resetPassword(NEW).then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.message('m-1').catch(() => undefined);
    return { error, sent: service.seen.at(-1)! };
  }

  const json = 'application/json';
  const envelope = (status: string, error: string) => JSON.stringify({ status, errors: [error] });
  it.each([
    ['200 with the kit\'s {"status":"OK"}', { status: 200, body: '{"status":"OK"}', contentType: json }],
    ['200 with a body of another shape', { status: 200, body: '{"result":"changed","id":7}', contentType: json }],
    ['200 with no body', { status: 200 }],
    ['200 with a body that is not JSON', { status: 200, body: 'done', contentType: 'text/plain' }],
    ['201 with a body', { status: 201, body: '{}', contentType: json }],
    ['204', { status: 204 }],
  ])('switches to the new password when the service answers %s', async (_, answer) => {
    const { error, sent } = await passwordAfter(answer);
    expect(error).toBeUndefined();
    expect(sent).toBe(basic(NEW));
  });

  it.each([
    [
      '400 BAD_REQUEST',
      { status: 400, body: envelope('BAD_REQUEST', 'password: too short'), contentType: json },
      'BAD_REQUEST',
    ],
    [
      '401 UNAUTHORIZED',
      { status: 401, body: envelope('UNAUTHORIZED', 'invalid token'), contentType: json },
      'UNAUTHORIZED',
    ],
    ['500', { status: 500 }, 'PUSH_SERVER'],
    ['302', { status: 302 }, 'PUSH_PROTOCOL'],
  ])('keeps the old password and throws its typed error when the service answers %s', async (_, answer, code) => {
    const { error, sent } = await passwordAfter(answer);
    expect(error).toBeInstanceOf(PushError);
    expect((error as PushError).code).toBe(code);
    expect(sent).toBe(basic(OLD));
  });
});
