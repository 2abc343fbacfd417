/** The demo system's merchant back office (callback receiver, Push account, console) and in-process sandbox calls. */
import type { Logger } from 'pino';
import { demoConfig, demoConsoleAccount } from '../demo.js';
import type { RunningLoyaltyProgram } from '../loyalty-program/start.js';
import type { RunningSandbox } from '../sandbox/server.js';
import { createCallbackReceiver, type CallbackReceiver } from '../callback-receiver/receiver.js';
import { createPushClient } from '../push/client.js';
import { CallbackLog } from './console/callback-log.js';
import { CampaignRunner } from './console/campaigns.js';
import { MerchantConsole } from './console/merchant-console.js';
import { listening } from './demo-ports.js';

/** Calls the sandbox's own API in process, throwing on an answer that is not 2xx. */
export async function sandboxCall<T>(
  sandbox: RunningSandbox,
  method: 'POST' | 'PUT' | 'PATCH',
  path: string,
  body: unknown,
): Promise<T> {
  const res = await sandbox.sandbox.app.request(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The merchant's back office of the demo system: a Callback API receiver (on the Loyalty server's database, the
 * other back-office server) whose callbacks the console shows, the console's Push account in the sandbox (created,
 * its password reset; on a kept data folder, its callback URL updated), and the merchant console itself.
 */
export async function startBackOffice(
  sandbox: RunningSandbox,
  loyalty: RunningLoyaltyProgram,
  host: string,
  port: number,
  logger: Logger,
  clock?: () => number,
): Promise<{ receiver: CallbackReceiver; url: string; merchant: MerchantConsole }> {
  const account = demoConsoleAccount;
  const log = new CallbackLog();
  let merchant: MerchantConsole | undefined;
  const receiver = await createCallbackReceiver({
    secrets: account.callbackSecret,
    database: loyalty.db,
    pollMs: 100,
    logger: logger.child({ system: 'callbacks' }),
    handler: (event) => {
      log.add(event, new Date(clock?.() ?? Date.now()));
      merchant?.feed.publish('callbacks');
    },
    ...(clock ? { clock } : {}),
  });
  try {
    const { url } = await listening('callback receiver', host, port, () => receiver.listen({ host, port }));
    const callbackUrl = `${url}/callback`;
    const created = await sandbox.sandbox.app.request('/sandbox/push/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        login: account.login,
        partner: demoConfig.verifier.partnerId,
        password: account.password,
        callbackUrl,
        callbackSecret: account.callbackSecret,
        batchIntervalMs: 100,
      }),
    });
    if (created.status === 409) {
      await sandboxCall(sandbox, 'PATCH', `/sandbox/push/accounts/${account.login}`, { callbackUrl });
    } else if (!created.ok) {
      throw new Error(`sandbox POST /sandbox/push/accounts answered ${created.status}: ${await created.text()}`);
    } else {
      await createPushClient({ url: sandbox.url, login: account.login, password: account.password }).resetPassword(
        account.newPassword,
      );
    }
    const push = createPushClient({ url: sandbox.url, login: account.login, password: account.newPassword });
    const campaigns = new CampaignRunner(
      push,
      () => merchant?.feed.publish('campaigns'),
      logger.child({ system: 'console' }),
      clock,
    );
    merchant = new MerchantConsole({
      sandbox,
      loyalty,
      callbacks: log,
      campaigns,
      tills: demoConfig.tills.map((t) => t.id),
    });
    return { receiver, url, merchant };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}
