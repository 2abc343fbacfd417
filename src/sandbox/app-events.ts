import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { streamChanges } from '../../adapters/http-server/change-stream.js';
import type { SandboxContext } from './module.js';

/** Where the wallet app's page (and the merchant console) hear that something changed. */
export const APP_EVENTS_PATH = '/sandbox/app/events';

const eventsRoute = createRoute({
  operationId: 'sandboxAppEvents',
  method: 'get',
  path: APP_EVENTS_PATH,
  tags: ['Sandbox: wallet-app simulator'],
  summary:
    'Change notices as server-sent events: `ready`, then `change` with `{"topic": "pay" | "push" | "webhooks" | ' +
    '"loyalty"}`',
  description:
    'Carries no data: the page fetches again what the topic names (invoices, inbox, deliveries, loyalty). Ends ' +
    'when the sandbox stops.',
  responses: { 200: { description: 'An event stream.', content: { 'text/event-stream': { schema: z.string() } } } },
});

/** Mounts `GET /sandbox/app/events`. */
export function mountAppEvents(app: OpenAPIHono<Env>, ctx: SandboxContext): void {
  app.openAPIRegistry.registerPath(eventsRoute);
  app.get(APP_EVENTS_PATH, (c) => streamChanges(c, (listener) => ctx.changes.subscribe(listener)));
}
