import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { silentLogger, withLogPolicy } from '../log/index.js';
import type { z } from 'zod';
import {
  AnonymousCardResponse,
  CategoriesResponse,
  FavoritesResponse,
  PromoCodeResponse,
  ReceiptQrResponse,
  parseReceiptQr,
  type LoyaltyOperation,
} from '../contracts/loyalty/index.js';
import { loyaltyOpenApiDocument } from '../routes/loyalty-openapi.js';
import { LOYALTY_ROUTES } from '../routes/loyalty.js';
import { LOYALTY_API_VERSION } from '../contracts/loyalty/versions.js';
import {
  createApiApp,
  HealthCheck,
  limiterFrom,
  mountHealthRoutes,
  problem,
  REQUEST_ID_HEADER,
} from '../../adapters/http-server/index.js';
import type { FailureLimiter, FailureLimiterOptions } from '../guard/failure-limiter.js';
import { LoyaltyError } from '../loyalty/errors.js';
import type { LoyaltyCallContext, LoyaltyHandlers } from '../loyalty/handlers.js';
import { basicAuth, type LoyaltyAuth, type LoyaltyAuthVariables } from './auth.js';
import { MemoryIdempotencyCache, type IdempotencyCache } from './idempotency.js';
import { validationErrors } from '../contracts/validation-errors.js';

/** Options of {@link createLoyaltyServer}. */
export interface LoyaltyServerOptions {
  /** The merchant's six functions. */
  handlers: LoyaltyHandlers;
  /** The Basic credentials the wallet service calls with. */
  auth: LoyaltyAuth;
  /** Where failures are logged (never bodies or credentials). Default: silent. */
  logger?: Logger;
  /** Largest request body. Default 64 KiB (the largest valid body is a few KiB). */
  bodyLimitBytes?: number;
  /**
   * Coalesces `issueAnonymousCard` calls by requestId (concurrent repeats run the
   * handler once; answers replayed for 24 h). Default: in memory. `false`: the
   * handler alone is responsible.
   */
  idempotency?: IdempotencyCache | false;
  /**
   * What `GET /healthz` probes (e.g. the handlers' database); 503 names the failing ones. Default: nothing, always 200.
   */
  health?: HealthCheck;
  /**
   * Brute-force limit on Basic auth: a limiter (pass your own to read its
   * `lockouts` count), its options, or `false`. Default: 50 failures per
   * address and 10 per login (for addresses where it has not succeeded) per
   * 5 min, then 429 with `Retry-After` for 5 min; each lockout logged once.
   */
  bruteForce?: FailureLimiter | FailureLimiterOptions | false;
}

type Env = { Variables: LoyaltyAuthVariables };

const RESPONSES: Record<LoyaltyOperation, z.ZodType> = {
  issueAnonymousCard: AnonymousCardResponse,
  listCategories: CategoriesResponse,
  getFavoriteCategories: FavoritesResponse,
  setFavoriteCategories: FavoritesResponse,
  sendPromoCode: PromoCodeResponse,
  sendReceiptQr: ReceiptQrResponse,
};

/**
 * The merchant's Loyalty API server (the interface document, section 4.4): the six routes under
 * `/v1` with the contract's validation, Basic auth (checked first: 401 before
 * 400), request ids (`x-request-id`), `LoyaltyError` mapped to the envelope,
 * answers checked against the contract, idempotent card issue, plus
 * `GET /healthz`, `GET /livez` and `GET /openapi.json` (unauthenticated). Listen with
 * `serveHttp(app, { port })` or any Hono adapter.
 *
 * @example
 * const app = createLoyaltyServer({
 *   handlers: myHandlers,
 *   auth: { login: 'wallet', password: process.env.LOYALTY_PASSWORD! },
 * });
 * const { url } = await serveHttp(app, { port: 8091 });
 */
export function createLoyaltyServer(options: LoyaltyServerOptions): OpenAPIHono<Env> {
  const logger = withLogPolicy(options.logger ?? silentLogger());
  const { handlers } = options;
  const idempotency = options.idempotency === false ? undefined : (options.idempotency ?? new MemoryIdempotencyCache());
  const app = createApiApp<Env>({ logger, bodyLimitBytes: options.bodyLimitBytes ?? 64 * 1024 });

  let document: string | undefined;
  app.get('/openapi.json', (c) => {
    document ??= JSON.stringify(loyaltyOpenApiDocument());
    return c.body(document, 200, { 'Content-Type': 'application/json' });
  });
  mountHealthRoutes(app, options.health ?? new HealthCheck({}), () => ({
    api: 'loyalty',
    version: LOYALTY_API_VERSION,
  }));
  const limiter = limiterFrom(options.bruteForce);
  app.use('/v1/*', basicAuth(options.auth, limiter && { limiter, logger, realm: 'loyalty' }));

  const call = <T>(operation: LoyaltyOperation, c: Context<Env>, run: (ctx: LoyaltyCallContext) => Promise<T>) =>
    runHandler(logger, operation, c, run);

  app.openapi(LOYALTY_ROUTES.issueAnonymousCard, async (c) => {
    const { requestId } = c.req.valid('json');
    const body = await call('issueAnonymousCard', c, (ctx) =>
      idempotency
        ? idempotency.run(`${ctx.login}\n${requestId}`, () => handlers.issueAnonymousCard({ requestId }, ctx))
        : handlers.issueAnonymousCard({ requestId }, ctx),
    );
    return c.json(body, 200);
  });
  app.openapi(LOYALTY_ROUTES.listCategories, async (c) => {
    const { cardNumber } = c.req.valid('param');
    return c.json(await call('listCategories', c, (ctx) => handlers.listCategories({ cardNumber }, ctx)), 200);
  });
  app.openapi(LOYALTY_ROUTES.getFavoriteCategories, async (c) => {
    const { cardNumber } = c.req.valid('param');
    return c.json(
      await call('getFavoriteCategories', c, (ctx) => handlers.getFavoriteCategories({ cardNumber }, ctx)),
      200,
    );
  });
  app.openapi(LOYALTY_ROUTES.setFavoriteCategories, async (c) => {
    const { cardNumber } = c.req.valid('param');
    const { favorites } = c.req.valid('json');
    return c.json(
      await call('setFavoriteCategories', c, (ctx) => handlers.setFavoriteCategories({ cardNumber, favorites }, ctx)),
      200,
    );
  });
  app.openapi(LOYALTY_ROUTES.sendPromoCode, async (c) => {
    const { cardNumber, code } = c.req.valid('json');
    return c.json(await call('sendPromoCode', c, (ctx) => handlers.sendPromoCode({ cardNumber, code }, ctx)), 200);
  });
  app.openapi(LOYALTY_ROUTES.sendReceiptQr, async (c) => {
    const { cardNumber, qrCode } = c.req.valid('json');
    const parsed = parseReceiptQr(qrCode);
    // The schema already refused a bad string; this only narrows the type.
    if (!parsed.ok)
      throw problem(
        'BAD_REQUEST',
        parsed.problems.map((p) => `qrCode: ${p}`),
      );
    return c.json(
      await call('sendReceiptQr', c, (ctx) =>
        handlers.sendReceiptQr({ cardNumber, qrCode, receipt: parsed.receipt }, ctx),
      ),
      200,
    );
  });
  return app;
}

/** Runs a handler: LoyaltyError to its envelope, the answer checked against the contract. */
async function runHandler<T>(
  logger: Logger,
  operation: LoyaltyOperation,
  c: Context<Env>,
  run: (ctx: LoyaltyCallContext) => Promise<T>,
): Promise<T> {
  const ctx: LoyaltyCallContext = {
    requestId: c.res.headers.get(REQUEST_ID_HEADER) ?? '',
    login: c.get('loyaltyLogin'),
  };
  let answer: T;
  try {
    answer = await run(ctx);
  } catch (error) {
    // The status the error carries: its code's, unless the handler chose another (LoyaltyError's `httpStatus`).
    if (error instanceof LoyaltyError) throw problem(error.code, error.errors, { httpStatus: error.httpStatus });
    throw error;
  }
  const checked = RESPONSES[operation].safeParse(answer);
  if (!checked.success) {
    // Paths and messages only: the values may be personal data.
    logger.error({ operation, issues: validationErrors(checked.error) }, 'handler answered off-contract');
    throw problem('INTERNAL', ['Internal error']);
  }
  return checked.data as T;
}
