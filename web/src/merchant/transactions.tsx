import { money, when } from '../shared/format';
import { Badge } from '../shared/ui';
import type { TransactionView } from './types';

/** `evt_<transaction>_v3` → `v3`: the transaction is named above the table. */
const shortId = (id: string) => /_(v\d+)$/.exec(id)?.[1] ?? id;

const SIGNATURE = { verified: 'signature verified', refused: 'signature refused', unknown: 'no answer' } as const;

/** The tills' payments: status, amounts, and per transaction its status history, webhook deliveries and refunds. */
export function Transactions({ transactions }: { transactions: TransactionView[] }) {
  return (
    <section class="panel" aria-labelledby="tx-h">
      <h2 id="tx-h">Transactions</h2>
      {transactions.length === 0 ? (
        <p class="muted">No payments yet: pay at the till.</p>
      ) : (
        <ul class="plain">
          {transactions.map((t) => (
            <li key={t.payment.paymentId} data-testid="transaction">
              <strong>{money(t.payment.totalAmount)}</strong> <Badge value={t.payment.status ?? t.payment.phase} />{' '}
              <span class="muted">
                phase {t.payment.phase} · {t.tillId} · {when(t.payment.updatedAt)}
              </span>
              {(t.payment.refundedAmount ?? 0) > 0 && (
                <span>
                  {' '}
                  · refunded <strong>{money(t.payment.refundedAmount!)}</strong>
                </span>
              )}
              <details>
                <summary>
                  History, webhooks and refunds of{' '}
                  <span class="mono">{t.payment.transactionId ?? t.payment.paymentId}</span>
                </summary>
                <h3>Status history</h3>
                <ol>
                  {t.history.map((h, i) => (
                    <li key={i}>
                      {h.status}
                      {h.reason ? ` (${h.reason})` : ''}
                      {h.refundedAmount ? `, refunded ${money(h.refundedAmount)}` : ''}{' '}
                      <span class="muted">{when(h.at)}</span>
                    </li>
                  ))}
                </ol>
                <h3>Webhook deliveries (transaction.updated)</h3>
                <div class="scroll">
                  <table>
                    <thead>
                      <tr>
                        <th>Version</th>
                        <th>Attempt</th>
                        <th>At</th>
                        <th>HTTP</th>
                        <th>Signature</th>
                        <th class="num">ms</th>
                      </tr>
                    </thead>
                    <tbody>
                      {t.deliveries.flatMap((d) =>
                        d.attempts.length === 0
                          ? [
                              <tr key={d.id}>
                                <td class="mono" title={d.id}>
                                  {shortId(d.id)}
                                </td>
                                <td colSpan={5}>{d.status}</td>
                              </tr>,
                            ]
                          : d.attempts.map((a) => (
                              <tr key={`${d.id}-${a.attempt}`}>
                                <td class="mono" title={d.id}>
                                  {shortId(d.id)}
                                </td>
                                <td>{a.attempt}</td>
                                <td>{when(a.at)}</td>
                                <td>{a.httpStatus ?? a.error}</td>
                                <td>
                                  <Badge
                                    value={SIGNATURE[a.signature]}
                                    tone={
                                      a.signature === 'verified'
                                        ? 'ok'
                                        : a.signature === 'refused'
                                          ? 'failed'
                                          : 'pending'
                                    }
                                  />
                                </td>
                                <td class="num">{a.durationMs}</td>
                              </tr>
                            )),
                      )}
                    </tbody>
                  </table>
                </div>
                {t.refunds.length > 0 && (
                  <>
                    <h3>Refunds</h3>
                    <ul>
                      {t.refunds.map((r) => (
                        <li key={r.refundId}>
                          {money(r.amount)} <span class="mono">{r.refundId}</span> {when(r.createdAt)}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
