import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { setBankSettings, type BankSettings } from './bank.js';
import type { FaultAction, Faults } from './faults.js';
import { transactionRecord } from './records.js';
import { jsonBody } from './routes-api.js';
import type { PayRuntime } from './runtime.js';
import { setRefundSettings, type RefundSettings } from './refund-settings.js';
import {
  bankRoute,
  clearFaultsRoute,
  faultRoute,
  redeliverRoute,
  refundSettingsRoute,
  transactionRoute,
  webhooksRoute,
} from './simulator-spec.js';
import { requireTransaction } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

const param = (c: Context, name: string) => (c.req.valid as (t: 'param') => Record<string, string>)('param')[name]!;

/**
 * Mounts the test controls under /sandbox/: the simulated bank's answers (and refunds'),
 * injected faults, webhook deliveries (list, redeliver) and a transaction's
 * full record.
 */
export function mountControls(app: OpenAPIHono<Env>, rt: PayRuntime, faults: Faults): void {
  const handle = (route: object, handler: (c: Context) => Promise<Response> | Response) =>
    app.openapi(route as never, handler as never);

  handle(bankRoute, async (c) => c.json(await setBankSettings(rt.ctx.db, jsonBody<BankSettings>(c))));

  handle(refundSettingsRoute, async (c) => c.json(await setRefundSettings(rt.ctx.db, jsonBody<RefundSettings>(c))));

  handle(faultRoute, (c) => {
    const body = jsonBody<{ path: string; action: FaultAction; count: number; delayMs: number }>(c);
    faults.add(body);
    return c.json({ faults: faults.list() });
  });

  handle(clearFaultsRoute, (c) => {
    faults.clear();
    return c.json({ faults: [] });
  });

  handle(webhooksRoute, async (c) => {
    const { topic, owner } = (c.req.valid as (t: 'query') => { topic?: string; owner?: string })('query');
    return c.json({ deliveries: await rt.ctx.outbox.list({ topic, owner }) });
  });

  handle(redeliverRoute, async (c) => {
    const id = param(c, 'id');
    if (!(await rt.ctx.outbox.redeliver(id))) throw payRefusal('NOT_FOUND', ['id: no such pending or failed delivery']);
    return c.json({ id, redelivered: true as const });
  });

  handle(transactionRoute, async (c) => {
    const t = await requireTransaction(rt.ctx.db, { transactionId: param(c, 'transactionId') });
    return c.json(await transactionRecord(rt.ctx.db, t));
  });
}
