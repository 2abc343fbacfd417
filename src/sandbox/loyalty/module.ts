import { randomInt, randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { generateBarcode } from '../../../adapters/node/primitives.js';
import { formatReceiptQr, receiptTimeOf } from '../../contracts/loyalty/index.js';
import { demoConfig } from '../../demo.js';
import { problem } from '../../../adapters/http-server/index.js';
import { createLoyaltyClient, type LoyaltyClient } from '../../loyalty/client/client.js';
import { runConformanceCheck } from '../../loyalty/check/check.js';
import { formatConformanceReport } from '../../loyalty/check/format.js';
import { LoyaltyClientError, LoyaltyError } from '../../loyalty/errors.js';
import type { SandboxContext, SandboxModule } from '../module.js';
import { driverRoutes as routes } from './contract.js';
import { DEMO_BARCODE_LAYOUT, DriverStore, type DriverTarget } from './driver-store.js';
import { loyaltyDriverMigrations } from './migrations.js';

/** Where `loyalty --demo` listens by default: the demo target. */
export const DEMO_LOYALTY_URL = 'http://127.0.0.1:8091';

/** The merchant's answer as the sandbox's own: refusals and failures become 502 with the merchant's words. */
async function relay<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LoyaltyError) {
      throw problem('MERCHANT_ERROR', [`merchant answered ${error.httpStatus} ${error.code}`, ...error.errors]);
    }
    if (error instanceof LoyaltyClientError) {
      throw problem(error.code === 'LOYALTY_PROTOCOL' ? 'MERCHANT_OFF_CONTRACT' : 'MERCHANT_UNREACHABLE', [
        error.message,
      ]);
    }
    throw error;
  }
}

function freshReceipt(now: number, sum: number): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');
  return formatReceiptQr({
    time: receiptTimeOf(now),
    sum,
    fiscalDriveNumber: `92${digits(14)}`,
    documentNumber: randomInt(1, 1_000_000_000),
    fiscalSign: String(randomInt(1, 2 ** 32)),
    operationType: 1,
  });
}

/** The driver's store and its configured target, and a Loyalty client for that target. */
function driverOf(ctx: SandboxContext) {
  const store = new DriverStore(ctx.db);
  const target = async (): Promise<DriverTarget> => {
    const found = await store.target();
    if (!found)
      throw problem('TARGET_NOT_CONFIGURED', [
        'target: none yet; PUT /sandbox/loyalty/target {url, login, password} first',
      ]);
    return found;
  };
  const client = async (): Promise<{ client: LoyaltyClient; target: DriverTarget }> => {
    const t = await target();
    return { target: t, client: createLoyaltyClient({ baseUrl: t.url, login: t.login, password: t.password }) };
  };
  return { store, target, client };
}

type Driver = ReturnType<typeof driverOf>;

function mount(app: OpenAPIHono<Env>, ctx: SandboxContext): void {
  const driver = driverOf(ctx);
  // What the customer did reaches the merchant: the pages (the merchant console's loyalty part) read again.
  for (const path of ['/sandbox/loyalty/cards', '/sandbox/loyalty/cards/*']) {
    app.use(path, async (c, next) => {
      await next();
      if (c.req.method === 'POST' && c.res.status < 300) ctx.changes.publish('loyalty');
    });
  }
  mountTargetAndCards(app, ctx, driver);
  mountCustomerCalls(app, ctx, driver);
}

/** The target to drive, the cards issued through it, and their barcodes as the app shows them. */
function mountTargetAndCards(app: OpenAPIHono<Env>, ctx: SandboxContext, { store, target, client }: Driver): void {
  const publicTarget = (t: DriverTarget) => {
    const { key: _key, ...layout } = t.barcode;
    return { url: t.url, login: t.login, barcode: layout };
  };
  app.openapi(routes.putTarget, async (c) => {
    const body = c.req.valid('json');
    const t = {
      url: body.url,
      login: body.login,
      password: body.password,
      barcode: body.barcode ?? DEMO_BARCODE_LAYOUT,
    };
    await store.setTarget(t, new Date(ctx.clock()));
    return c.json(publicTarget(t), 200);
  });
  app.openapi(routes.getTarget, async (c) => c.json(publicTarget(await target()), 200));

  app.openapi(routes.issue, async (c) => {
    const requestId = c.req.valid('json').requestId ?? `sandbox-${randomUUID()}`;
    const { client: loyalty, target: t } = await client();
    const card = await relay(() => loyalty.issueAnonymousCard(requestId));
    return c.json(await store.addCard({ ...card, requestId }, t.url, new Date(ctx.clock())), 200);
  });
  app.openapi(routes.list, async (c) => c.json({ cards: await store.cards() }, 200));

  app.openapi(routes.barcode, async (c) => {
    const { cardNumber } = c.req.valid('param');
    const { cardSession } = c.req.valid('query');
    const card = await store.card(cardNumber);
    if (!card) throw problem('NOT_FOUND', ['cardNumber: not a card the sandbox was issued']);
    const {
      barcode: { key, ...layout },
    } = await target();
    // card-bound merchants gave the card its key; rfc6238 ones did not, and the app draws with the partner key.
    if (card.cardKey === undefined && key === undefined) {
      throw problem('PARTNER_KEY_UNKNOWN', [
        'barcode.key: the card has no cardKey (an rfc6238 merchant); PUT /sandbox/loyalty/target with ' +
          'barcode.key, the partner key',
      ]);
    }
    const keyed = card.cardKey !== undefined ? { scheme: 'card-bound' as const, cardKey: card.cardKey } : { key: key! };
    return c.json(
      { fullBarcode: generateBarcode({ ...layout, ...keyed, cardNumber, cardSession, at: ctx.clock() }) },
      200,
    );
  });
}

/** What the customer does in the app, relayed to the merchant's Loyalty server; and its conformance check. */
function mountCustomerCalls(app: OpenAPIHono<Env>, ctx: SandboxContext, { target, client }: Driver): void {
  app.openapi(routes.categories, async (c) => {
    const { client: loyalty } = await client();
    return c.json(await relay(() => loyalty.listCategories(c.req.valid('param').cardNumber)), 200);
  });
  app.openapi(routes.getFavorites, async (c) => {
    const { client: loyalty } = await client();
    return c.json(await relay(() => loyalty.getFavoriteCategories(c.req.valid('param').cardNumber)), 200);
  });
  app.openapi(routes.setFavorites, async (c) => {
    const { client: loyalty } = await client();
    return c.json(
      await relay(() => loyalty.setFavoriteCategories(c.req.valid('param').cardNumber, c.req.valid('json').favorites)),
      200,
    );
  });
  app.openapi(routes.promo, async (c) => {
    const { client: loyalty } = await client();
    return c.json(
      await relay(() => loyalty.sendPromoCode(c.req.valid('param').cardNumber, c.req.valid('json').code)),
      200,
    );
  });
  app.openapi(routes.receipt, async (c) => {
    const body = c.req.valid('json');
    const qrCode = body.qrCode ?? freshReceipt(ctx.clock(), body.sum ?? 100_000);
    const { client: loyalty } = await client();
    return c.json(
      { ...(await relay(() => loyalty.sendReceiptQr(c.req.valid('param').cardNumber, qrCode))), qrCode },
      200,
    );
  });

  app.openapi(routes.check, async (c) => {
    const body = c.req.valid('json');
    const configured =
      body.url === undefined || body.login === undefined || body.password === undefined ? await target() : undefined;
    const report = await runConformanceCheck({
      baseUrl: body.url ?? configured!.url,
      login: body.login ?? configured!.login,
      password: body.password ?? configured!.password,
      clock: ctx.clock,
    });
    return c.json({ ...report, lines: formatConformanceReport(report) }, 200);
  });
}

/**
 * The sandbox's Loyalty API driver: the wallet service's side of the Loyalty
 * API. A person or a test points it at a merchant's Loyalty server
 * (`PUT /sandbox/loyalty/target`) and makes it call that server as the wallet
 * would: issue a card (kept, with its key, so the app simulator can draw its
 * barcode), pick favourites, enter a promo code, scan a receipt, and run the
 * conformance check. With `--demo` the target is `loyalty --demo` on its default port.
 */
export const loyaltyDriverModule: SandboxModule = {
  name: 'loyalty-driver',
  migrations: loyaltyDriverMigrations,
  mount,
  async seedDemo(ctx) {
    const store = new DriverStore(ctx.db);
    await store.setTarget(
      { url: DEMO_LOYALTY_URL, ...demoConfig.loyalty, barcode: DEMO_BARCODE_LAYOUT },
      new Date(ctx.clock()),
      true,
    );
    const t = await store.target();
    return [
      `Loyalty    the driver calls ${t?.url ?? DEMO_LOYALTY_URL} (run \`wallet-partner-kit loyalty --demo\`); ` +
        `change it with PUT {url}/sandbox/loyalty/target`,
      `           issue a card: curl -s -X POST -H 'Content-Type: application/json' -d '{}' ` +
        `{url}/sandbox/loyalty/cards`,
      "           check it: curl -s -X POST -H 'Content-Type: application/json' -d '{}' {url}/sandbox/loyalty/check",
    ];
  },
};
