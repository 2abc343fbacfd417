import { useEffect, useState } from 'preact/hooks';
import { call, describe } from '../shared/api';
import { money, when } from '../shared/format';
import { Badge, Notice } from '../shared/ui';
import type { DayCloseReport, DayTotals, Discrepancy, ReconcileReport } from './types';

const API = '/console/api';

/** What a person does about each kind: the one a button does (a late success's refund), or what to look at. */
const ACTION: Record<string, string> = {
  paid_untold: 'run pay reconcile --heal (records the payment as paid and tells its till)',
  told_unpaid: 'check the sale: the till was told paid, the service says not',
  amount_mismatch: 'compare the basket with the service',
  refund_unknown: 'another system refunded: record it in the books',
  refund_missing: "the kit counts a refund the service does not show: ask the service's support",
  late_success: 'refund the customer',
  stale_open: 'ask the customer; the service still waits',
  status_unreadable: "look at the service's status by hand",
  receipt_unknown: 'send the receipt again from the till',
};

/** A late success's refund, through the back office as the console: idempotent by its refundId. */
function RefundButton({ d, onDone }: { d: Discrepancy; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const left = (d.service.totalAmount ?? d.kit.totalAmount ?? 0) - (d.service.refundedAmount ?? 0);
  const refund = async () => {
    setBusy(true);
    try {
      const path = `${API}/tills/${encodeURIComponent(d.tillId)}/payments/${encodeURIComponent(d.paymentId)}/refund`;
      await call('POST', path, {
        refundId: `console-late-${d.transactionId}`,
        amount: left,
        ...(d.transactionId === null ? {} : { transactionId: d.transactionId }),
      });
      onDone(`Refunded ${money(left)} of payment ${d.paymentId}.`);
    } catch (e) {
      onDone(`The refund of ${d.paymentId} failed: ${describe(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" disabled={busy || left <= 0} onClick={() => void refund()}>
      Refund {money(left)}
    </button>
  );
}

/** The discrepancies of a report, each with what to do about it. */
function Discrepancies({ list, onDone }: { list: Discrepancy[]; onDone: (message: string) => void }) {
  if (list.length === 0) return <p>No discrepancies: the kit and the service agree.</p>;
  return (
    <table data-testid="discrepancies">
      <thead>
        <tr>
          <th>Kind</th>
          <th>Till (store)</th>
          <th>Payment / transaction</th>
          <th>Kit</th>
          <th>Service</th>
          <th>To do</th>
        </tr>
      </thead>
      <tbody>
        {list.map((d) => (
          <tr key={`${d.kind}:${d.tillId}:${d.paymentId}:${d.transactionId}`}>
            <td>
              <Badge value={d.kind} tone={d.healed ? 'ok' : 'failed'} />
              {d.healed ? ' healed' : ''}
            </td>
            <td>
              {d.tillId}
              {d.store ? ` (${d.store})` : ''}
            </td>
            <td class="mono">
              {d.paymentId} / {d.transactionId ?? '—'}
            </td>
            <td>{[d.kit.phase, d.kit.status].filter(Boolean).join(' / ')}</td>
            <td>{d.service.error ?? d.service.status ?? ''}</td>
            <td>{d.kind === 'late_success' && !d.healed ? <RefundButton d={d} onDone={onDone} /> : ACTION[d.kind]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The reconciliation page: the background comparison's last report, or one of the last `hours` made now. */
export function Reconciliation() {
  const [report, setReport] = useState<ReconcileReport | undefined>(undefined);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const read = async (now: boolean) => {
    setBusy(true);
    try {
      const to = new Date(Date.now() + 60_000);
      const period = now ? `?from=${new Date(to.getTime() - 86_400_000).toISOString()}&to=${to.toISOString()}` : '';
      setReport(await call<ReconcileReport>('GET', `${API}/reconciliation${period.replaceAll('+', '%2B')}`));
    } catch (e) {
      setMessage({ kind: 'error', text: describe(e) });
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void read(false), []);
  return (
    <section class="panel" aria-labelledby="rec-h">
      <h2 id="rec-h">Reconciliation with the wallet service</h2>
      <button type="button" disabled={busy} onClick={() => void read(true)}>
        Compare the last 24 hours now
      </button>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {report && (
        <>
          <p>
            {when(report.from)} – {when(report.to)}: {report.payments} payments, {report.transactions} transactions.
          </p>
          <Discrepancies
            list={report.discrepancies}
            onDone={(text) => {
              setMessage({ kind: text.startsWith('Refunded') ? 'ok' : 'error', text });
              void read(true);
            }}
          />
        </>
      )}
    </section>
  );
}

function TotalsRow({ name, t }: { name: string; t: DayTotals }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{t.payments}</td>
      <td>{money(t.paid)}</td>
      <td>{money(t.refunded)}</td>
      <td>{money(t.net)}</td>
    </tr>
  );
}

/** The day-close page: a day in a time zone, per till, per store and in all, with the day's discrepancies. */
export function DayClose() {
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [tz, setTz] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [report, setReport] = useState<DayCloseReport | undefined>(undefined);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>(undefined);
  const read = async () => {
    try {
      const query = `date=${encodeURIComponent(date)}&tz=${encodeURIComponent(tz)}`;
      setReport(await call<DayCloseReport>('GET', `${API}/day-close?${query}`));
    } catch (e) {
      setMessage({ kind: 'error', text: describe(e) });
    }
  };
  useEffect(() => void read(), []);
  return (
    <section class="panel" aria-labelledby="dc-h">
      <h2 id="dc-h">Day close</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void read();
        }}
      >
        <label for="dc-date">Day</label>
        <input id="dc-date" type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} />
        <label for="dc-tz">Time zone</label>
        <input id="dc-tz" value={tz} onInput={(e) => setTz(e.currentTarget.value)} />
        <button type="submit">Show</button>
      </form>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {report && (
        <>
          <table data-testid="day-close">
            <thead>
              <tr>
                <th>Till / store</th>
                <th>Payments</th>
                <th>Paid</th>
                <th>Refunded</th>
                <th>Net</th>
              </tr>
            </thead>
            <tbody>
              {report.tills.map((t) => (
                <TotalsRow key={t.tillId} name={`till ${t.tillId}${t.store ? ` (${t.store})` : ''}`} t={t} />
              ))}
              {report.stores.map((s) => (
                <TotalsRow key={`store:${s.store}`} name={`store ${s.store ?? '(none)'}`} t={s} />
              ))}
              <TotalsRow name="total" t={report.totals} />
            </tbody>
          </table>
          <h3>Discrepancies of the day</h3>
          <Discrepancies
            list={report.discrepancies}
            onDone={(text) => {
              setMessage({ kind: text.startsWith('Refunded') ? 'ok' : 'error', text });
              void read();
            }}
          />
        </>
      )}
    </section>
  );
}
