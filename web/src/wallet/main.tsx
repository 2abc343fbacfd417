import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import '../shared/styles.css';
import './wallet.css';
import { call } from '../shared/api';
import { useChanges } from '../shared/live';
import type { InboxMessage, Invoice, TransactionRecord } from '../shared/types';
import { TopBar } from '../shared/ui';
import { CardPanel, type HeldCard } from './card';
import { Inbox } from './inbox';
import { Invoices, Receipts } from './invoices';
import { Loyalty } from './loyalty';

const CARD_KEY = 'wpk.wallet.card';
const PHONE_KEY = 'wpk.wallet.msisdn';

function load<T>(key: string): T | undefined {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

function App() {
  const [held, setHeld] = useState<HeldCard | undefined>(() => load<HeldCard>(CARD_KEY));
  const [msisdn, setMsisdn] = useState<string>(() => load<string>(PHONE_KEY) ?? '79990000001');
  const [invoices, setInvoices] = useState<Invoice[]>([]);
  const [history, setHistory] = useState<TransactionRecord[]>([]);
  // Kept with the number they belong to: a list shown while another number's is on its way is never mislabelled.
  const [inbox, setInbox] = useState<{ msisdn: string; messages: InboxMessage[] }>({ msisdn: '', messages: [] });
  const [loyaltyVersion, setLoyaltyVersion] = useState(0);

  const readPay = useCallback(async () => {
    if (held === undefined) return;
    const q = `cardNumber=${encodeURIComponent(held.cardNumber)}`;
    const [i, h] = await Promise.all([
      call<{ invoices: Invoice[] }>('GET', `/sandbox/app/invoices?${q}`),
      call<{ transactions: TransactionRecord[] }>('GET', `/sandbox/app/transactions?${q}`),
    ]);
    setInvoices(i.invoices);
    setHistory(h.transactions);
  }, [held?.cardNumber]);
  const readInbox = useCallback(async () => {
    const { messages } = await call<{ messages: InboxMessage[] }>(
      'GET',
      `/sandbox/app/inbox/${encodeURIComponent(msisdn)}`,
    );
    setInbox({ msisdn, messages });
  }, [msisdn]);

  const live = useChanges('/sandbox/app/events', (topic) => {
    if (topic === 'pay' || topic === '*') void readPay().catch(() => {});
    if (topic === 'push' || topic === '*') void readInbox().catch(() => {});
    if (topic === 'loyalty') setLoyaltyVersion((v) => v + 1);
  });
  useEffect(() => {
    void readPay().catch(() => {});
  }, [readPay]);
  useEffect(() => {
    void readInbox().catch(() => {});
  }, [readInbox]);

  const onHeld = (card: HeldCard | undefined) => {
    setHeld(card);
    if (card === undefined) {
      localStorage.removeItem(CARD_KEY);
      setInvoices([]);
      setHistory([]);
    } else localStorage.setItem(CARD_KEY, JSON.stringify(card));
  };
  const onMsisdn = (value: string) => {
    setMsisdn(value);
    localStorage.setItem(PHONE_KEY, JSON.stringify(value));
  };

  return (
    <>
      <TopBar title="Wallet app" subtitle="The customer's phone, simulated by the sandbox" live={live} />
      <main id="main" class="narrow">
        <CardPanel held={held} onHeld={onHeld} />
        {held !== undefined && <Invoices invoices={invoices} onDone={() => void readPay().catch(() => {})} />}
        {held !== undefined && <Receipts transactions={history} />}
        <Inbox msisdn={msisdn} onMsisdn={onMsisdn} inbox={inbox} onDone={() => void readInbox().catch(() => {})} />
        {held?.loyalty === true && <Loyalty cardNumber={held.cardNumber} version={loyaltyVersion} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
