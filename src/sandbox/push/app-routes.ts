import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { ErrorEnvelope } from '../../contracts/errors.js';
import type { SandboxContext } from '../module.js';
import { InboxMessagePath, InboxResponse, MsisdnPath } from './schemas.js';
import { inbox, markRead } from './simulator.js';

const tags = ['Sandbox: wallet-app simulator'];
const json = <T>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });

const inboxRoute = createRoute({
  operationId: 'sandboxInbox',
  method: 'get',
  path: '/sandbox/app/inbox/{msisdn}',
  tags,
  summary: 'The push messages a simulated phone got, newest first (100 at most)',
  request: { params: MsisdnPath },
  responses: {
    200: json(InboxResponse, 'The inbox.'),
    400: json(ErrorEnvelope, 'Not a valid number (`BAD_REQUEST`).'),
  },
});
const InboxMessage = InboxResponse.shape.messages.element;
const readRoute = createRoute({
  operationId: 'sandboxReadMessage',
  method: 'post',
  path: '/sandbox/app/inbox/{msisdn}/messages/{messageId}/read',
  tags,
  summary: 'The customer opens a message: READ (delivered first if it was not yet), with its callbacks',
  request: { params: InboxMessagePath },
  responses: {
    200: json(InboxMessage, 'The message, now READ.'),
    400: json(ErrorEnvelope, 'Not a valid number (`BAD_REQUEST`).'),
    404: json(ErrorEnvelope, 'No such message on this phone (`NOT_FOUND`).'),
    409: json(ErrorEnvelope, 'The message FAILED, or the phone is unreachable (`INVALID_STATE`).'),
  },
});

/** Mounts the wallet-app simulator's Push inbox under `/sandbox/app/`. */
export function mountAppRoutes(app: OpenAPIHono<Env>, ctx: SandboxContext): void {
  app.openapi(inboxRoute, async (c) => c.json({ messages: await inbox(ctx.db, c.req.valid('param').msisdn) }, 200));
  app.openapi(readRoute, async (c) => {
    const { msisdn, messageId } = c.req.valid('param');
    const read = await markRead(ctx.db, ctx.outbox, ctx.clock(), msisdn, messageId);
    ctx.changes.publish('push');
    return c.json(read, 200);
  });
}
