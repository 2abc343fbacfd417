import { render } from 'preact';
import { useState } from 'preact/hooks';
import '../shared/styles.css';
import './merchant.css';
import { call } from '../shared/api';
import { useChanges } from '../shared/live';
import { TopBar } from '../shared/ui';
import { Campaigns } from './campaigns';
import { Callbacks, Loyalty, Metrics } from './panels';
import { Transactions } from './transactions';
import type { CampaignView, LoyaltyView, MetricsView, NumberResult, ReceivedCallback, TransactionView } from './types';

const API = '/console/api';

function App() {
  const [transactions, setTransactions] = useState<TransactionView[]>([]);
  const [metrics, setMetrics] = useState<MetricsView | undefined>(undefined);
  const [campaigns, setCampaigns] = useState<CampaignView[]>([]);
  const [results, setResults] = useState<{ campaignId: string; rows: NumberResult[] } | undefined>(undefined);
  const [callbacks, setCallbacks] = useState<{ counts: Record<string, number>; callbacks: ReceivedCallback[] }>({
    counts: {},
    callbacks: [],
  });
  const [callbackType, setCallbackType] = useState('');
  const [loyalty, setLoyalty] = useState<LoyaltyView | undefined>(undefined);

  const readResults = async (campaignId: string) => {
    setResults({
      campaignId,
      rows: (
        await call<{ results: NumberResult[] }>('GET', `${API}/campaigns/${encodeURIComponent(campaignId)}/results`)
      ).results,
    });
  };
  // Each notice names what changed; only that part is read again. `*`: (re)connected, read everything.
  const readers: Record<string, () => Promise<void>> = {
    payments: async () =>
      setTransactions((await call<{ transactions: TransactionView[] }>('GET', `${API}/transactions`)).transactions),
    metrics: async () => setMetrics(await call<MetricsView>('GET', `${API}/metrics`)),
    campaigns: async () => {
      setCampaigns((await call<{ campaigns: CampaignView[] }>('GET', `${API}/campaigns`)).campaigns);
      if (results !== undefined) await readResults(results.campaignId);
    },
    callbacks: async () => {
      setCallbacks(
        await call<{ counts: Record<string, number>; callbacks: ReceivedCallback[] }>(
          'GET',
          `${API}/callbacks?type=${encodeURIComponent(callbackType)}`,
        ),
      );
      if (results !== undefined) await readResults(results.campaignId);
    },
    loyalty: async () => setLoyalty(await call<LoyaltyView>('GET', `${API}/loyalty`)),
  };
  readers.webhooks = readers.payments!;
  const live = useChanges(`${API}/events`, (topic) => {
    for (const [name, read] of Object.entries(readers))
      if (topic === '*' || topic === name) void read().catch(() => {});
  });

  return (
    <>
      <TopBar title="Merchant console" subtitle="The merchant's view of the demo system" live={live} />
      <main id="main">
        <Metrics metrics={metrics} />
        <div class="grid">
          <Transactions transactions={transactions} />
          <Campaigns campaigns={campaigns} results={results} onResults={(id) => void readResults(id).catch(() => {})} />
          <Callbacks
            callbacks={callbacks.callbacks}
            counts={callbacks.counts}
            type={callbackType}
            onType={(t) => {
              setCallbackType(t);
              void call<{ counts: Record<string, number>; callbacks: ReceivedCallback[] }>(
                'GET',
                `${API}/callbacks?type=${encodeURIComponent(t)}`,
              ).then(setCallbacks, () => {});
            }}
          />
          <Loyalty loyalty={loyalty} />
        </div>
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
