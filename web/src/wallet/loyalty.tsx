import { useEffect, useState } from 'preact/hooks';
import { call, describe } from '../shared/api';
import { money } from '../shared/format';
import type { CategoryGroup, FavoriteSelection } from '../shared/types';
import { Notice } from '../shared/ui';

interface Outcome {
  kind: 'ok' | 'warn' | 'error';
  text: string;
}

function outcomeOf(answer: { result: string; message?: string; bonusAmount?: number }): Outcome {
  const good = answer.result === 'APPLIED' || answer.result === 'ACCEPTED';
  const bonus = answer.bonusAmount ? ` Bonus ${money(answer.bonusAmount)}.` : '';
  const message = answer.message ? `: ${answer.message.replace(/\.$/, '')}` : '';
  return { kind: good ? 'ok' : 'warn', text: `${answer.result}${message}.${bonus}` };
}

/** What the app sends the merchant's Loyalty server: promo codes, receipt QR codes, favourite categories. */
export function Loyalty({ cardNumber, version }: { cardNumber: string; version: number }) {
  const base = `/sandbox/loyalty/cards/${encodeURIComponent(cardNumber)}`;
  const [code, setCode] = useState('');
  const [qr, setQr] = useState('');
  const [promo, setPromo] = useState<Outcome>();
  const [receipt, setReceipt] = useState<Outcome>();
  const [groups, setGroups] = useState<CategoryGroup[]>([]);
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const [saved, setSaved] = useState<Outcome>();

  useEffect(() => {
    void (async () => {
      try {
        const [{ groups: g }, { favorites }] = await Promise.all([
          call<{ groups: CategoryGroup[] }>('GET', `${base}/categories`),
          call<{ favorites: FavoriteSelection[] }>('GET', `${base}/favorites`),
        ]);
        setGroups(g);
        setChosen(Object.fromEntries(favorites.map((f) => [f.groupId, f.categoryIds])));
      } catch (e) {
        setSaved({ kind: 'error', text: describe(e) });
      }
    })();
  }, [cardNumber, version]);

  const send = async (path: string, body: unknown, set: (o: Outcome) => void) => {
    try {
      set(outcomeOf(await call('POST', `${base}/${path}`, body)));
    } catch (e) {
      set({ kind: 'error', text: describe(e) });
    }
  };
  const toggle = (group: CategoryGroup, id: string, on: boolean) => {
    const now = chosen[group.groupId] ?? [];
    setChosen({ ...chosen, [group.groupId]: on ? [...now, id] : now.filter((c) => c !== id) });
  };
  const save = async () => {
    try {
      const favorites = groups
        .map((g) => ({ groupId: g.groupId, categoryIds: chosen[g.groupId] ?? [] }))
        .filter((f) => f.categoryIds.length > 0);
      await call('POST', `${base}/favorites`, { favorites });
      setSaved({ kind: 'ok', text: 'Favourites saved.' });
    } catch (e) {
      setSaved({ kind: 'error', text: describe(e) });
    }
  };

  return (
    <section class="panel" aria-labelledby="loy-h">
      <h2 id="loy-h">Loyalty</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void send('promo-code', { code }, setPromo);
        }}
      >
        <div>
          <label for="promo">Promo code</label>
          <input id="promo" value={code} onInput={(e) => setCode(e.currentTarget.value)} placeholder="WELCOME100" />
        </div>
        <button type="submit">Apply</button>
      </form>
      {promo && <Notice kind={promo.kind}>{promo.text}</Notice>}
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void send('receipt', qr.trim() === '' ? { sum: 100_000 } : { qrCode: qr.trim() }, setReceipt);
        }}
      >
        <div>
          <label for="qr">Receipt QR code</label>
          <input
            id="qr"
            value={qr}
            onInput={(e) => setQr(e.currentTarget.value)}
            placeholder="t=20240315T1425&s=1020.00&fn=…&i=…&fp=…&n=1"
            aria-describedby="qr-help"
          />
          <small id="qr-help" class="muted">
            Empty: a sample purchase receipt of 1000.00 made up now.
          </small>
        </div>
        <button type="submit">Send receipt</button>
      </form>
      {receipt && <Notice kind={receipt.kind}>{receipt.text}</Notice>}
      <h3>Favourite categories</h3>
      {groups.map((g) => {
        const picked = chosen[g.groupId] ?? [];
        return (
          <fieldset key={g.groupId}>
            <legend>
              {g.name} (up to {g.maxSelected})
            </legend>
            {g.categories.map((c) => (
              <label class="inline" key={c.categoryId}>
                <input
                  type="checkbox"
                  checked={picked.includes(c.categoryId)}
                  disabled={!picked.includes(c.categoryId) && picked.length >= g.maxSelected}
                  onChange={(e) => toggle(g, c.categoryId, e.currentTarget.checked)}
                />
                {c.name}
              </label>
            ))}
          </fieldset>
        );
      })}
      {groups.length > 0 && (
        <button type="button" class="secondary" onClick={() => void save()}>
          Save favourites
        </button>
      )}
      {saved && <Notice kind={saved.kind}>{saved.text}</Notice>}
    </section>
  );
}
