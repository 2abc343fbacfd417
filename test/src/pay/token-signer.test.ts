import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, TokenSignerError } from '../../../src/errors.js';
import { createPayClient, PayError } from '../../../src/entries/pay.js';
import { loadTokenSigner } from '../../../src/pay/token-signer.js';
import { PARTNER_KEY } from '../../support/fixtures.js';
import { startFakePayServer } from './fake-pay-server.js';

const dir = mkdtempSync(join(tmpdir(), 'wpk-signer-'));
const module = (name: string, source: string) => {
  writeFileSync(join(dir, name), source);
  return join(dir, name);
};
const SHA1_MODULE = module(
  'sha1.mjs',
  `import { createHmac } from 'node:crypto';
export async function sign(bodyText, keyHex) {
  return createHmac('sha1', Buffer.from(keyHex, 'hex')).update(bodyText).digest('hex');
}`,
);
const THROWING = module('throwing.mjs', `export function sign() { throw new TypeError('no'); }`);
const NUMERIC = module('numeric.mjs', `export function sign() { return 12; }`);
const NO_SIGN = module('no-sign.mjs', `export const signer = 1;`);
const BROKEN = module('broken.mjs', `export function sign( {`);
const checkout = {
  requestId: 'req-1',
  cardSession: 'AB12CD34',
  items: [{ name: 'Milk', article: 'MILK-1', quantity: 1, price: 100 }],
  discountAmount: 0,
  totalAmount: 100,
};

let fake: Awaited<ReturnType<typeof startFakePayServer>>;
beforeAll(async () => {
  fake = await startFakePayServer();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.received.length = 0;
});

describe('loadTokenSigner', () => {
  it("signs with the module's sign, given the body text and the key in hex", async () => {
    const signer = await loadTokenSigner({ module: SHA1_MODULE }, PARTNER_KEY);
    const expected = createHmac('sha1', Buffer.from(PARTNER_KEY, 'hex')).update('{"a":1}').digest('hex');
    expect(await signer.getToken('{"a":1}')).toBe(expected);
    expect(signer.tokenScheme).toBe(`module ${SHA1_MODULE}`);
  });

  it('resolves a relative module path from baseDir', async () => {
    const signer = await loadTokenSigner({ module: './sha1.mjs' }, PARTNER_KEY, { baseDir: dir });
    expect(await signer.getToken('{}')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('signs with an hmac scheme without a module', async () => {
    const signer = await loadTokenSigner({ scheme: 'hmac-sha256-base64' }, PARTNER_KEY);
    const expected = createHmac('sha256', Buffer.from(PARTNER_KEY, 'hex')).update('{}').digest('base64');
    expect(await signer.getToken('{}')).toBe(expected);
  });

  it.each([
    [{ module: NO_SIGN }, /must export a function sign/],
    [{ module: BROKEN }, /does not load as an ES module/],
    [{ module: join(dir, 'missing.mjs') }, /does not load as an ES module/],
    [{ scheme: 'kit' as const }, /signs through a verifier/],
  ])('refuses %o with a ConfigError naming pay.token', async (config, message) => {
    const load = loadTokenSigner(config, PARTNER_KEY);
    await expect(load).rejects.toBeInstanceOf(ConfigError);
    await expect(load).rejects.toThrow(message);
    await expect(load).rejects.toThrow(/pay\.token/);
  });

  it('answers a TokenSignerError naming the module when its sign throws or answers a number', async () => {
    const throwing = await loadTokenSigner({ module: THROWING }, PARTNER_KEY);
    const numeric = await loadTokenSigner({ module: NUMERIC }, PARTNER_KEY);
    await expect(throwing.getToken('{}')).rejects.toThrow(`the token signer (module ${THROWING}) threw TypeError`);
    await expect(numeric.getToken('{}')).rejects.toBeInstanceOf(TokenSignerError);
  });
});

describe('createPayClient, token signers', () => {
  it("sends the module's token in the configured header over the exact body bytes", async () => {
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-1' } });
    const verifier = await loadTokenSigner({ module: SHA1_MODULE }, PARTNER_KEY);
    const pay = createPayClient({ baseUrl: fake.url, verifier, tokenHeader: 'X-Signature' });
    await pay.checkout(checkout);
    const [sent] = fake.received;
    const expected = createHmac('sha1', Buffer.from(PARTNER_KEY, 'hex')).update(sent!.body).digest('hex');
    expect(sent!.headers['x-signature']).toBe(expected);
  });

  it.each([
    [THROWING, /not sent: the token signer \(module .*throwing\.mjs\) threw TypeError/],
    [NUMERIC, /not sent: the token signer \(module .*numeric\.mjs\) answered a number/],
  ])('sends nothing and answers TOKEN_SIGNER_FAILED when %s fails', async (path, message) => {
    const verifier = await loadTokenSigner({ module: path }, PARTNER_KEY);
    const pay = createPayClient({ baseUrl: fake.url, verifier, retries: { max: 3 } });
    const error = await pay.checkout(checkout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayError);
    expect(error).toMatchObject({ code: 'TOKEN_SIGNER_FAILED', attempts: 0, path: '/checkout' });
    expect((error as PayError).message).toMatch(message);
    expect((error as PayError).transient).toBe(false);
    expect(fake.received).toHaveLength(0);
  });

  it('names the sign option when a sign function answers no string', async () => {
    const pay = createPayClient({ baseUrl: fake.url, sign: () => undefined as unknown as string });
    await expect(pay.availability({ cardSession: 'AB12CD34' })).rejects.toThrow(
      '/availability-info: not sent: the token signer (sign) answered undefined, not a string',
    );
    expect(fake.received).toHaveLength(0);
  });
});

describe('createPayClient, dialect fields', () => {
  it("reads a provider list and a default flag under the service's names", async () => {
    fake.script('/availability-info', {
      status: 200,
      body: { methods: [{ code: 'wallet', title: 'Wallet Pay', enabled: true }], isDefault: true },
    });
    const pay = createPayClient({
      baseUrl: fake.url,
      sign: () => 't',
      dialect: {
        fields: {
          providers: 'methods',
          walletPayIsDefault: 'isDefault',
          providerId: 'code',
          name: 'title',
          available: 'enabled',
        },
      },
    });
    expect(await pay.availability({ cardSession: 'AB12CD34' })).toEqual({
      walletPayIsDefault: true,
      providers: [{ providerId: 'wallet', name: 'Wallet Pay', available: true }],
    });
  });

  it('reads a /checkout transactionId under the service name, kept as the JSON number it was', async () => {
    fake.script('/checkout', { status: 200, body: { paymentId: 90071992547409, state: 'NEW' } });
    const pay = createPayClient({
      baseUrl: fake.url,
      sign: () => 't',
      dialect: { fields: { transactionId: 'paymentId', status: 'state' } },
    });
    expect(await pay.checkout(checkout)).toEqual({ transactionId: 90071992547409, requestId: 'req-1', status: 'NEW' });
  });
});
