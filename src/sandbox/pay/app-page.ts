/**
 * The wallet-app simulator page for people (GET /sandbox/app): issue a card
 * and see its barcode, list its pending invoices and confirm, decline or
 * cancel them. Plain HTML and fetch() against the simulator API; no assets.
 */
export function appPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wallet app simulator</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{background:#f4f4f4;padding:.1rem .3rem;border-radius:3px}
.card{border:1px solid #ccc;border-radius:6px;padding:.8rem;margin:.6rem 0}
button{margin-right:.4rem}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;border-bottom:1px solid #eee;text-align:left}
</style></head><body>
<h1>Wallet app simulator</h1>
<p>Issue a card, scan its barcode at the cash desk, then act as the customer on the invoices that appear.</p>
<p><label>Partner <input id="partner" placeholder="(the only one)"></label>
<label>Card number <input id="card" placeholder="(new)"></label>
<button id="issue">Issue card / new barcode</button> <button id="refresh">Refresh invoices</button></p>
<div id="barcode"></div>
<h2>Pending invoices</h2>
<div id="invoices"><p>No card yet.</p></div>
<script>
const $ = (id) => document.getElementById(id);
const text = (s) => String(s).replace(/[&<>"']/g, (ch) => '&#' + ch.charCodeAt(0) + ';');
async function call(method, path, body) {
  const res = await fetch(path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  if (!res.ok) throw new Error(json.status + ': ' + (json.errors || []).join('; '));
  return json;
}
function partner() { return $('partner').value.trim() || undefined; }
$('issue').onclick = async () => {
  try {
    const cardNumber = $('card').value.trim();
    const card = cardNumber
      ? await call('POST', '/sandbox/cards/' + encodeURIComponent(cardNumber) + '/barcode', { partnerId: partner() }).catch(() => call('POST', '/sandbox/cards', { partnerId: partner(), cardNumber }))
      : await call('POST', '/sandbox/cards', { partnerId: partner() });
    $('card').value = card.cardNumber;
    $('barcode').innerHTML = '<div class="card">Barcode <code>' + text(card.barcode) + '</code><br>card session <code>' + text(card.cardSession) + '</code>, valid until ' + text(card.sessionExpiresAt) + '</div>';
    await refresh();
  } catch (e) { alert(e.message); }
};
async function act(id, verb, body) {
  try { await call('POST', '/sandbox/app/transactions/' + encodeURIComponent(id) + '/' + verb, body); await refresh(); } catch (e) { alert(e.message); }
}
async function refresh() {
  const cardNumber = $('card').value.trim();
  if (!cardNumber) return;
  const p = partner();
  const { invoices } = await call('GET', '/sandbox/app/invoices?cardNumber=' + encodeURIComponent(cardNumber) + (p ? '&partnerId=' + encodeURIComponent(p) : ''));
  $('invoices').innerHTML = invoices.length === 0 ? '<p>Nothing to pay.</p>' : invoices.map((i) =>
    '<div class="card"><b>' + (i.totalAmount / 100).toFixed(2) + '</b> (discount ' + (i.discountAmount / 100).toFixed(2) + ') <code>' + text(i.transactionId) + '</code>' +
    '<table>' + i.items.map((it) => '<tr><td>' + text(it.name) + '</td><td>' + it.quantity + ' ' + text(it.measure) + '</td><td>' + (it.price / 100).toFixed(2) + '</td></tr>').join('') + '</table>' +
    i.offers.map((o) => '<p>' + text(o.providerId) + ': ' + text(o.marketingMessage) + '</p>').join('') +
    '<button data-id="' + text(i.transactionId) + '" data-verb="confirm">Confirm</button>' +
    '<button data-id="' + text(i.transactionId) + '" data-verb="decline">Decline</button>' +
    '<button data-id="' + text(i.transactionId) + '" data-verb="insufficient">Not enough funds</button>' +
    '<button data-id="' + text(i.transactionId) + '" data-verb="cancel">Cancel</button></div>').join('');
}
$('invoices').onclick = (event) => {
  const b = event.target.closest('button');
  if (!b) return;
  if (b.dataset.verb === 'insufficient') act(b.dataset.id, 'decline', { reason: 'INSUFFICIENT_FUNDS' });
  else act(b.dataset.id, b.dataset.verb);
};
$('refresh').onclick = () => refresh().catch((e) => alert(e.message));
setInterval(() => refresh().catch(() => {}), 3000);
</script></body></html>`;
}
