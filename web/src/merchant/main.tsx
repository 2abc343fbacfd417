import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import '../shared/styles.css';
import './merchant.css';
import { call } from '../shared/api';
import { useChanges } from '../shared/live';
import { TopBar } from '../shared/ui';
import { Campaigns } from './campaigns';
import { DayClose, Reconciliation } from './reports';
import { Callbacks, Loyalty, Metrics } from './panels';
import { Transactions } from './transactions';
import type { CampaignView, LoyaltyView, MetricsView, NumberResult, ReceivedCallback, TransactionView } from './types';

const API = '/console/api';

/** The console's pages, by the URL's hash: the overview, the reconciliation, the day close. */
const PAGES = [
  ['', 'Overview'],
  ['#reconciliation', 'Reconciliation'],
  ['#day-close', 'Day close'],
] as const;

/** The page a hash shows: any other hash (the skip link's `#main`) is the overview's. */
const pageOf = (hash: string) => (PAGES.some(([h]) => h !== '' && h === hash) ? hash : '');

function usePage(): string {
  const [page, setPage] = useState(location.hash);
  useEffect(() => {
    const changed = () => setPage(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return page;
}

function App() {
  const page = usePage();
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
      <nav aria-label="Console pages" class="pages">
        {PAGES.map(([hash, name]) => (
          <a key={hash} href={hash || '#'} aria-current={pageOf(page) === hash ? 'page' : undefined}>
            {name}
          </a>
        ))}
      </nav>
      <main id="main">
        {pageOf(page) === '#reconciliation' && <Reconciliation />}
        {pageOf(page) === '#day-close' && <DayClose />}
        {pageOf(page) === '' && overview()}
      </main>
    </>
  );

  // A call, not a component: a component made anew each render would lose the panels' own state (a typed form).
  function overview() {
    return (
      <>
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
      </>
    );
  }
}

render(<App />, document.getElementById('app')!);
