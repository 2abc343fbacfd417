import { serveHttp } from '../../adapters/http-server/serve.js';
import { createSandbox } from '../../src/sandbox/app.js';
import { createPayModule } from '../../src/sandbox/pay/index.js';
import { ready } from './common.js';

// The sandbox's Pay module with the demo partner (PGlite in memory, instant bank by default),
// plus one read the tills benchmark needs to tell a lost or doubled payment: how many
// succeeded transactions each card has.
const sandbox = await createSandbox({ port: 0, demo: true }, [createPayModule()]);
sandbox.app.get('/bench/succeeded', async (c) => {
  const { rows } = await sandbox.context.db.query<{ card_number: string; n: number }>(
    "SELECT card_number, count(*)::int AS n FROM pay_transactions WHERE status = 'succeeded' GROUP BY card_number",
  );
  return c.json(Object.fromEntries(rows.map((r) => [r.card_number, Number(r.n)])));
});
const http = await serveHttp(sandbox.app, { host: '127.0.0.1', port: 0 });
sandbox.start();
ready(Number(new URL(http.url).port));
