import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from '../../adapters/http-server/serve.js';
import { CallbackEvent } from '../contracts/callback/index.js';
import { ErrorEnvelope } from '../contracts/errors.js';
import { validationErrors } from '../contracts/validation-errors.js';
import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from '../contracts/json-depth.js';
import { singleLine } from '../contracts/text.js';
import { silentLogger, withLogPolicy } from '../log/index.js';
import { openDatabase, type Database, type DatabaseOptions } from '../db/index.js';
import { ConfigError } from '../errors.js';
import {
  createApiApp,
  HealthCheck,
  HttpProblem,
  mountHealthRoutes,
  problem,
  serveOpenApi,
} from '../../adapters/http-server/index.js';
import { safeEqual } from '../net/basic-auth.js';
import { WebhookError } from '../webhooks/errors.js';
import { createWebhookVerifier } from '../webhooks/verifier.js';
import { CallbackDispatcher, type CallbackHandler } from '../callback/dispatcher.js';
import { MessageDeliveryState } from '../callback/schemas.js';
import { CallbackStore } from '../callback/store.js';

/** Options of {@link createCallbackReceiver}. */
export interface CallbackReceiverOptions {
  /** The account's callback secret(s), `whsec_...`; several during a rotation. */
  secrets: string | readonly string[];
  /**
   * Where events are kept: an open {@link Database} (yours to close), or options to open one
   * (closed with the receiver). Default: PostgreSQL at `DATABASE_URL` when set, else PGlite in memory.
   */
  database?: Database | DatabaseOptions;
  /**
   * Your code, run for each new event after it is stored. If it throws, the event is retried later. Default none
   * (events are only stored).
   */
  handler?: CallbackHandler;
  /** Path the wallet service POSTs to. Default `/callback`. */
  path?: string;
  /** Largest |now - webhook-timestamp| accepted, in seconds. Default 300. */
  toleranceSeconds?: number;
  /**
   * When set, `GET /messages/{messageId}` needs `Authorization: Bearer <queryToken>`. Default none: keep the receiver
   * on loopback or behind your gateway.
   */
  queryToken?: string;
  /** Largest callback body. Default 64 KiB. */
  bodyLimitBytes?: number;
  /** Handler retry: first wait and longest wait, ms. Defaults 1 000 and 300 000. */
  handlerRetryBaseMs?: number;
  handlerRetryMaxMs?: number;
  /** How often stored events are re-checked for the handler. Default 1 000 ms. */
  pollMs?: number;
  clock?: () => number;
  logger?: Logger;
}

/** A Callback API receiver (the interface document, section 6; the kit's payload in src/contracts/callback). */
export interface CallbackReceiver {
  /** The Hono app: mount it in your own server, or {@link listen}. */
  readonly app: OpenAPIHono;
  readonly store: CallbackStore;
  /**
   * Serves the app (default 127.0.0.1, a free port; `limits`: timeouts and connection cap, default
   * `DEFAULT_SERVER_LIMITS`; `tls` and `trustedProxies` as `serveHttp` takes them) and starts the handler;
   * `close()` of the handle stops listening, `reloadTls()` reads the certificate again.
   */
  listen(
    options?: Pick<ServeHttpOptions, 'host' | 'port' | 'limits' | 'tls' | 'trustedProxies' | 'logger'>,
  ): Promise<HttpServerHandle>;
  /**
   * Starts handing stored events to the handler (done by `listen`; call it yourself when you mount `app` elsewhere).
   */
  start(): void;
  /** Stops listening and dispatching, then closes the database if the receiver opened it. Idempotent. */
  close(): Promise<void>;
}

const optionsSchema = z
  .object({
    secrets: z.union([z.string(), z.array(z.string()).min(1, { error: 'must hold at least one secret' })]),
    path: z
      .string()
      .regex(/^\/[\w\-./]*$/, { error: 'must be a path such as /callback' })
      .default('/callback'),
    toleranceSeconds: z.number().int().min(1).max(86_400).default(300),
    queryToken: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    bodyLimitBytes: z
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(64 * 1024),
    handlerRetryBaseMs: z.number().int().min(1).optional(),
    handlerRetryMaxMs: z.number().int().min(1).optional(),
    pollMs: z.number().int().min(10).optional(),
  })
  .loose();

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const messageRoute = createRoute({
  method: 'get',
  path: '/messages/{messageId}',
  summary: 'Delivery and read state of a message, from the callbacks received',
  request: { params: z.object({ messageId: singleLine(z.string().min(1).max(128)) }) },
  responses: {
    200: { description: 'The state', content: { 'application/json': { schema: MessageDeliveryState } } },
    401: {
      description: 'queryToken set and not presented',
      content: { 'application/json': { schema: ErrorEnvelope } },
    },
    404: { description: 'No event for this message yet', content: { 'application/json': { schema: ErrorEnvelope } } },
  },
});

/**
 * A Callback API receiver: verifies the Standard Webhooks signature over the
 * raw body, refuses stale timestamps, stores each event once per `webhook-id`
 * (a redelivery is answered 200 and changes nothing) durably BEFORE answering
 * 200, then hands it to `handler`; plus `GET /messages/{messageId}`.
 * Refusals: 400 `WEBHOOK_HEADERS_MISSING` or `BAD_REQUEST`; 401 `WEBHOOK_SIGNATURE_INVALID` or
 * `WEBHOOK_TIMESTAMP_STALE`; 500 when storing failed (the sender retries).
 *
 * @throws ConfigError for bad options, WebhookError `WEBHOOK_SECRET_INVALID` for a bad secret.
 * @example
 * const receiver = await createCallbackReceiver({
 *   secrets: process.env.CALLBACK_SECRET!,
 *   handler: async (event) => { if (event.type === 'push.read') await markRead(event.messageId); },
 * });
 * const { url } = await receiver.listen({ port: 8095 });
 */
export async function createCallbackReceiver(options: CallbackReceiverOptions): Promise<CallbackReceiver> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'callback receiver options');
  const { path, toleranceSeconds, queryToken, bodyLimitBytes } = parsed.data;
  const clock = options.clock ?? Date.now;
  const logger = withLogPolicy(options.logger ?? silentLogger());
  const verifier = createWebhookVerifier(options.secrets, { toleranceSeconds, clock });

  const { db, owned, store } = await openCallbackStore(options.database);
  const dispatcher =
    options.handler === undefined
      ? undefined
      : new CallbackDispatcher({
          store,
          handler: options.handler,
          logger,
          clock,
          retryBaseMs: parsed.data.handlerRetryBaseMs,
          retryMaxMs: parsed.data.handlerRetryMaxMs,
          pollMs: parsed.data.pollMs,
        });

  const app = createApiApp({ logger, bodyLimitBytes });
  app.post(path, async (c) => {
    const { event, text } = receivedEvent(verifier, c.req.raw.headers, new Uint8Array(await c.req.arrayBuffer()));
    // Committed before the 200: an event acknowledged is an event kept.
    const stored = await store.insert(event, text, new Date(clock()));
    if (stored) dispatcher?.kick();
    return c.json({ status: 'OK', duplicate: !stored }, 200);
  });
  app.openapi(messageRoute, async (c) => {
    if (queryToken !== undefined) {
      const presented = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
      if (!safeEqual(presented, queryToken))
        throw problem('UNAUTHORIZED', ['Invalid authorization token'], { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    const { messageId } = c.req.valid('param');
    const state = await store.messageState(messageId);
    if (state === undefined) throw problem('NOT_FOUND', ['messageId: no event received for this message']);
    return c.json(state, 200);
  });
  mountHealthRoutes(app, new HealthCheck({ database: () => db.query('SELECT 1') }, { clock }), () => ({
    database: db.kind,
  }));
  serveOpenApi(app, { title: 'wallet-partner-kit Callback receiver', version: '1.0.0' });

  let servers: HttpServerHandle[] = [];
  let closing: Promise<void> | undefined;
  return {
    app: app as unknown as OpenAPIHono,
    store,
    start: () => dispatcher?.start(),
    async listen(listenOptions = {}) {
      const handle = await serveHttp(app, {
        host: listenOptions.host ?? '127.0.0.1',
        port: listenOptions.port ?? 0,
        limits: listenOptions.limits,
        ...(listenOptions.tls === undefined ? {} : { tls: listenOptions.tls }),
        ...(listenOptions.trustedProxies === undefined ? {} : { trustedProxies: listenOptions.trustedProxies }),
        ...(listenOptions.logger === undefined ? {} : { logger: listenOptions.logger }),
      });
      servers.push(handle);
      dispatcher?.start();
      return handle;
    },
    close() {
      closing ??= (async () => {
        await Promise.all(servers.map((s) => s.close()));
        servers = [];
        await dispatcher?.close();
        if (owned) await db.close();
      })();
      return closing;
    },
  };
}

/** The store on the given database, or on one of its own (`owned`: closed with the receiver), migrated. */
async function openCallbackStore(
  given: CallbackReceiverOptions['database'],
): Promise<{ db: Database; owned: boolean; store: CallbackStore }> {
  const owned = given === undefined || !('query' in given);
  const db: Database = owned
    ? await openDatabase((given as DatabaseOptions | undefined) ?? { url: process.env.DATABASE_URL || undefined })
    : given;
  const store = new CallbackStore(db);
  try {
    await store.migrate();
  } catch (error) {
    if (owned) await db.close();
    throw error;
  }
  return { db, owned, store };
}

/**
 * The event a callback request carries, and its text as received, or the refusal: the signature over the raw
 * body first (WEBHOOK_* codes), then the body (`BAD_REQUEST`): JSON in UTF-8, the event's contract, its
 * `eventId` the `webhook-id` header, its `occurredAt` an RFC 3339 time.
 */
function receivedEvent(
  verifier: ReturnType<typeof createWebhookVerifier>,
  headers: Headers,
  body: Uint8Array,
): { event: CallbackEvent; text: string } {
  let webhookId: string;
  try {
    webhookId = verifier.verify(headers, body).id;
  } catch (error) {
    if (!(error instanceof WebhookError)) throw error;
    throw problem(error.code, [error.message]);
  }
  let text: string;
  let json: unknown;
  try {
    text = utf8.decode(body);
    if (jsonTooDeep(text)) throw problem('BAD_REQUEST', [JSON_TOO_DEEP_MESSAGE]);
    json = JSON.parse(text);
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    throw problem('BAD_REQUEST', ['body: must be JSON in UTF-8']);
  }
  const event = CallbackEvent.safeParse(json);
  if (!event.success) throw problem('BAD_REQUEST', validationErrors(event.error));
  if (event.data.eventId !== webhookId) throw problem('BAD_REQUEST', ['eventId: must equal the webhook-id header']);
  if (!RFC3339.test(event.data.occurredAt) || Number.isNaN(Date.parse(event.data.occurredAt))) {
    throw problem('BAD_REQUEST', ['occurredAt: must be an RFC 3339 time']);
  }
  return { event: event.data, text };
}
