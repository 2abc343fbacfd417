import { money, when } from '../shared/format';
import { Badge } from '../shared/ui';
import { Bars, Sparkline, type Bar } from './charts';
import type { LoyaltyView, MetricsView, ReceivedCallback } from './types';

/** The result codes in a few words, so the bars keep their room on a phone; the full code is in the chart's text. */
const SHORT: Record<string, string> = {
  CARDSESSION_AVAILABLE: 'available',
  CARDSESSION_NOT_AVAILABLE: 'no session',
  ANOTHER_INSTANCE: 'other card',
  VALIDATION_FAILED: 'failed',
};

const toneOf = (resultCode: string): Bar['tone'] =>
  resultCode === 'CARDSESSION_AVAILABLE' ? 'ok' : resultCode === 'VALIDATION_FAILED' ? 'bad' : 'warn';

/** A verification's reason when it says more than its result code. */
const shownReason = (reason: string) => (reason && reason !== 'OK' && reason !== 'PREFIX_MISMATCH' ? ` ${reason}` : '');

/** The cash desk server's metrics as small live charts. */
export function Metrics({ metrics }: { metrics: MetricsView | undefined }) {
  if (metrics === undefined) return null;
  const mean = metrics.latency.count === 0 ? 0 : (metrics.latency.sumSeconds / metrics.latency.count) * 1e6;
  return (
    <section class="panel" aria-labelledby="m-h">
      <h2 id="m-h">Cash desk metrics</h2>
      <div class="charts">
        <Sparkline title="Verifications, live" points={metrics.history} />
        <Bars
          title="Verifications by result"
          bars={metrics.verifications.map((v) => ({
            label: `${SHORT[v.resultCode] ?? v.resultCode}${shownReason(v.reason)}`,
            value: v.count,
            tone: toneOf(v.resultCode),
          }))}
        />
        <Bars
          title={`Verify latency (mean ${mean.toFixed(0)} µs)`}
          bars={metrics.latency.buckets
            .filter((b) => b.count > 0)
            .map((b) => ({ label: `≤ ${b.le === '+Inf' ? '∞' : `${Number(b.le) * 1e6} µs`}`, value: b.count }))}
        />
        <Bars
          title="Clock drift of valid barcodes (steps)"
          bars={metrics.drift.filter((b) => b.count > 0).map((b) => ({ label: `≤ ${b.le}`, value: b.count }))}
        />
      </div>
    </section>
  );
}

/** The callbacks the merchant's receiver got (delivered, read, failed), by type. */
export function Callbacks({
  callbacks,
  counts,
  type,
  onType,
}: {
  callbacks: ReceivedCallback[];
  counts: Record<string, number>;
  type: string;
  onType: (type: string) => void;
}) {
  return (
    <section class="panel" aria-labelledby="cb-h">
      <h2 id="cb-h">Callbacks received</h2>
      <p>{['push.delivered', 'push.read', 'push.failed'].map((t) => `${t} ${counts[t] ?? 0}`).join(' · ')}</p>
      <label for="cb-type">Show</label>
      <select id="cb-type" value={type} onChange={(e) => onType(e.currentTarget.value)}>
        <option value="">every type</option>
        <option value="push.delivered">push.delivered</option>
        <option value="push.read">push.read</option>
        <option value="push.failed">push.failed</option>
      </select>
      {callbacks.length === 0 ? (
        <p class="muted">None yet: send a campaign.</p>
      ) : (
        <div class="scroll">
          <table data-testid="callbacks">
            <thead>
              <tr>
                <th>Event</th>
                <th>Message</th>
                <th>Number</th>
                <th>subId</th>
                <th>At</th>
              </tr>
            </thead>
            <tbody>
              {callbacks.slice(0, 50).map((c) => (
                <tr key={c.eventId} data-type={c.type}>
                  <td>
                    <Badge value={c.type} tone={c.type === 'push.failed' ? 'failed' : 'ok'} />
                  </td>
                  <td class="mono">{c.messageId}</td>
                  <td class="mono">{c.msisdn}</td>
                  <td class="mono">{c.subId}</td>
                  <td>{when(c.occurredAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The merchant's Loyalty server: cards issued, receipts accepted, promo codes used. */
export function Loyalty({ loyalty }: { loyalty: LoyaltyView | undefined }) {
  if (loyalty === undefined) return null;
  return (
    <section class="panel" aria-labelledby="l-h">
      <h2 id="l-h">Loyalty</h2>
      <h3>Cards</h3>
      {loyalty.cards.length === 0 ? (
        <p class="muted">No cards yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>Card</th>
                <th class="num">Balance</th>
                <th>Issued</th>
              </tr>
            </thead>
            <tbody>
              {loyalty.cards.slice(0, 20).map((c) => (
                <tr key={c.cardNumber}>
                  <td class="mono">{c.cardNumber}</td>
                  <td class="num">{money(c.balance)}</td>
                  <td>{when(c.issuedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Receipts and promo codes</h3>
      {loyalty.credits.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <div class="scroll">
          <table data-testid="loyalty-credits">
            <thead>
              <tr>
                <th>What</th>
                <th>Card</th>
                <th class="num">Sum</th>
                <th class="num">Bonus</th>
                <th>At</th>
              </tr>
            </thead>
            <tbody>
              {loyalty.credits.slice(0, 20).map((c, i) => (
                <tr key={i}>
                  <td>
                    {c.kind === 'receipt' ? 'receipt' : 'promo code'} <span class="mono">{c.what}</span>
                  </td>
                  <td class="mono">{c.cardNumber}</td>
                  <td class="num">{c.sum === null ? '' : money(c.sum)}</td>
                  <td class="num">{money(c.bonusAmount)}</td>
                  <td>{when(c.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
