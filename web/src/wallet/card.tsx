import { useEffect, useRef, useState } from 'preact/hooks';
import { call, describe } from '../shared/api';
import type { SandboxCard } from '../shared/types';
import { Notice } from '../shared/ui';
import { Barcode, CountdownRing } from './barcode';

/** What the app keeps of its card between visits (localStorage). */
export interface HeldCard {
  cardNumber: string;
  /** Issued by the merchant's Loyalty server (promo codes, receipts, favourites work), or only by the sandbox. */
  loyalty: boolean;
}

/**
 * Issues a card the way the wallet does: the merchant's Loyalty server gives the number, the wallet service its
 * sessions.
 */
async function issue(walletPayIsDefault: boolean): Promise<{ held: HeldCard; card: SandboxCard; note?: string }> {
  let cardNumber: string | undefined;
  let note: string | undefined;
  try {
    cardNumber = (await call<{ cardNumber: string }>('POST', '/sandbox/loyalty/cards', {})).cardNumber;
  } catch (error) {
    note =
      `No loyalty card from the merchant (${describe(error)}): a wallet-only card was issued, without promo codes ` +
      `or receipts.`;
  }
  const card = await call<SandboxCard>('POST', '/sandbox/cards', {
    walletPayIsDefault,
    ...(cardNumber ? { cardNumber } : {}),
  });
  return { held: { cardNumber: card.cardNumber, loyalty: cardNumber !== undefined }, card, ...(note ? { note } : {}) };
}

/** The card panel: issue a card, then its barcode redrawn at each password step with a countdown ring. */
export function CardPanel({
  held,
  onHeld,
}: {
  held: HeldCard | undefined;
  onHeld: (card: HeldCard | undefined) => void;
}) {
  const [card, setCard] = useState<SandboxCard>();
  const [error, setError] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [walletPayIsDefault, setDefault] = useState(true);
  const [now, setNow] = useState(Date.now());
  const offset = useRef(0);

  const redraw = async (cardNumber: string) => {
    try {
      const drawn = await call<SandboxCard>('POST', `/sandbox/cards/${encodeURIComponent(cardNumber)}/barcode`, {
        keepSession: true,
      });
      offset.current = Date.parse(drawn.drawnAt) - Date.now();
      setCard(drawn);
      setError(undefined);
    } catch (e) {
      setError(describe(e));
    }
  };

  useEffect(() => {
    if (held !== undefined && card?.cardNumber !== held.cardNumber) void redraw(held.cardNumber);
  }, [held?.cardNumber]);

  // The ring's clock: a display tick, not a request. The next barcode is fetched once, when its step begins.
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(tick);
  }, []);
  const stepEnds =
    card === undefined ? 0 : (Math.floor(Date.parse(card.drawnAt) / 1000 / card.interval) + 1) * card.interval * 1000;
  const secondsLeft = card === undefined ? 0 : (stepEnds - (now + offset.current)) / 1000;
  useEffect(() => {
    if (card === undefined || held === undefined) return;
    const wait = Math.max(50, stepEnds - (Date.now() + offset.current) + 50);
    const timer = setTimeout(() => void redraw(held.cardNumber), wait);
    return () => clearTimeout(timer);
  }, [card?.drawnAt, held?.cardNumber]);

  const [existing, setExisting] = useState('');
  const onOpen = async () => {
    const cardNumber = existing.trim();
    setBusy(true);
    try {
      const drawn = await call<SandboxCard>('POST', `/sandbox/cards/${encodeURIComponent(cardNumber)}/barcode`, {
        keepSession: true,
      });
      const { cards } = await call<{ cards: Array<{ cardNumber: string }> }>('GET', '/sandbox/loyalty/cards').catch(
        () => ({ cards: [] }),
      );
      offset.current = Date.parse(drawn.drawnAt) - Date.now();
      setCard(drawn);
      setError(undefined);
      onHeld({ cardNumber, loyalty: cards.some((c) => c.cardNumber === cardNumber) });
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };

  const onIssue = async () => {
    setBusy(true);
    try {
      const issued = await issue(walletPayIsDefault);
      offset.current = Date.parse(issued.card.drawnAt) - Date.now();
      setCard(issued.card);
      setNote(issued.note);
      setError(undefined);
      onHeld(issued.held);
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="card-h">
      <h2 id="card-h">Loyalty card</h2>
      {held === undefined ? (
        <>
          <p>Issue a card, then show its barcode at the till.</p>
          <label class="inline">
            <input type="checkbox" checked={walletPayIsDefault} onChange={(e) => setDefault(e.currentTarget.checked)} />
            Wallet Pay is my default payment method
          </label>
          <div>
            <button type="button" onClick={onIssue} disabled={busy}>
              Issue a card
            </button>
          </div>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              void onOpen();
            }}
          >
            <div>
              <label for="existing">
                Or show a card the wallet has (e.g. one printed by <code>npm start</code>)
              </label>
              <input
                id="existing"
                inputMode="numeric"
                value={existing}
                onInput={(e) => setExisting(e.currentTarget.value)}
                placeholder="Card number"
              />
            </div>
            <button type="submit" class="secondary" disabled={busy || existing.trim() === ''}>
              Show this card
            </button>
          </form>
        </>
      ) : (
        <>
          <p>
            Card{' '}
            <span class="mono" data-testid="card-number">
              {held.cardNumber}
            </span>
            {card?.cardSession ? (
              <>
                {' '}
                · session <span class="mono">{card.cardSession}</span>
              </>
            ) : null}
          </p>
          {card !== undefined && <Barcode text={card.barcode} />}
          {card !== undefined && <CountdownRing secondsLeft={secondsLeft} interval={card.interval} />}
          <button type="button" class="secondary" onClick={() => void redraw(held.cardNumber)}>
            Draw the barcode again
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setCard(undefined);
              onHeld(undefined);
            }}
          >
            Forget this card
          </button>
        </>
      )}
      {note !== undefined && <Notice kind="warn">{note}</Notice>}
      {error !== undefined && (
        <Notice kind="error" title="The wallet service refused">
          {error}
        </Notice>
      )}
    </section>
  );
}
