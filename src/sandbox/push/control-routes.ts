import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { ErrorEnvelope } from '../../contracts/errors.js';
import { problem } from '../../../adapters/http-server/index.js';
import type { SandboxContext } from '../module.js';
import { accountView, createAccount, findAccount, updateAccount } from './accounts.js';
import { PUSH_TOPIC } from './events.js';
import { setPhoneState } from './simulator.js';
import {
  AccountView,
  CreateAccountRequest,
  CreatedAccount,
  DeliveriesQuery,
  DeliveriesResponse,
  DeliveryPath,
  DeliveryView,
  LoginPath,
  MsisdnPath,
  PhoneStateRequest,
  PhoneStateResponse,
  StatsQuery,
  StatsResponse,
  UpdateAccountRequest,
} from './schemas.js';
import { pushStats } from './stats.js';

const tags = ['Sandbox: Push test controls'];
const json = <T>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const body = <T>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });
const bad = { 400: json(ErrorEnvelope, 'The body or a parameter fails its schema (`BAD_REQUEST`).') };
const noAccount = { 404: json(ErrorEnvelope, 'No such account (`NOT_FOUND`).') };

const createAccountRoute = createRoute({
  operationId: 'sandboxCreatePushAccount',
  method: 'post',
  path: '/sandbox/push/accounts',
  tags,
  summary: 'Create a Push API account (initial password to reset, callback secret)',
  description: 'Answers the initial password and the callback secret; this is the only time they are shown.',
  request: body(CreateAccountRequest),
  responses: {
    200: json(CreatedAccount, 'The new account.'),
    ...bad,
    409: json(ErrorEnvelope, 'The login exists (`ACCOUNT_EXISTS`).'),
  },
});
const getAccountRoute = createRoute({
  operationId: 'sandboxGetPushAccount',
  method: 'get',
  path: '/sandbox/push/accounts/{login}',
  tags,
  summary: 'An account, without its secrets',
  request: { params: LoginPath },
  responses: { 200: json(AccountView, 'The account.'), ...bad, ...noAccount },
});
const updateAccountRoute = createRoute({
  operationId: 'sandboxUpdatePushAccount',
  method: 'patch',
  path: '/sandbox/push/accounts/{login}',
  tags,
  summary: 'Change the callback URL, the intervals of the 304 rule, or the delivery simulation',
  request: { params: LoginPath, ...body(UpdateAccountRequest) },
  responses: { 200: json(AccountView, 'The account.'), ...bad, ...noAccount },
});
const phoneRoute = createRoute({
  operationId: 'sandboxSetPhoneState',
  method: 'post',
  path: '/sandbox/push/phones/{msisdn}',
  tags,
  summary: 'Make a simulated phone unreachable (its messages then FAIL) or online again',
  request: { params: MsisdnPath, ...body(PhoneStateRequest) },
  responses: { 200: json(PhoneStateResponse, "The phone's state."), ...bad },
});
const statsRoute = createRoute({
  operationId: 'sandboxPushStats',
  method: 'get',
  path: '/sandbox/push/stats',
  tags,
  summary: "Counts of an account's messages (per subId): proves each number got exactly one message",
  request: { query: StatsQuery },
  responses: { 200: json(StatsResponse, 'The counts.'), ...bad, ...noAccount },
});
const deliveriesRoute = createRoute({
  operationId: 'sandboxPushDeliveries',
  method: 'get',
  path: '/sandbox/push/deliveries',
  tags,
  summary: "An account's callback deliveries, newest first, with every attempt",
  request: { query: DeliveriesQuery },
  responses: { 200: json(DeliveriesResponse, 'The deliveries.'), ...bad },
});
const redeliverRoute = createRoute({
  operationId: 'sandboxPushRedeliver',
  method: 'post',
  path: '/sandbox/push/deliveries/{id}/redeliver',
  tags,
  summary: 'Send a failed or pending callback again now',
  request: { params: DeliveryPath },
  responses: {
    200: json(DeliveryView, 'The delivery, due now.'),
    404: json(ErrorEnvelope, 'No such Push delivery, or it was delivered (`NOT_FOUND`).'),
  },
});

/** Mounts the sandbox's Push test controls under `/sandbox/push/` (no auth: a sandbox on loopback). */
export function mountControlRoutes(app: OpenAPIHono<Env>, ctx: SandboxContext): void {
  app.openapi(createAccountRoute, async (c) => {
    const input = c.req.valid('json');
    const created = await createAccount(ctx.db, ctx.clock(), input);
    if (created === undefined) throw problem('ACCOUNT_EXISTS', [`login: ${input.login} exists`]);
    ctx.logger.info({ login: created.login, partner: created.partner }, 'push account created');
    return c.json(created, 200);
  });

  app.openapi(getAccountRoute, async (c) => {
    const account = await findAccount(ctx.db, c.req.valid('param').login);
    if (account === undefined) throw problem('NOT_FOUND', ['login: no such account']);
    return c.json(accountView(account), 200);
  });

  app.openapi(updateAccountRoute, async (c) => {
    const account = await updateAccount(ctx.db, c.req.valid('param').login, ctx.clock(), c.req.valid('json'));
    if (account === undefined) throw problem('NOT_FOUND', ['login: no such account']);
    return c.json(accountView(account), 200);
  });

  app.openapi(phoneRoute, async (c) => {
    const { msisdn } = c.req.valid('param');
    const { state } = c.req.valid('json');
    await setPhoneState(ctx.db, ctx.clock(), msisdn, state);
    return c.json({ msisdn, state }, 200);
  });

  app.openapi(statsRoute, async (c) => {
    const { login, subId } = c.req.valid('query');
    if ((await findAccount(ctx.db, login)) === undefined) throw problem('NOT_FOUND', ['login: no such account']);
    return c.json(await pushStats(ctx.db, login, subId), 200);
  });

  app.openapi(deliveriesRoute, async (c) => {
    const { login, limit } = c.req.valid('query');
    return c.json({ deliveries: await ctx.outbox.list({ topic: PUSH_TOPIC, owner: login, limit: limit ?? 100 }) }, 200);
  });

  app.openapi(redeliverRoute, async (c) => {
    const { id } = c.req.valid('param');
    const [delivery] = await ctx.outbox.list({ topic: PUSH_TOPIC, id, limit: 1 });
    if (delivery === undefined || !(await ctx.outbox.redeliver(id)))
      throw problem('NOT_FOUND', ['id: no such Push delivery waiting or failed']);
    const [after] = await ctx.outbox.list({ topic: PUSH_TOPIC, id, limit: 1 });
    return c.json(after!, 200);
  });
}
