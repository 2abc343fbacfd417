import { randomBytes } from 'node:crypto';
import { basicAuthHeader } from '../src/net/basic-auth.js';
import { startSandbox, type RunningSandbox } from '../src/entries/sandbox.js';
import type { BenchGroup, Measured } from './harness.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const BATCH = 10_000;

const numbers = (offset: number) => Array.from({ length: BATCH }, (_, i) => String(70_000_000_000 + offset + i));

function stats(name: string, seconds: number[]): Measured {
  const rates = seconds.map((s) => BATCH / s);
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { name, hz: mean, rme: (sd / mean) * 100, samples: rates.length };
}

/**
 * Numbers accepted per second, in batches of 10,000, through POST /public/push/batch, and the same rows inserted bare
 * into the same table.
 */
async function measure(kind: string, running: RunningSandbox): Promise<Measured[]> {
  const login = `bench-${randomBytes(4).toString('hex')}`;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    fetch(running.url + path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const created = (await (
    await post('/sandbox/push/accounts', { login, partner: 'bench', batchIntervalMs: 0, simulateDelivery: false })
  ).json()) as { password: string };
  await post(
    '/public/user/reset-password',
    { password: 'bench-password-123' },
    { authorization: basicAuthHeader(login, created.password) },
    'PUT',
  );
  const auth = { authorization: basicAuthHeader(login, 'bench-password-123') };
  const api: number[] = [];
  const bare: number[] = [];
  const db = running.sandbox.context.db;
  for (let round = -1; round < ROUNDS; round++) {
    const body = {
      msisdn: numbers(round * BATCH * 2),
      subId: 'bench',
      message: { title: 'Bench', text: 'Throughput' },
    };
    let t = performance.now();
    const res = await post('/public/push/batch', body, auth);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${kind}: batch answered ${res.status}`);
    const apiSeconds = (performance.now() - t) / 1000;
    const ids = Array.from({ length: BATCH }, () => `pm_${randomBytes(12).toString('hex')}`);
    const { rows } = await db.query<{ send_id: string }>('SELECT send_id FROM push_sends WHERE login = $1 LIMIT 1', [
      login,
    ]);
    t = performance.now();
    await db.transaction((tx) =>
      tx.query(
        `INSERT INTO push_messages (message_id, send_id, login, sub_id, msisdn, status, created_at, updated_at, next_at)
       SELECT t.id, $3, $4, 'bench', t.msisdn, 'QUEUED', now(), now(), NULL FROM unnest($1::text[],
         $2::text[]) AS t(id, msisdn)`,
        [ids, numbers(round * BATCH * 2 + BATCH), rows[0]!.send_id, login],
      ),
    );
    const bareSeconds = (performance.now() - t) / 1000;
    if (round >= 0) {
      api.push(apiSeconds);
      bare.push(bareSeconds);
    } // round -1 warms up
  }
  return [
    stats(`${kind}: POST /public/push/batch (10,000 numbers)`, api),
    stats(`${kind}: bare INSERT ... unnest of 10,000 rows`, bare),
  ];
}

/**
 * The sandbox Push service's batch acceptance: 10,000-number batches per
 * second over HTTP (auth, validation, screening, the 304 claim, one
 * multi-row INSERT, the 10,000-entry answer), against the bare INSERT of the
 * same rows on the same database, on PGlite and on DATABASE_URL's PostgreSQL.
 */
export async function sandboxPushGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const results = new Map<string, Measured>();
  const kinds: string[] = [];
  const pglite = await startSandbox({ port: 0 });
  try {
    for (const m of await measure('PGlite', pglite)) results.set(m.name, m);
    kinds.push('PGlite');
  } finally {
    await pglite.close();
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_push_${randomBytes(4).toString('hex')}`;
    const pg = await startSandbox({ port: 0, databaseUrl: url, databaseSchema: schema });
    try {
      for (const m of await measure('PostgreSQL', pg)) results.set(m.name, m);
      kinds.push('PostgreSQL');
    } finally {
      await pg.sandbox.context.db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pg.close();
    }
  }
  const group: BenchGroup = {
    title: 'Sandbox Push: numbers accepted per second in 10,000-number batches (in-process client)',
    cases: [],
    ratios: kinds.map((k) => ({
      label: `${k}: API batch vs bare INSERT`,
      subject: `${k}: POST /public/push/batch (10,000 numbers)`,
      baseline: `${k}: bare INSERT ... unnest of 10,000 rows`,
      target: 0.3,
    })),
    notes: [
      "The ratio is the share of the database's own insert rate the whole API call keeps (the rest is HTTP, " +
        'JSON, validation and the answer).',
    ],
  };
  return [{ group, results }];
}
