import { render } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import '../shared/styles.css';
import './till.css';
import { parseMoney } from '../shared/format';
import type { PaymentView, SessionUpdate } from '../shared/types';
import { Notice, TopBar } from '../shared/ui';
import { itemsOf, BasketEditor, SAMPLE_BASKET, type Line } from './basket';
import { BridgeClient, ConnectError, RpcError } from './bridge';
import { eventPrompt, type Prompt } from './prompts';
import { CameraScanner, cameraScanning } from './scan';
import { PaymentPanel } from './payment';
import { instruction, type Verification } from './verification';

const KEY = 'wpk.till.key';

function App() {
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY) ?? '');
  const [connected, setConnected] = useState(false);
  // Until a connection was made, there is nothing to reconnect: the header says "not connected", not an alarm.
  const [everConnected, setEverConnected] = useState(false);
  const [connectError, setConnectError] = useState<string | undefined>(undefined);
  const [scanned, setScanned] = useState('');
  const [camera, setCamera] = useState(false);
  const [verification, setVerification] = useState<Verification>();
  const [lines, setLines] = useState<Line[]>(SAMPLE_BASKET);
  const [discount, setDiscount] = useState('');
  const [payment, setPayment] = useState<PaymentView>();
  const [log, setLog] = useState<SessionUpdate[]>([]);
  const [prompts, setPrompts] = useState<Prompt[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const current = useRef<string | undefined>(undefined);

  const bridge = useMemo(
    () =>
      new BridgeClient(
        (method, params) => {
          if (method !== 'pay.sessionUpdated') return;
          const update = params as SessionUpdate;
          if (update.paymentId !== current.current) return;
          setLog((l) => [...l, update]);
          const prompt = eventPrompt(update);
          if (prompt !== undefined) setPrompts((p) => [...p.filter((q) => q.title !== prompt.title), prompt]);
          // The notification carries the phase; the rest of the view (amounts, receipt) comes with pay.get.
          setPayment((p) =>
            p === undefined
              ? p
              : {
                  ...p,
                  phase: update.phase,
                  ...(update.status ? { status: update.status } : {}),
                  ...(update.reason ? { reason: update.reason } : {}),
                },
          );
          void bridge.call<PaymentView>('pay.get', { paymentId: update.paymentId }).then(setPayment, () => {});
        },
        (reason) => {
          setConnected(false);
          setConnectError(`The bridge connection closed: ${reason}. Connect again.`);
        },
      ),
    [],
  );

  const run = async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    try {
      const result = await work();
      setError(undefined);
      return result;
    } catch (e) {
      setError(e instanceof RpcError ? e.message : String(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const connect = async () => {
    setConnectError(undefined);
    try {
      await bridge.connect(key.trim());
      sessionStorage.setItem(KEY, key.trim());
      setConnected(true);
      setEverConnected(true);
    } catch (e) {
      setConnectError(e instanceof ConnectError ? e.message : String(e));
    }
  };
  const verify = (text: string) =>
    run(async () => {
      setPayment(undefined);
      setLog([]);
      setPrompts([]);
      setVerification(await bridge.call<Verification>('barcode.verify', { fullBarcode: text.trim() }));
    });
  const basket = () => {
    const built = itemsOf(lines);
    if ('problem' in built) throw new Error(`The basket: ${built.problem}`);
    return { items: built.items, discountAmount: parseMoney(discount || '0') ?? 0 };
  };
  const pay = () =>
    run(async () => {
      const paymentId = `till-${Date.now().toString(36)}`;
      current.current = paymentId;
      setLog([]);
      setPrompts([]);
      setPayment(
        await bridge.call<PaymentView>('pay.start', {
          cardSession: verification!.cardSession,
          basket: basket(),
          paymentId,
        }),
      );
    });
  const intent = (name: string) =>
    run(async () => {
      const paymentId = payment!.paymentId;
      const params: Record<string, unknown> = { paymentId };
      if (name === 'changeBasket') params.basket = basket();
      if (name === 'refund') params.refundId = `${paymentId}-refund`;
      if (name === 'receipt')
        params.receipt = {
          paymentId,
          total: payment!.totalAmount,
          items: basket().items,
          issuedAt: new Date().toISOString(),
        };
      setPayment(await bridge.call<PaymentView>(`pay.${name}`, params));
    });
  const rescan = (text: string) =>
    run(async () => {
      setPrompts((p) => p.filter((q) => q.title !== 'Scan the card again'));
      setPayment(
        await bridge.call<PaymentView>('pay.rescan', { paymentId: payment!.paymentId, fullBarcode: text.trim() }),
      );
    });
  const nextCustomer = () => {
    current.current = undefined;
    setPayment(undefined);
    setVerification(undefined);
    setScanned('');
    setLog([]);
    setPrompts([]);
  };

  const told = verification && instruction(verification);
  const needsRescan =
    prompts.some((p) => p.title === 'Scan the card again') && payment !== undefined && payment.phase !== 'refunded';
  return (
    <>
      <TopBar
        title="Till"
        subtitle="A cash desk in the browser, on the bridge (wallet-pos.v1)"
        live={connected || (everConnected ? false : 'idle')}
        offLabel="disconnected"
      />
      <main id="main">
        {!connected ? (
          <section class="panel" aria-labelledby="conn-h">
            <h2 id="conn-h">Connect this till</h2>
            <form
              class="row"
              onSubmit={(e) => {
                e.preventDefault();
                void connect();
              }}
            >
              <div>
                <label for="till-key">Till key</label>
                <input
                  id="till-key"
                  type="password"
                  autoComplete="off"
                  value={key}
                  onInput={(e) => setKey(e.currentTarget.value)}
                  aria-describedby="key-help"
                />
              </div>
              <button type="submit" disabled={key.trim() === ''}>
                Connect
              </button>
            </form>
            <small id="key-help" class="muted">
              Each till has its own key; <code>npm start</code> prints the demo till's.
            </small>
            {connectError !== undefined && (
              <Notice kind="error" title="Not connected">
                {connectError}
              </Notice>
            )}
          </section>
        ) : (
          <div class="grid">
            <div>
              <section class="panel" aria-labelledby="scan-h">
                <h2 id="scan-h">Scan</h2>
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void verify(scanned);
                  }}
                >
                  <label for="scanned">Scanned barcode</label>
                  <input
                    id="scanned"
                    class="mono"
                    value={scanned}
                    onInput={(e) => setScanned(e.currentTarget.value)}
                    placeholder="CM;…"
                    autoComplete="off"
                  />
                  <button type="submit" disabled={busy || scanned.trim() === ''}>
                    Verify
                  </button>
                  {cameraScanning && (
                    <button type="button" class="secondary" onClick={() => setCamera(true)}>
                      Scan with the camera
                    </button>
                  )}
                </form>
                {camera && (
                  <CameraScanner
                    onScan={(text) => {
                      setCamera(false);
                      setScanned(text);
                      void verify(text);
                    }}
                    onClose={(why) => {
                      setCamera(false);
                      if (why) setError(why);
                    }}
                  />
                )}
                {told && (
                  <div data-testid="verification">
                    <Notice kind={told.kind} title={told.title}>
                      {told.say}
                      <div class="mono muted">
                        {verification!.resultCode}
                        {verification!.reason ? ` · ${verification!.reason}` : ''}
                        {verification!.repeated ? ' · repeated' : ''}
                      </div>
                    </Notice>
                  </div>
                )}
                {verification?.resultCode === 'CARDSESSION_AVAILABLE' && payment === undefined && (
                  <button type="button" disabled={busy} onClick={() => void pay()}>
                    Pay with the wallet
                  </button>
                )}
                {needsRescan && (
                  <form
                    onSubmit={(e) => {
                      e.preventDefault();
                      void rescan(scanned);
                    }}
                  >
                    <p>Paste the customer's new barcode above, then:</p>
                    <button type="submit" disabled={busy}>
                      Send the new scan
                    </button>
                  </form>
                )}
              </section>
              {error !== undefined && (
                <Notice kind="error" title="Refused">
                  {error}
                </Notice>
              )}
              {payment !== undefined && (
                <PaymentPanel
                  payment={payment}
                  prompts={prompts}
                  log={log}
                  busy={busy}
                  onIntent={(i) => void intent(i)}
                  onNew={nextCustomer}
                />
              )}
            </div>
            <BasketEditor
              lines={lines}
              onLines={setLines}
              discount={discount}
              onDiscount={setDiscount}
              disabled={payment !== undefined && !['pending', 'unsuccessful', 'offered'].includes(payment.phase)}
            />
          </div>
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
