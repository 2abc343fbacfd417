import pg from 'pg';
import type { Simulator } from '../src/pay/sandbox-harness.js';
import { BASKET } from '../support/pay-server.js';
import { RpcClient, type RpcError } from '../support/ws-client.js';
import type { ServeInstance } from './instances.js';
import type { Outcome } from './till.js';

/** Polls `probe` until it holds: a pacing wait on a state only a request shows; false after `boundMs`. */
export async function polled(probe: () => Promise<boolean>, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether every instance's `/healthz` answers `status` (or, with `not`, anything else). */
export async function allHealth(instances: readonly ServeInstance[], status: number, not = false): Promise<boolean> {
  const answers = await Promise.all(instances.map((s) => s.health()));
  return answers.every((answer) => (answer === status) !== not);
}

/** The answers a till gets while PostgreSQL is down that are not the clean refusal a till retries. */
export const notClean = (answers: Record<string, string>): string[] =>
  Object.entries(answers)
    .filter(([, answer]) => !/^(DATABASE_UNAVAILABLE|upgrade 503|HTTP 503 DATABASE_UNAVAILABLE)$/.test(answer))
    .map(([what, answer]) => `${what}: ${answer}`);

/**
 * A till connecting to `instance` while its PostgreSQL is away (`outage` names how): the upgrade, a new payment,
 * reading it over the bridge and over HTTP. Resolves with each answer: a refusal's code, `answered`, `DROPPED` (the
 * connection went) or `UNANSWERED`; `upgrade <status>` when the bridge refused the connection.
 */
export async function probeOutage(
  instance: ServeInstance,
  key: string,
  barcode: string,
  outage: string,
): Promise<Record<string, string>> {
  const paymentId = `probe-${instance.name}-${outage}`;
  const name = `${instance.name} (${outage})`;
  const rpc = await RpcClient.connect(instance.wsUrl, { key }).catch(
    (error: { status?: number; code?: string }) => `upgrade ${error.status ?? error.code}`,
  );
  const answer = async (method: string, params: unknown): Promise<string> => {
    if (typeof rpc === 'string') return rpc;
    const lost = rpc.closed.then(() => 'DROPPED');
    const late = new Promise<string>((resolve) => setTimeout(resolve, 30_000, 'UNANSWERED').unref());
    return Promise.race([
      rpc.call(method, params).then(
        () => 'answered',
        (e: RpcError) => e.code,
      ),
      lost,
      late,
    ]);
  };
  const answers: Record<string, string> = {};
  const start = { fullBarcode: barcode, basket: BASKET, paymentId };
  answers[`${name} pay.start`] = await answer('pay.start', start);
  answers[`${name} pay.get`] = await answer('pay.get', { paymentId });
  if (typeof rpc !== 'string') rpc.ws.terminate();
  answers[`${name} GET /v1/payments/{id}`] = await fetch(`${instance.url}/v1/payments/${paymentId}`, {
    headers: { authorization: `Bearer ${key}` },
  }).then(
    async (res) => {
      const body = (await res.json().catch(() => ({}))) as { status?: string };
      return `HTTP ${res.status} ${body.status}`;
    },
    () => 'HTTP none',
  );
  return answers;
}

/**
 * What the wallet service's own records say of the run's payments, one card (one card session) each: charges, and
 * receipts against what each till was told (a receipt told sent is at the service once; one the service has was told).
 */
export async function sandboxRecords(sim: Simulator, outcomes: readonly Outcome[]) {
  const chargedTwice: string[] = [];
  const paidUntold: string[] = [];
  const receiptsDoubled: string[] = [];
  const receiptsLost: string[] = [];
  let extraTransactions = 0;
  for (const o of outcomes) {
    const { transactions } = await sim.get<{
      transactions: Array<{ transactionId: string; status: string; receipts: unknown[] }>;
    }>(`/sandbox/app/transactions?cardNumber=${encodeURIComponent(o.cardNumber)}`);
    extraTransactions += Math.max(0, transactions.length - 1);
    const succeeded = transactions.filter((t) => t.status === 'succeeded').map((t) => t.transactionId);
    if (succeeded.length > 1) chargedTwice.push(`${o.paymentId}: ${succeeded.join(', ')}`);
    if (succeeded.length > 0 && !o.told) paidUntold.push(`${o.paymentId} (${o.end}): ${succeeded.join(', ')}`);
    const receipts = transactions.reduce((n, t) => n + t.receipts.length, 0);
    if (receipts > 1) receiptsDoubled.push(`${o.paymentId}: ${receipts} receipts`);
    if (receipts > 0 !== o.paid) receiptsLost.push(`${o.paymentId} (${o.end}): ${receipts} receipts`);
  }
  return { chargedTwice, paidUntold, receiptsDoubled, receiptsLost, extraTransactions };
}

/** Phases after which nothing more comes for a payment but a till's intent (its receipt, a refund). */
const FINAL = "('succeeded', 'unsuccessful', 'unavailable', 'blocked', 'abandoned', 'refunded')";

/**
 * The kit's open payments (`till/payment phase`), its payments that ended but are still `active` or hold a lease,
 * and the cluster's advisory locks, read by SQL once all are none or `boundMs` has passed: the last receipt's write,
 * and the release of its lease, may still be under way when the tills are done.
 */
export async function kitLeftovers(
  url: string,
  boundMs: number,
): Promise<{ open: string[]; leased: string[]; locks: number }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const ids = async (where: string, more = "''") =>
    (
      await db.query<{ id: string }>(
        `SELECT till_id || '/' || payment_id || ' ' || phase || ${more} AS id FROM cashdesk_payments WHERE ${where}
         ORDER BY 1`,
      )
    ).rows.map((r) => r.id);
  // What holds an ended payment: its flags, its owner, and the transactions its session still watches.
  const holds = "' active ' || active || ' owner ' || coalesce(owner, '-') || ' left ' || (snapshot -> 'left')::text";
  try {
    const read = async () => ({
      open: await ids('open'),
      leased: await ids(
        `(NOT open OR phase IN ${FINAL}) AND (active OR owner IS NOT NULL OR lease_until IS NOT NULL)`,
        holds,
      ),
      locks: (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'"))
        .rows[0]!.n,
    });
    let rest = await read();
    await polled(async () => {
      rest = await read();
      return rest.open.length === 0 && rest.leased.length === 0 && rest.locks === 0;
    }, boundMs);
    return rest;
  } finally {
    await db.end();
  }
}
