import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { mountWebPage } from '../../../adapters/http-server/web-pages.js';
import { confirmInvoice } from './bank.js';
import { issueCard } from './cards.js';
import { sweep } from './expiry.js';
import { customerAct } from './operations.js';
import { requirePartner, upsertPartner } from './partners.js';
import { cardTransactions, pendingInvoices } from './records.js';
import { jsonBody } from './routes-api.js';
import { write, type PayRuntime } from './runtime.js';
import type { CardRequest, PartnerRequest } from './simulator-schemas.js';
import {
  appPageRoute,
  barcodeRoute,
  cardRoute,
  cardTransactionsRoute,
  confirmRoute,
  customerCancelRoute,
  declineRoute,
  invoicesRoute,
  partnerRoute,
} from './simulator-spec.js';
import { transactionState } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

const param = (c: Context, name: string) => (c.req.valid as (t: 'param') => Record<string, string>)('param')[name]!;
const query = <T>(c: Context) => (c.req.valid as (t: 'query') => T)('query');

/**
 * Mounts the wallet-app simulator under /sandbox/: partners, cards and their
 * barcodes, the customer's pending invoices and what the customer does with
 * them (confirm, decline, cancel), the card's history, and the wallet app's page at /sandbox/app.
 */
export function mountSimulator(app: OpenAPIHono<Env>, rt: PayRuntime): void {
  const handle = (route: object, handler: (c: Context) => Promise<Response> | Response) =>
    app.openapi(route as never, handler as never);
  const ttl = rt.options.cardSessionTtlSeconds;

  handle(partnerRoute, async (c) => {
    const body = jsonBody<PartnerRequest>(c);
    const partner = await upsertPartner(rt.ctx.db, { ...body, webhookUrl: body.webhookUrl }, new Date(rt.ctx.clock()));
    rt.partners.forget(partner.partnerId);
    return c.json({
      partnerId: partner.partnerId,
      webhookUrl: partner.webhookUrl,
      webhookSecret: partner.webhookSecret,
      layout: partner.layout,
      scheme: partner.scheme,
    });
  });

  handle(cardRoute, async (c) => {
    const { partnerId, ...input } = jsonBody<CardRequest>(c);
    const partner = await requirePartner(rt.ctx.db, partnerId);
    return c.json(await write(rt, (tx) => issueCard(tx, partner, input, rt.ctx.clock(), ttl)));
  });

  handle(barcodeRoute, async (c) => {
    const { partnerId, ...input } = jsonBody<Omit<CardRequest, 'cardNumber'>>(c);
    const partner = await requirePartner(rt.ctx.db, partnerId);
    const cardNumber = param(c, 'cardNumber');
    const known = await rt.ctx.db.query('SELECT 1 FROM pay_cards WHERE partner_id = $1 AND card_number = $2', [
      partner.partnerId,
      cardNumber,
    ]);
    if (known.rows.length === 0)
      throw payRefusal('NOT_FOUND', ['cardNumber: no such card; issue it with POST /sandbox/cards']);
    return c.json(await write(rt, (tx) => issueCard(tx, partner, { ...input, cardNumber }, rt.ctx.clock(), ttl)));
  });

  handle(invoicesRoute, async (c) => {
    const { cardNumber, partnerId } = query<{ cardNumber: string; partnerId?: string }>(c);
    const partner = await requirePartner(rt.ctx.db, partnerId);
    await sweep(rt);
    return c.json({ invoices: await pendingInvoices(rt.ctx.db, partner.partnerId, cardNumber) });
  });

  handle(cardTransactionsRoute, async (c) => {
    const { cardNumber, partnerId } = query<{ cardNumber: string; partnerId?: string }>(c);
    const partner = await requirePartner(rt.ctx.db, partnerId);
    return c.json({ transactions: await cardTransactions(rt.ctx.db, partner.partnerId, cardNumber, 20) });
  });

  handle(confirmRoute, async (c) => {
    const transactionId = param(c, 'transactionId');
    return c.json(transactionState(await write(rt, (tx, effects) => confirmInvoice(tx, rt, transactionId, effects))));
  });

  handle(declineRoute, async (c) => {
    const reason = jsonBody<{ reason?: 'DECLINED' | 'INSUFFICIENT_FUNDS' }>(c).reason ?? 'DECLINED';
    return c.json(await customerAct(rt, param(c, 'transactionId'), { kind: 'decline', reason }));
  });

  handle(customerCancelRoute, async (c) =>
    c.json(await customerAct(rt, param(c, 'transactionId'), { kind: 'cancel' })),
  );

  // The page is the build's (web/), served with its assets: documented here, routed by mountWebPage.
  app.openAPIRegistry.registerPath(appPageRoute);
  mountWebPage(app, '/sandbox/app', 'wallet');
}
