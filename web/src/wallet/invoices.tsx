import { useState } from 'preact/hooks';
import { call, describe } from '../shared/api';
import { money, when } from '../shared/format';
import type { Invoice, TransactionRecord } from '../shared/types';
import { Badge, Notice } from '../shared/ui';

const ACTIONS = [
  { label: 'Confirm', verb: 'confirm', body: undefined, tone: '' },
  { label: 'Decline', verb: 'decline', body: { reason: 'DECLINED' }, tone: 'secondary' },
  { label: 'Not enough funds', verb: 'decline', body: { reason: 'INSUFFICIENT_FUNDS' }, tone: 'secondary' },
  { label: 'Cancel', verb: 'cancel', body: undefined, tone: 'danger' },
] as const;

function measureOf(item: Invoice['items'][number]): string {
  return item.measure === 'KILOGRAM' ? 'kg' : item.measure === 'GRAM' ? 'g' : 'pcs';
}

/** Invoices waiting for the customer, with the providers' offers and the four answers the app gives. */
export function Invoices({ invoices, onDone }: { invoices: Invoice[]; onDone: () => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const act = async (invoice: Invoice, verb: string, body: unknown) => {
    setBusy(invoice.transactionId);
    try {
      await call('POST', `/sandbox/app/transactions/${encodeURIComponent(invoice.transactionId)}/${verb}`, body);
      setError(undefined);
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(undefined);
      onDone();
    }
  };
  return (
    <section class="panel" aria-labelledby="inv-h">
      <h2 id="inv-h">To pay</h2>
      {error !== undefined && (
        <Notice kind="error" title="Not done">
          {error}
        </Notice>
      )}
      {invoices.length === 0 ? (
        <p class="muted">Nothing to pay.</p>
      ) : (
        invoices.map((invoice) => (
          <article
            class="card"
            key={invoice.transactionId}
            data-testid="invoice"
            aria-label={`Invoice of ${money(invoice.totalAmount)}`}
          >
            <p>
              <strong>{money(invoice.totalAmount)}</strong> to pay
              {invoice.discountAmount > 0 ? <> (paid otherwise: {money(invoice.discountAmount)})</> : null}{' '}
              <span class="muted">until {when(invoice.invoiceExpiresAt)}</span>
            </p>
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th>Item</th>
                    <th class="num">Quantity</th>
                    <th class="num">Price</th>
                  </tr>
                </thead>
                <tbody>
                  {invoice.items.map((item, i) => (
                    <tr key={i}>
                      <td>{item.name}</td>
                      <td class="num">
                        {item.quantity} {measureOf(item)}
                      </td>
                      <td class="num">{money(item.price)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {invoice.offers.length > 0 && (
              <ul aria-label="Offers">
                {invoice.offers.map((offer) => (
                  <li key={offer.providerId}>
                    <strong>{offer.providerId}</strong>: {offer.marketingMessage}
                  </li>
                ))}
              </ul>
            )}
            <div>
              {ACTIONS.map((a) => (
                <button
                  key={a.label}
                  type="button"
                  class={a.tone}
                  disabled={busy === invoice.transactionId}
                  onClick={() => void act(invoice, a.verb, a.body)}
                >
                  {a.label}
                </button>
              ))}
            </div>
          </article>
        ))
      )}
    </section>
  );
}

/** The card's latest payments with their status, refunds and the receipts the merchant sent. */
export function Receipts({ transactions }: { transactions: TransactionRecord[] }) {
  return (
    <section class="panel" aria-labelledby="rec-h">
      <h2 id="rec-h">Payments and receipts</h2>
      {transactions.length === 0 ? (
        <p class="muted">No payments yet.</p>
      ) : (
        <ul class="plain">
          {transactions.map((t) => (
            <li key={t.transactionId} data-testid="payment">
              <strong>{money(t.totalAmount)}</strong> <Badge value={t.status} />{' '}
              {t.reason ? <span class="muted">({t.reason})</span> : null} <span class="muted">{when(t.updatedAt)}</span>
              {t.refundedAmount > 0 && <div>Refunded {money(t.refundedAmount)}</div>}
              {t.receipts.map((r, i) => (
                <details key={i}>
                  <summary>Receipt, {when(r.receivedAt)}</summary>
                  <dl>
                    {Object.entries(r.receipt).map(([k, v]) => (
                      <div key={k}>
                        <dt class="muted">{k}</dt>
                        <dd class="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
