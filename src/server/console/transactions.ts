import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { Payments } from '../../cashdesk/payments/api.js';
import type { RunningSandbox } from '../../sandbox/server.js';

/** One attempt to deliver a `transaction.updated` webhook, and what the cash desk's handler said of its signature. */
export interface AttemptView {
  attempt: number;
  at: string;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  /**
   * `verified`: the handler checked the Standard Webhooks signature and took it (2xx); `refused`: 401; else unknown.
   */
  signature: 'verified' | 'refused' | 'unknown';
}

/** A transaction as the merchant console shows it. */
export interface TransactionView {
  tillId: string;
  payment: PaymentView;
  /** Each status the wallet service announced, oldest first (one per transaction version). */
  history: Array<{ status: string; reason?: string; refundedAmount?: number; at: string }>;
  deliveries: Array<{ id: string; status: string; attempts: AttemptView[] }>;
  refunds: Array<{ refundId: string; amount: number; createdAt: string }>;
}

interface Announced {
  type: string;
  timestamp: string;
  data: { transactionId: string; status: string; reason?: string; refundedAmount?: number };
}

const signatureOf = (status: number | null): AttemptView['signature'] =>
  status === null ? 'unknown' : status >= 200 && status < 300 ? 'verified' : status === 401 ? 'refused' : 'unknown';

/**
 * The tills' payments (newest first, at most `limit`) with, for each transaction, its status history and webhook
 * deliveries (from the wallet service's outbox: every attempt, and the cash desk's verdict on its signature) and its
 * refunds. In-process reads: the demo system runs both servers in one process.
 */
export async function transactionViews(
  payments: Payments,
  tills: readonly string[],
  sandbox: RunningSandbox,
  limit = 30,
): Promise<TransactionView[]> {
  const all = (
    await Promise.all(
      tills.map(async (tillId) =>
        (await payments.intent('list', tillId, {})).payments.map((payment) => ({ tillId, payment })),
      ),
    )
  )
    .flat()
    .sort((a, b) => b.payment.updatedAt.localeCompare(a.payment.updatedAt))
    .slice(0, limit);
  const deliveries = await sandbox.sandbox.context.outbox.list({ topic: 'pay', limit: 1000 });
  const byTransaction = new Map<string, typeof deliveries>();
  for (const d of deliveries) {
    let body: Announced;
    try {
      body = JSON.parse(d.body) as Announced;
    } catch {
      continue;
    }
    const list = byTransaction.get(body.data.transactionId) ?? [];
    list.push(d);
    byTransaction.set(body.data.transactionId, list);
  }
  return Promise.all(
    all.map(async ({ tillId, payment }) => {
      const own = [...(byTransaction.get(String(payment.transactionId ?? '')) ?? [])].reverse();
      let refunds: TransactionView['refunds'] = [];
      if (payment.transactionId !== undefined && (payment.refundedAmount ?? 0) > 0) {
        const res = await sandbox.sandbox.app.request(
          `/sandbox/transactions/${encodeURIComponent(String(payment.transactionId))}`,
        );
        if (res.ok) refunds = ((await res.json()) as { refunds: TransactionView['refunds'] }).refunds;
      }
      return {
        tillId,
        payment,
        refunds,
        history: own.map((d) => {
          const body = JSON.parse(d.body) as Announced;
          const { status, reason, refundedAmount } = body.data;
          return {
            status,
            ...(reason ? { reason } : {}),
            ...(refundedAmount ? { refundedAmount } : {}),
            at: body.timestamp,
          };
        }),
        deliveries: own.map((d) => ({
          id: d.id,
          status: d.status,
          attempts: d.history.map((a) => ({ ...a, signature: signatureOf(a.httpStatus) })),
        })),
      };
    }),
  );
}
