import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL } from '../../support/pay-server.js';
import { DATABASE_URL, haveService } from '../../support/services.js';
import { type Dialect, FieldScene, KEYS, until } from './pay-field-scene.js';

// Each discrepancy made the way it happens in the field, with real processes: a `serve` child on PostgreSQL killed
// with -9, a refund by another system at the Pay API, an abandoned payment whose cancel failed. Then the commands
// with the server stopped, the server again, the back office over HTTP, and the reports against the sandbox's own
// records. One scene per dialect; its steps run in order.
const ready = haveService('DATABASE_URL', DATABASE_URL, 'the back office in the field (serve on PostgreSQL)');
const DIALECTS: Dialect[] = ['kit', 'foreign'];
const PART = 1_000;
const OTHER_REFUND = 2_500;

/** The transactions of the day's payments, by the payment's short name. */
type Ids = { n1: string; s1: string; n3: string; s2: string };

/**
 * The day in the field, up to the server's death: ordinary sales and refunds, then the three discrepancies. The
 * server is left dead and its leases lapsed, as the commands would find it hours later.
 */
async function fieldDay(scene: FieldScene): Promise<Ids> {
  const ids: Ids = { n1: '', s1: '', n3: '', s2: '' };
  ids.n1 = await scene.sale(KEYS.north, 'n-1');
  ids.s1 = await scene.sale(KEYS.south, 's-1');
  const refund = await scene.call('POST', '/v1/payments/n-1/refund', KEYS.north, { refundId: 'r-n1', amount: PART });
  if (refund.status !== 200) throw new Error(`till refund: ${JSON.stringify(refund.body)}`);
  await until('the till refund settled', async () =>
    (await scene.view(KEYS.north, 'n-1')).refunds?.[0]?.status === 'succeeded' ? true : undefined,
  );
  // Another system of the merchant's refunds part of s-1 at the Pay API.
  await scene.other.refund({ transactionId: ids.s1, refundId: 'erp-side', amount: OTHER_REFUND } as never);
  await until('the other refund settled', async () =>
    ((await scene.other.status({ transactionId: ids.s1 } as never)).refundedAmount ?? 0) >= OTHER_REFUND
      ? true
      : undefined,
  );
  // The till abandons a payment; its cancel fails at the service; the customer pays anyway.
  ids.n3 = await scene.checkout(KEYS.north, 'n-3');
  await scene.sb.sim.fault('/cancel', 'fail-before-commit', 20);
  const abandoned = await scene.call('POST', '/v1/payments/n-3/abandon', KEYS.north);
  if (abandoned.body.phase !== 'abandoned') throw new Error(`abandon: ${JSON.stringify(abandoned.body)}`);
  await scene.sb.sim.post('/sandbox/faults/clear');
  await scene.customerPays(ids.n3);
  // The server dies (kill -9) after a checkout, while its customer pays.
  ids.s2 = await scene.checkout(KEYS.south, 's-2');
  await scene.serve.kill9();
  await scene.customerPays(ids.s2);
  await scene.leasesLapsed();
  return ids;
}

/** Each dialect's scene, started once: both days are under way together (they share nothing), then read in turn. */
const days = new Map<Dialect, Promise<{ scene: FieldScene; ids: Ids }>>();
function dayOf(dialect: Dialect): Promise<{ scene: FieldScene; ids: Ids }> {
  let day = days.get(dialect);
  if (day === undefined) {
    day = FieldScene.start(dialect).then(async (scene) => {
      try {
        return { scene, ids: await fieldDay(scene) };
      } catch (error) {
        await scene.close();
        throw error;
      }
    });
    // Awaited by its own suite; a failure is reported there.
    day.catch(() => {});
    days.set(dialect, day);
  }
  return day;
}

describe.runIf(ready)('the back office in the field', () => {
  beforeAll(() => {
    for (const dialect of DIALECTS) void dayOf(dialect);
  });

  describe.each(DIALECTS)('with the sandbox in the %s dialect', (dialect) => {
    let scene: FieldScene;
    let ids: Ids;
    const dates = new Set([new Date().toISOString().slice(0, 10)]);

    beforeAll(async () => {
      ({ scene, ids } = await dayOf(dialect));
    }, 240_000);
    afterAll(async () => {
      await scene?.close();
    });

    it('pay reconcile, with the server stopped, exits 1 with the three discrepancies in --json', async () => {
      const { code, stdout, stderr } = await scene.pay('reconcile', '--json');
      expect(code, stderr).toBe(1);
      const report = JSON.parse(stdout);
      expect(report).toMatchObject({ payments: 4 });
      const found = report.discrepancies.map((d: any) => [d.kind, d.tillId, d.store, d.paymentId, d.transactionId]);
      expect(found).toEqual(
        expect.arrayContaining([
          ['paid_untold', 'south-1', 'south', 's-2', ids.s2],
          ['refund_unknown', 'south-1', 'south', 's-1', ids.s1],
          ['late_success', 'north-1', 'north', 'n-3', ids.n3],
        ]),
      );
      expect(found).toHaveLength(3);
    });

    it('pay reconcile --heal records the paid_untold payment and the outside refund, and nothing else', async () => {
      const { code, stdout } = await scene.pay('reconcile', '--heal', '--json');
      expect(code).toBe(1);
      const healed = JSON.parse(stdout).discrepancies.map((d: any) => [d.kind, d.healed]);
      expect(healed).toEqual(
        expect.arrayContaining([
          ['paid_untold', true],
          ['refund_unknown', true],
          ['late_success', false],
        ]),
      );
      const db = await scene.database();
      try {
        const { rows } = await db.query(
          "SELECT payment_id, phase FROM cashdesk_payments WHERE payment_id IN ('s-2', 'n-3')",
        );
        expect(Object.fromEntries(rows.map((r) => [r.payment_id, r.phase]))).toEqual({
          's-2': 'succeeded',
          'n-3': 'abandoned',
        });
      } finally {
        await db.end();
      }
    });

    it('tells the till its healed payment once the server runs again', async () => {
      await scene.serve.start();
      const view = await scene.view(KEYS.south, 's-2');
      expect(view).toMatchObject({ phase: 'succeeded', transactionId: expect.anything() });
      expect(String(view.transactionId)).toBe(ids.s2);
      // Its event stream, replayed from the start, ends in the success the heal wrote.
      expect(await scene.eventsUntil(KEYS.south, 's-2', '"phase":"succeeded"')).toContain('"phase":"succeeded"');
      // The refund another system made is the payment's now, for its till and the back office alike.
      const refunded = await scene.view(KEYS.south, 's-1');
      expect(refunded).toMatchObject({ refundedAmount: OTHER_REFUND });
      expect(refunded.refunds).toEqual([expect.objectContaining({ amount: OTHER_REFUND, origin: 'service' })]);
      const list = await scene.call('GET', '/v1/back-office/payments?tillId=south-1', KEYS.erp);
      const listed = list.body.payments.find((p: any) => p.paymentId === 's-1');
      expect(listed).toMatchObject({ refundedAmount: OTHER_REFUND });
    });

    it('refunds the late success from the back office over HTTP, and refuses a key without the scope', async () => {
      const path = '/v1/back-office/tills/north-1/payments/n-3/refund';
      const refusal = await scene.call('POST', path, KEYS.audit, { refundId: 'bo-late', transactionId: ids.n3 });
      expect(refusal).toMatchObject({ status: 403, body: { status: 'SCOPE_MISSING' } });
      const refund = await scene.call('POST', path, KEYS.erp, { refundId: 'bo-late', transactionId: ids.n3 });
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      await until('the late success refunded at the service', async () =>
        (await scene.sb.sim.transaction(ids.n3)).refundedAmount === TOTAL ? true : undefined,
      );
    });

    it("closes the day, from the command and over HTTP, with the sandbox's own totals", async () => {
      dates.add(new Date().toISOString().slice(0, 10));
      const sandbox = await scene.sandboxRecords();
      const paidAt = sandbox.filter((r) => r.status === 'succeeded');
      const expected = {
        paid: paidAt.reduce((sum, r) => sum + r.totalAmount, 0),
        refunded: sandbox.reduce((sum, r) => sum + r.refunded, 0),
      };
      expect(expected).toEqual({ paid: 4 * TOTAL, refunded: PART + OTHER_REFUND + TOTAL });
      // A run across midnight (UTC) closes both days: their sums are what the sandbox holds.
      const totals = { payments: 0, paid: 0, refunded: 0 };
      const tills = new Map<string, { paid: number; refunded: number }>();
      for (const date of dates) {
        const cli = await scene.pay('day-close', '--date', date, '--json');
        expect(cli.code, cli.stderr).toBe(0);
        const report = JSON.parse(cli.stdout);
        const http = await scene.call('GET', `/v1/back-office/reports/day-close?date=${date}`, KEYS.erp);
        expect(http.status).toBe(200);
        expect(http.body.totals).toEqual(report.totals);
        expect(http.body.tills).toEqual(report.tills);
        totals.payments += report.totals.payments;
        totals.paid += report.totals.paid;
        totals.refunded += report.totals.refunded;
        for (const t of report.tills) {
          const sum = tills.get(t.tillId) ?? { paid: 0, refunded: 0 };
          tills.set(t.tillId, { paid: sum.paid + t.paid, refunded: sum.refunded + t.refunded });
        }
        // Healed, the refund another system made is no discrepancy any more: it is in `refunded`.
        expect(report.discrepancies.filter((d: any) => d.kind === 'refund_unknown')).toEqual([]);
      }
      expect(totals).toEqual({ payments: 4, ...expected });
      // Per till too: each till's figures are the sandbox's for the payments that till made.
      const tillOf = (paymentId: string) => (paymentId.startsWith('n-') ? 'north-1' : 'south-1');
      const own = new Map<string, { paid: number; refunded: number }>();
      for (const r of sandbox) {
        const sum = own.get(tillOf(r.paymentId)) ?? { paid: 0, refunded: 0 };
        const paid = r.status === 'succeeded' ? r.totalAmount : 0;
        own.set(tillOf(r.paymentId), { paid: sum.paid + paid, refunded: sum.refunded + r.refunded });
      }
      expect(Object.fromEntries(tills)).toEqual(Object.fromEntries(own));
    });

    it('shows the audit log to the audit key only, with who did what', async () => {
      expect((await scene.call('GET', '/v1/audit', KEYS.erp)).status).toBe(403);
      const { status, body } = await scene.call('GET', '/v1/audit?limit=500', KEYS.audit);
      expect(status).toBe(200);
      const rows = body.entries.map((e: any) => [e.actor.kind, e.actor.id, e.action, e.paymentId, e.outcome]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ['till', 'north-1', 'checkout', 'n-1', 'ok'],
          ['till', 'north-1', 'refund', 'n-1', 'ok'],
          ['till', 'north-1', 'abandon', 'n-3', 'ok'],
          ['till', 'south-1', 'checkout', 's-2', 'ok'],
          ['backOffice', 'audit', 'refund', 'n-3', 'SCOPE_MISSING'],
          ['backOffice', 'erp', 'refund', 'n-3', 'ok'],
        ]),
      );
      const refund = body.entries.find((e: any) => e.actor.id === 'erp' && e.outcome === 'ok');
      expect(refund).toMatchObject({ tillId: 'north-1', refundId: 'bo-late', address: expect.any(String) });
    });

    it('has the database refuse DELETE and UPDATE on the audit table', async () => {
      const db = await scene.database();
      try {
        for (const sql of ['DELETE FROM cashdesk_audit', "UPDATE cashdesk_audit SET outcome = 'ok'"])
          await expect(db.query(sql)).rejects.toMatchObject({ code: '42501' });
        expect((await db.query('SELECT count(*)::int AS n FROM cashdesk_audit')).rows[0].n).toBeGreaterThan(0);
      } finally {
        await db.end();
      }
    });
  });
});
