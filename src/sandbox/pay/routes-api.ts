import { answerNames } from './answer-names.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { registerPayOpenApi } from '../../routes/pay-openapi.js';
import { PAY_PATHS, PAY_ROUTES } from '../../routes/pay.js';
import { partnerOf, signedPartner, walletToken } from './auth.js';
import { checkout, type CheckoutBody } from './checkout.js';
import type { Faults } from './faults.js';
import { availability, availabilityTask, cancel, receipt, status, type TaskBody } from './operations.js';
import { refund, type RefundBody } from './refunds.js';
import { deferredRefund } from './refunds-deferred.js';
import type { PayRuntime } from './runtime.js';

/** The validated JSON body of a request (the route's schema's output). */
export function jsonBody<T>(c: Context): T {
  return (c.req.valid as (target: 'json') => T)('json');
}

function jsonText(c: Context, text: string): Response {
  return c.body(text, 200, { 'content-type': 'application/json' });
}

/**
 * Mounts the seven Pay API routes (openapi/pay.json). Each runs, in order:
 * the injected fault (if any), the token check over the raw body (401), the
 * schema (400), then the operation (422, 404, 409). Stored answers
 * (/checkout, /refund, /availability-info/task) are sent as stored, byte for byte.
 * The answers are worded by the runtime's dialect: its middleware goes around
 * each route (refusals) and after the token check (ids), its views word the
 * transactions; the kit's dialect adds nothing.
 */
export function mountPayApi(app: OpenAPIHono<Env>, rt: PayRuntime, faults: Faults): void {
  registerPayOpenApi(app);
  const { dialect } = rt;
  const renaming = answerNames(rt.options.answerFields);
  const guarded = (path: string, required: boolean) => [
    ...(renaming ? [renaming] : []),
    ...dialect.outside,
    faults.middleware(path),
    walletToken(rt, { required }),
    ...dialect.inside,
  ];
  const signed = (path: string) => guarded(path, true);
  const handle = (route: object, handler: (c: Context) => Promise<Response>) =>
    app.openapi(route as never, handler as never);

  handle({ ...PAY_ROUTES.availability, middleware: signed(PAY_PATHS.availability) }, async (c) =>
    c.json(await availability(rt, signedPartner(c), jsonBody<{ cardSession: string }>(c).cardSession)),
  );

  handle({ ...PAY_ROUTES.availabilityTask, middleware: signed(PAY_PATHS.availabilityTask) }, async (c) =>
    jsonText(c, await availabilityTask(rt, signedPartner(c), jsonBody<TaskBody>(c))),
  );

  handle({ ...PAY_ROUTES.checkout, middleware: signed(PAY_PATHS.checkout) }, async (c) =>
    jsonText(c, dialect.checkout(await checkout(rt, signedPartner(c), jsonBody<CheckoutBody>(c)))),
  );

  handle({ ...PAY_ROUTES.status, middleware: guarded(PAY_PATHS.status, false) }, async (c) => {
    const partnerId = partnerOf(c)?.partnerId;
    const key = jsonBody<{ transactionId: string } | { requestId: string; cardSession: string }>(c);
    return c.json(dialect.transaction(await status(rt, { ...key, ...(partnerId === undefined ? {} : { partnerId }) })));
  });

  handle({ ...PAY_ROUTES.cancel, middleware: signed(PAY_PATHS.cancel) }, async (c) => {
    const { transactionId } = jsonBody<{ transactionId: string }>(c);
    return c.json(dialect.transaction(await cancel(rt, signedPartner(c), transactionId)));
  });

  handle({ ...PAY_ROUTES.refund, middleware: signed(PAY_PATHS.refund) }, async (c) =>
    dialect.refunds === 'deferred'
      ? c.json(dialect.refund(await deferredRefund(rt, signedPartner(c), jsonBody<RefundBody>(c))))
      : jsonText(c, await refund(rt, signedPartner(c), jsonBody<RefundBody>(c))),
  );

  handle({ ...PAY_ROUTES.receipt, middleware: signed(PAY_PATHS.receipt) }, async (c) => {
    const body = jsonBody<{ transactionId: string; receipt: Record<string, unknown>; receiptId?: string }>(c);
    return c.json(
      dialect.receipt(await receipt(rt, signedPartner(c), body.transactionId, body.receipt, body.receiptId)),
    );
  });
}
