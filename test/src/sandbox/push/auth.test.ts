import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import { basic, call, freshLogin, message, NEW_PASSWORD } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

const UNAUTHORIZED = { status: 'UNAUTHORIZED', errors: ['Invalid authorization token'] };
const single = { msisdn: '79991234567', subId: 'auth-test', message };

describe.each(sandboxCases('Push auth'))('Push API authentication on $name', ({ start }) => {
  let sandbox: RunningSandbox;
  let url: string;
  beforeAll(async () => {
    sandbox = await start({ timeScale: 1000 });
    url = sandbox.url;
  });
  afterAll(() => sandbox?.close());

  async function newAccount() {
    const login = freshLogin('auth');
    const created = await call(url, 'POST', '/sandbox/push/accounts', { login, partner: 'p' });
    expect(created.status).toBe(200);
    return { login, password: created.body.password as string };
  }

  function expect401(res: Awaited<ReturnType<typeof call>>) {
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="push"');
  }

  it('answers 401 to every call but the reset while the initial password is in force', async () => {
    const { login, password } = await newAccount();
    const auth = basic(login, password);
    expect401(await call(url, 'POST', '/public/push/single', single, auth));
    expect401(await call(url, 'POST', '/public/push/batch', { msisdn: ['79991234567'], subId: 's', message }, auth));
    expect401(await call(url, 'GET', '/public/push/pm_000000000000000000000000', undefined, auth));
    // Even an invalid body is refused as 401 first: nothing about the API is told before the reset.
    expect401(await call(url, 'POST', '/public/push/batch', { msisdn: null }, auth));
    const account = await call(url, 'GET', `/sandbox/push/accounts/${login}`);
    expect(account.body).toMatchObject({ login, passwordReset: false });
  });

  it('answers 401 without credentials, with malformed ones, an unknown login or a wrong password', async () => {
    const { login } = await newAccount();
    expect401(await call(url, 'POST', '/public/push/single', single));
    expect401(await call(url, 'POST', '/public/push/single', single, { authorization: 'Bearer abc' }));
    expect401(await call(url, 'POST', '/public/push/single', single, { authorization: 'Basic !!!' }));
    expect401(
      await call(url, 'PUT', '/public/user/reset-password', { password: NEW_PASSWORD }, basic(login, 'wrong-password')),
    );
    expect401(
      await call(
        url,
        'PUT',
        '/public/user/reset-password',
        { password: NEW_PASSWORD },
        basic('no-such-login', 'whatever-password'),
      ),
    );
    expect((await call(url, 'GET', `/sandbox/push/accounts/${login}`)).body.passwordReset).toBe(false);
  });

  it('moves to "password reset" with the initial password, then takes only the new one', async () => {
    const { login, password } = await newAccount();
    const reset = await call(
      url,
      'PUT',
      '/public/user/reset-password',
      { password: NEW_PASSWORD },
      basic(login, password),
    );
    expect(reset).toMatchObject({ status: 200, body: { status: 'OK' } });
    expect((await call(url, 'POST', '/public/push/single', single, basic(login, NEW_PASSWORD))).status).toBe(200);
    expect401(await call(url, 'POST', '/public/push/single', { ...single, subId: 'other' }, basic(login, password)));
    expect((await call(url, 'GET', `/sandbox/push/accounts/${login}`)).body.passwordReset).toBe(true);
  });

  it('lets the password be rotated again with the current one, and refuses the same password', async () => {
    const { login, password } = await newAccount();
    await call(url, 'PUT', '/public/user/reset-password', { password: NEW_PASSWORD }, basic(login, password));
    const same = await call(
      url,
      'PUT',
      '/public/user/reset-password',
      { password: NEW_PASSWORD },
      basic(login, NEW_PASSWORD),
    );
    expect(same).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST', errors: ['password: must differ from the current password'] },
    });
    const rotated = await call(
      url,
      'PUT',
      '/public/user/reset-password',
      { password: 'third-password-xyz' },
      basic(login, NEW_PASSWORD),
    );
    expect(rotated.status).toBe(200);
    expect401(await call(url, 'POST', '/public/push/single', single, basic(login, NEW_PASSWORD)));
    expect((await call(url, 'POST', '/public/push/single', single, basic(login, 'third-password-xyz'))).status).toBe(
      200,
    );
  });

  it('refuses the same password written in another Unicode form (NFD for NFC), as scrypt sees them', async () => {
    const login = freshLogin('auth');
    const nfc = 'caf\u00e9-password-1';
    expect((await call(url, 'POST', '/sandbox/push/accounts', { login, partner: 'p', password: nfc })).status).toBe(
      200,
    );
    const same = await call(
      url,
      'PUT',
      '/public/user/reset-password',
      { password: nfc.normalize('NFD') },
      basic(login, nfc),
    );
    expect(same).toMatchObject({ status: 400, body: { errors: ['password: must differ from the current password'] } });
  });

  it('checks the new password against the contract and keeps the initial state on a bad one', async () => {
    const { login, password } = await newAccount();
    const res = await call(url, 'PUT', '/public/user/reset-password', { password: 'short' }, basic(login, password));
    expect(res).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST', errors: ['password: must be 12 to 128 characters'] },
    });
    expect401(await call(url, 'POST', '/public/push/single', single, basic(login, password)));
  });

  it('never echoes a password in an answer', async () => {
    const { login, password } = await newAccount();
    const res = await call(url, 'POST', '/public/push/single', single, basic(login, password));
    expect(res.text).not.toContain(password);
    const account = await call(url, 'GET', `/sandbox/push/accounts/${login}`);
    expect(account.text).not.toContain(password);
    expect(account.body).not.toHaveProperty('callbackSecret');
  });
});
