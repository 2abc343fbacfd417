import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { PUSH_HEADERS, PUSH_PATHS, type PushMessageState, type PushStatus } from '../../contracts/push/index.js';
import { registerPushOpenApi } from '../../routes/push-openapi.js';
import { PUSH_ROUTES } from '../../routes/push.js';
import { problem } from '../../../adapters/http-server/index.js';
import type { SandboxContext } from '../module.js';
import { setPassword } from './accounts.js';
import { currentAccount, pushAuth, VerifiedPasswords } from './auth.js';
import { hashPassword, verifyPassword } from './password.js';
import { retryHeaders, TooEarly } from './rate.js';
import { sendBatch, sendSingle, type SendResult } from './send.js';

/** 304 without a body (HTTP forbids one), the wait in the headers. */
function notModified(waitMs: number): Response {
  return new Response(null, { status: 304, headers: retryHeaders(waitMs) });
}

async function answer<T>(run: () => Promise<SendResult<T>>): Promise<Response> {
  try {
    const { response, replayed } = await run();
    return Response.json(response, {
      status: 200,
      headers: replayed ? { [PUSH_HEADERS.idempotentReplayed]: 'true' } : {},
    });
  } catch (error) {
    if (error instanceof TooEarly) return notModified(error.waitMs);
    throw error;
  }
}

/**
 * Mounts the Push API (the interface document, section 4.3) under `/public`: Basic auth and
 * the initial-password rule first, then the contract's routes.
 */
export function mountPublicRoutes(app: OpenAPIHono<Env>, ctx: SandboxContext): void {
  const verified = new VerifiedPasswords();
  registerPushOpenApi(app);
  const guard = ctx.authLimiter && { limiter: ctx.authLimiter, logger: ctx.logger, realm: 'push' };
  app.use('/public/*', pushAuth(ctx.db, verified, PUSH_PATHS.resetPassword, guard));

  app.openapi(PUSH_ROUTES.resetPassword, async (c) => {
    const account = currentAccount(c);
    const { password } = c.req.valid('json');
    // The auth step just checked the current password, so the cache answers without another scrypt run.
    const same =
      verified.matches(account.login, account.passwordHash, password) ??
      (await verifyPassword(password, account.passwordHash));
    if (same) throw problem('BAD_REQUEST', ['password: must differ from the current password']);
    const hash = await hashPassword(password);
    await setPassword(ctx.db, account.login, hash, ctx.clock());
    // The next call with the new password needs no scrypt run either.
    verified.remember(account.login, hash, password);
    ctx.logger.info({ login: account.login }, 'push account password reset');
    return c.json({ status: 'OK' as const }, 200);
  });

  // A send puts messages in phones' inboxes: the wallet app's page reads its inbox again.
  app.use(PUSH_PATHS.single, async (_c, next) => {
    await next();
    ctx.changes.publish('push');
  });
  app.use(PUSH_PATHS.batch, async (_c, next) => {
    await next();
    ctx.changes.publish('push');
  });

  // The send's context: the caller's account, the sandbox's clock, the request's Idempotency-Key.
  const sendContext = (c: Context<Env>, path: string, idempotencyKey: string | undefined) => ({
    db: ctx.db,
    account: currentAccount(c),
    now: ctx.clock(),
    timeScale: ctx.timeScale,
    idempotencyKey,
    path,
  });
  app.openapi(
    PUSH_ROUTES.sendSingle,
    async (c) =>
      answer(() =>
        sendSingle(sendContext(c, PUSH_PATHS.single, c.req.valid('header')['idempotency-key']), c.req.valid('json')),
      ) as never,
  );
  app.openapi(
    PUSH_ROUTES.sendBatch,
    async (c) =>
      answer(() =>
        sendBatch(sendContext(c, PUSH_PATHS.batch, c.req.valid('header')['idempotency-key']), c.req.valid('json')),
      ) as never,
  );

  app.openapi(PUSH_ROUTES.getMessage, async (c) => {
    const { messageId } = c.req.valid('param');
    const { rows } = await ctx.db.query<{
      message_id: string;
      sub_id: string;
      msisdn: string;
      status: PushStatus;
      updated_at: Date;
    }>(
      'SELECT message_id, sub_id, msisdn, status, updated_at FROM push_messages WHERE message_id = $1 AND login = $2',
      [messageId, currentAccount(c).login],
    );
    const row = rows[0];
    if (row === undefined) throw problem('NOT_FOUND', ['messageId: no such message']);
    const state: PushMessageState = {
      messageId: row.message_id,
      subId: row.sub_id,
      msisdn: row.msisdn,
      status: row.status,
      updatedAt: row.updated_at.toISOString(),
    };
    return c.json(state, 200);
  });
}
