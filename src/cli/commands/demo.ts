import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { demoConfig } from '../../demo.js';
import {
  DEMO_PAGES,
  MAX_BASE_PORT,
  startDemoSystem,
  type DemoCard,
  type RunningDemoSystem,
} from '../../server/demo-system.js';
import { parsePortOption } from '../args.js';
import { bannerWriter } from '../banner.js';
import { exitOnSignals } from '../shutdown.js';

export const DEMO_USAGE = `wallet-partner-kit demo [--port N] [--host HOST] [--data DIR]

Starts the whole system on this machine, wired together on the demo configuration (public keys):
the cash desk server (port N), the sandbox wallet service (N+10) sending its Pay webhooks to the
cash desk server, the default Loyalty server (N+11) driven by the sandbox, and the merchant's Callback API
receiver (N+12) with the console's push callbacks. \`npm start\` runs it; open the pages it prints.
  --port N      the cash desk server's port (default 8080; 0 gives each server a free port)
  --host HOST   bind address (default 127.0.0.1)
  --data DIR    keep each server's data in DIR/cashdesk, DIR/sandbox, DIR/loyalty (PGlite); default in memory.
                DATABASE_URL is not used: the demo always runs on PGlite (serve, sandbox and loyalty take it)
LOG_LEVEL sets the log level (default info).`;

/** A basket of two lines, 250.00 in all, as the WebSocket line sends it. */
const BASKET = {
  items: [
    { name: 'Coffee beans 1 kg', article: 'DEMO-1', quantity: 1, price: 20_000 },
    { name: 'Croissant', article: 'DEMO-2', quantity: 2, price: 2_500 },
  ],
  discountAmount: 0,
};

/** Runs `demo` until SIGTERM or SIGINT, then stops all three servers and exits 0. */
export async function demo(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(DEMO_USAGE);
    return;
  }
  process.stdout.on('error', () => {});
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const system = await startDemoSystem({
    port: parsePortOption(values.port, MAX_BASE_PORT),
    host: values.host,
    dataDir: values.data,
    logger,
  });
  try {
    // Two cards, so the curl line and the WebSocket line each have a barcode never seen (a second use answers
    // REPLAYED).
    const verifyCard = await system.issueCard();
    const payCard = await system.issueCard({ walletPayIsDefault: true });
    bannerWriter(logger)(demoSystemBanner(system, verifyCard, payCard, values.data));
  } catch (error) {
    await system.close();
    throw error;
  }
  exitOnSignals(logger, () => system.close());
}

/** What `demo` prints: each URL, two fresh barcodes, a curl line and a WebSocket session that pays. */
export function demoSystemBanner(
  system: RunningDemoSystem,
  verifyCard: DemoCard,
  payCard: DemoCard,
  dataDir?: string,
): string {
  const { cashDesk, sandbox, loyalty } = system;
  const till = demoConfig.tills[0];
  const pay = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'pay.start',
    params: { fullBarcode: payCard.barcode, basket: BASKET, paymentId: `demo-${payCard.cardNumber}` },
  });
  // Prints every frame; ends on an error or once the payment has an outcome. Needs the ws package: run it in the kit's
  // folder.
  const script =
    `const W=require('ws');const s=new W('${cashDesk.wsUrl}','wallet-pos.v1',{headers:{Authorization:'Bearer ` +
    `${till.key}'}});` +
    `s.on('open',()=>s.send(process.argv[1]));s.on('message',m=>{console.log(String(m));const r=JSON.parse(m);` +
    `if(r.error||/^(succeeded|unsuccessful|unavailable|blocked)$/.test((r.params||{}).phase))s.close()})`;
  const kept = dataDir === undefined ? 'in memory (--data DIR keeps it)' : `${dataDir} (cashdesk/, sandbox/, loyalty/)`;
  // Said where the data is told: a DATABASE_URL in the environment is not what the demo runs on.
  const data = process.env.DATABASE_URL ? `${kept}; DATABASE_URL is not used (the demo runs on PGlite)` : kept;
  return `
  wallet-partner-kit demo system (DEMO configuration: public keys, never use in production)
  Cash desk  ${cashDesk.url}   (HTTP: /v1/barcode/verify, /v1/payments; GET /healthz, /metrics, /openapi.json)
  WebSocket  ${cashDesk.wsUrl}  (subprotocol wallet-pos.v1)
  Till key   ${till.key}
  Sandbox    ${sandbox.url}   (the wallet service: Pay and Push APIs; Pay webhooks to ${system.webhookUrl})
  Wallet app ${sandbox.url}${DEMO_PAGES.wallet}   (a card and its barcode; confirm payments here)
  Till       ${cashDesk.url}${DEMO_PAGES.till}   (a cash desk in the browser, on the bridge with the till key above)
  Console    ${cashDesk.url}${DEMO_PAGES.merchant}   (the merchant: transactions, webhooks, campaigns, callbacks, \
loyalty, metrics)
  Callbacks  ${system.callbacks.url}/callback   (the merchant's Callback API receiver, for the console's campaigns)
  Loyalty    ${loyalty.url}   (Basic ${demoConfig.loyalty.login}:${demoConfig.loyalty.password}; driven by the sandbox)
  Data       ${data}

  Try it (each barcode is valid for about a minute and once; a fresh card:
    curl -s -X POST -H 'Content-Type: application/json' -d '{}' ${sandbox.url}/sandbox/cards):
  1. Verify card ${verifyCard.cardNumber} over HTTP:
    curl -s -H 'Authorization: Bearer ${till.key}' -H 'Content-Type: application/json' \\
      -d '{"fullBarcode":"${verifyCard.barcode}"}' ${cashDesk.url}/v1/barcode/verify
  2. Pay 250.00 with card ${payCard.cardNumber} over the WebSocket bridge (run it in the kit's folder, where the ws \
package is):
    node -e "${script}" '${pay}'
     then confirm the payment in the wallet app (${sandbox.url}${DEMO_PAGES.wallet}, "Show this card" \
${payCard.cardNumber}): pay.sessionUpdated says succeeded.
  Or do it all in the browser: issue a card in the wallet app, paste its barcode in the till, pay, confirm, watch \
the console.

`;
}
