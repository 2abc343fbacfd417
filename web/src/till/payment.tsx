import { money, when } from '../shared/format';
import type { PaymentView, SessionUpdate } from '../shared/types';
import { Badge, Notice } from '../shared/ui';
import { phasePrompt, type Prompt } from './prompts';

/** Which intents a phase allows, with their button labels (the bridge's `pay.*` methods). */
const ACTIONS: Record<string, Array<{ intent: string; label: string; tone?: string }>> = {
  offered: [
    { intent: 'checkout', label: 'Customer agrees: check out' },
    { intent: 'abandon', label: 'Another payment method', tone: 'secondary' },
  ],
  unavailable: [{ intent: 'abandon', label: 'Another payment method', tone: 'secondary' }],
  pending: [
    { intent: 'changeBasket', label: 'Basket changed: send the updated one', tone: 'secondary' },
    { intent: 'cancel', label: 'Cancel the payment', tone: 'danger' },
  ],
  unknown: [
    { intent: 'retry', label: 'Try again' },
    { intent: 'cancel', label: 'Cancel the payment', tone: 'danger' },
  ],
  succeeded: [
    { intent: 'receipt', label: 'Send the receipt' },
    { intent: 'refund', label: 'Refund', tone: 'danger' },
  ],
  unsuccessful: [
    { intent: 'retry', label: 'Retry (updated checkout)' },
    { intent: 'abandon', label: 'Another payment method', tone: 'secondary' },
  ],
};

/** The payment as it stands, what to tell the customer, the session's events and the intents allowed now. */
export function PaymentPanel({
  payment,
  prompts,
  log,
  busy,
  onIntent,
  onNew,
}: {
  payment: PaymentView;
  prompts: Prompt[];
  log: SessionUpdate[];
  busy: boolean;
  onIntent: (intent: string) => void;
  onNew: () => void;
}) {
  const phase = phasePrompt(payment);
  return (
    <section class="panel" aria-labelledby="pay-h">
      <h2 id="pay-h">
        Payment <span class="mono muted">{payment.paymentId}</span>
      </h2>
      <p>
        Phase <strong data-testid="payment-phase">{payment.phase}</strong>
        {payment.status !== undefined && (
          <>
            {' '}
            · transaction <Badge value={payment.status} />
          </>
        )}{' '}
        · {money(payment.totalAmount)}
        {(payment.refundedAmount ?? 0) > 0 && <> · refunded {money(payment.refundedAmount!)}</>}
        {payment.receiptSent && <> · receipt sent</>}
      </p>
      <Notice kind={phase.kind} title={phase.title}>
        {phase.text}
      </Notice>
      {prompts.map((p, i) => (
        <Notice key={i} kind={p.kind} title={p.title}>
          {p.text}
        </Notice>
      ))}
      <div>
        {(ACTIONS[payment.phase] ?? [])
          .filter((a) => !(a.intent === 'receipt' && payment.receiptSent))
          .map((a) => (
            <button key={a.intent} type="button" class={a.tone} disabled={busy} onClick={() => onIntent(a.intent)}>
              {a.label}
            </button>
          ))}
        {['refunded', 'abandoned', 'blocked', 'succeeded', 'unsuccessful'].includes(payment.phase) && (
          <button type="button" class="secondary" onClick={onNew}>
            Next customer
          </button>
        )}
      </div>
      <details>
        <summary>Session events ({log.length})</summary>
        <ol class="mono" aria-label="pay.sessionUpdated notifications">
          {log.map((u, i) => (
            <li key={i}>
              {u.phase}
              {u.event ? ` · ${u.event}` : ''}
              {u.status ? ` · ${u.status}` : ''}
              {u.reason ? ` · ${u.reason}` : ''}
            </li>
          ))}
        </ol>
        <p class="muted">Updated {when(payment.updatedAt)}</p>
      </details>
    </section>
  );
}
