import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { openDatabase } from '../../../src/db/index.js';
import { startLoyaltyProgram, type RunningLoyaltyProgram } from '../../../src/entries/loyalty.js';
import { uniqueSchema } from '../../support/databases.js';
import { captureLog, leakedSecrets, type CapturedLog } from '../../support/log-capture.js';
import { DATABASE_URL, haveService } from '../../support/services.js';

const NUL = '\u0000';
const CONTROL = 'must not contain control characters';
const QR = 't=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1';

type Case = { name: string; options: () => { databaseUrl?: string; databaseSchema?: string } };
const cases: Case[] = [{ name: 'pglite', options: () => ({}) }];
if (haveService('DATABASE_URL', DATABASE_URL, 'the Loyalty server hostile-text checks on PostgreSQL')) {
  cases.push({
    name: 'postgres',
    options: () => ({ databaseUrl: DATABASE_URL!, databaseSchema: uniqueSchema('lht') }),
  });
}

async function answer(res: Response) {
  const body = JSON.parse(await res.text()) as { status: string; errors: string[] };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(body).toEqual({ status: expect.any(String), errors: expect.any(Array), requestId: expect.any(String) });
  return { status: res.status, body, headers: res.headers };
}

describe.each(cases)('the Loyalty server on $name, given NUL bytes and deep JSON', ({ options }) => {
  const partnerKey = randomBytes(32).toString('hex');
  const credentials = { login: 'wallet', password: `loyalty-${randomBytes(12).toString('hex')}` };
  const auth = { authorization: basicAuthHeader(credentials.login, credentials.password) };
  let log: CapturedLog;
  let running: RunningLoyaltyProgram;
  let schema: string | undefined;
  let card: { cardNumber: string; cardKey?: string };
  const call = (method: string, path: string, body?: string | object, headers: Record<string, string> = auth) =>
    fetch(running.url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    log = captureLog();
    const chosen = options();
    schema = chosen.databaseSchema;
    running = await startLoyaltyProgram({ port: 0, partnerKey, credentials, logger: log.logger, ...chosen });
    const issued = await call('POST', '/v1/card/anonymous', { requestId: 'r-1' });
    expect(issued.status).toBe(200);
    card = (await issued.json()) as typeof card;
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    if (schema !== undefined) {
      const db = await openDatabase({ url: DATABASE_URL! });
      try {
        await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await db.close();
      }
    }
  });

  it('refuses a NUL in a promo code or a receipt QR with 400 naming the field', async () => {
    expect(
      await answer(await call('POST', '/v1/promo/code', { cardNumber: card.cardNumber, code: `WELCOME${NUL}` })),
    ).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST', errors: [`code: ${CONTROL}`] } });
    expect(
      await answer(await call('POST', '/v1/promo/qrCode', { cardNumber: card.cardNumber, qrCode: `${QR}&x=${NUL}` })),
    ).toMatchObject({ status: 400, body: { errors: [`qrCode: ${CONTROL}`] } });
  });

  it('refuses Basic credentials holding a NUL with 401', async () => {
    for (const [login, password] of [
      [`wallet${NUL}`, credentials.password],
      ['wallet', `${credentials.password}${NUL}`],
    ] as const) {
      expect(
        await answer(
          await call(
            'POST',
            '/v1/card/anonymous',
            { requestId: 'r-2' },
            { authorization: basicAuthHeader(login, password) },
          ),
        ),
      ).toMatchObject({ status: 401, body: { status: 'UNAUTHORIZED' } });
    }
  });

  it('refuses %00 in the card number path parameter with 400', async () => {
    expect(await answer(await call('GET', `/v1/card/${card.cardNumber}%00/categories`))).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST' },
    });
  });

  it('answers a body nested 5000 deep with 400', async () => {
    const text = `{"favorites":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await answer(await call('POST', `/v1/card/${card.cardNumber}/categories/favorite`, text))).toMatchObject({
      status: 400,
      body: { errors: ['body: nesting deeper than 64 levels'] },
    });
  });

  it('answers a wrong method with 405 and Allow, before the Basic auth', async () => {
    const res = await answer(await call('GET', '/v1/card/anonymous', undefined, {}));
    expect(res).toMatchObject({
      status: 405,
      body: { status: 'METHOD_NOT_ALLOWED', errors: ['method: must be POST'] },
    });
    expect(res.headers.get('allow')).toBe('POST');
    expect(
      (
        await answer(await call('DELETE', `/v1/card/${card.cardNumber}/categories/favorite`, undefined, {}))
      ).headers.get('allow'),
    ).toBe('GET, HEAD, POST');
  });

  it('wrote none of the secrets or card data to its log, and no error', () => {
    const text = log.text();
    expect(
      leakedSecrets(text, [
        partnerKey,
        credentials.password,
        card.cardNumber,
        ...(card.cardKey === undefined ? [] : [card.cardKey]),
      ]),
    ).toEqual([]);
    expect(log.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
