import { useState } from 'preact/hooks';
import { call, describe } from '../shared/api';
import { when } from '../shared/format';
import { Badge, Notice } from '../shared/ui';
import type { CampaignView, NumberResult } from './types';

const SHOWN_RESULTS = 200;

/** Push campaigns: upload a CSV of numbers, watch the progress, read each number's result and callback. */
const toneOfState = (state: string) => (state === 'finished' ? 'ok' : state === 'failed' ? 'failed' : 'pending');

export function Campaigns({
  campaigns,
  results,
  onResults,
}: {
  campaigns: CampaignView[];
  results: { campaignId: string; rows: NumberResult[] } | undefined;
  onResults: (campaignId: string) => void;
}) {
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | undefined>(undefined);
  const [subId, setSubId] = useState('console-campaign');
  const [title, setTitle] = useState('Sale');
  const [text, setText] = useState('-20% on everything until Sunday');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setBusy(true);
    try {
      const started = await call<CampaignView>('POST', '/console/api/campaigns', { csv, subId, title, text });
      setError(undefined);
      onResults(started.campaignId);
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };
  const pick = async (file: File | undefined) => {
    if (file === undefined) return;
    setFileName(file.name);
    setCsv(await file.text());
  };
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== '').length;

  return (
    <section class="panel" aria-labelledby="camp-h">
      <h2 id="camp-h">Push campaigns</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label for="csv-file">Numbers (a CSV file: one number a line, or a column named msisdn, phone or number)</label>
        <input
          id="csv-file"
          type="file"
          accept=".csv,.txt,.ndjson,text/csv"
          onChange={(e) => void pick(e.currentTarget.files?.[0])}
        />
        <p class="muted" aria-live="polite">
          {fileName ? `${fileName}: ${lines} lines` : csv ? `${lines} lines` : 'No file chosen.'}
        </p>
        <div class="row">
          <div>
            <label for="sub-id">subId</label>
            <input id="sub-id" value={subId} onInput={(e) => setSubId(e.currentTarget.value)} />
          </div>
          <div>
            <label for="title">Title</label>
            <input id="title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          </div>
        </div>
        <label for="text">Text</label>
        <input id="text" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" disabled={busy || csv.trim() === ''}>
          Send the campaign
        </button>
      </form>
      {error !== undefined && (
        <Notice kind="error" title="Not sent">
          {error}
        </Notice>
      )}
      <ul class="plain">
        {campaigns.map((c) => (
          <li key={c.campaignId} data-testid="campaign">
            <strong>{c.title}</strong> <span class="mono">{c.subId}</span>{' '}
            <Badge value={c.state} tone={toneOfState(c.state)} /> <span class="muted">{when(c.startedAt)}</span>
            <div>
              <label for={`p-${c.campaignId}`} class="inline">
                Progress
              </label>
              <progress
                id={`p-${c.campaignId}`}
                max={c.total}
                value={c.done}
                aria-valuetext={`${c.done} of ${c.total}`}
              />
            </div>
            <p data-testid="campaign-counts">
              {c.done} of {c.total} · accepted {c.accepted} · rejected {c.rejected} · batches {c.batches}
              {c.waiting ? ' · waiting (304)' : ''}
            </p>
            {c.error !== undefined && <Notice kind="error">{c.error}</Notice>}
            <button type="button" class="secondary" onClick={() => onResults(c.campaignId)}>
              Show each number's result
            </button>
          </li>
        ))}
      </ul>
      {results !== undefined && (
        <div>
          <h3>
            Results{' '}
            <span class="muted">
              ({results.rows.length} numbers
              {results.rows.length > SHOWN_RESULTS ? `, the first ${SHOWN_RESULTS} shown` : ''})
            </span>
          </h3>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes the focus to scroll */}
          <section class="results" tabIndex={0} aria-label="Each number's result">
            <table data-testid="campaign-results">
              <thead>
                <tr>
                  <th>Number</th>
                  <th>Message</th>
                  <th>Callback</th>
                </tr>
              </thead>
              <tbody>
                {results.rows.slice(0, SHOWN_RESULTS).map((r) => (
                  <tr key={r.msisdn}>
                    <td class="mono">{r.msisdn}</td>
                    <td class="mono">{r.messageId ?? `rejected: ${r.reason}`}</td>
                    <td>
                      {r.callback ? (
                        <Badge value={r.callback.state} />
                      ) : r.messageId ? (
                        <span class="muted">none yet</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      )}
    </section>
  );
}
