import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { exitOf, waitForDemoBanner, type DemoBanner } from '../support/demo-child.js';
import { have, runTill, type Target, type TillRun } from '../support/till-run.js';

/**
 * The reference tills in examples/ (Java 17 with nothing but the JDK; Python 3 with Debian's
 * python3-websockets; C# with Mono's mcs; Object Pascal with Free Pascal) pay one fresh sandbox card against the
 * `demo` system, as a till vendor would run them: `examples/till-*\/run` with WPK_CASHDESK_URL, WPK_TILL_KEY and
 * WPK_SANDBOX_URL. Each drops its connection (the Pascal till: its event stream) while the customer confirms, so the
 * outcome reaches it only through the reconnection.
 */

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

const javaReady = have(
  ['javac'],
  ['-version'],
  'javac not found: skipping the Java reference till ' +
    '(a JDK 17, e.g. apt-get install -y openjdk-17-jdk-headless, to run it)',
);
// The same Pythons examples/till-python/run tries: Debian's package is in the system Python, which pyenv may shadow.
const pythonReady = have(
  [process.env.PYTHON ?? 'python3', '/usr/bin/python3'],
  ['-c', 'import websockets'],
  "python3's websockets module not found: skipping the Python reference till " +
    '(apt-get install -y python3-websockets, as .ci/run does, to run it)',
);

const csharpReady = have(
  ['mcs'],
  ['--version'],
  'mcs not found: skipping the C# reference till (apt-get install -y mono-devel, as .ci/run does, to run it)',
);
const pascalReady = have(
  ['fpc'],
  ['-iV'],
  'fpc not found: skipping the Object Pascal reference till (apt-get install -y fpc, as .ci/run does, to run it)',
);
const anyReady = javaReady || pythonReady || csharpReady || pascalReady;

/** The demo system the tills pay against: one child for the file. */
let demo: ChildProcess | undefined;
let banner: DemoBanner;

/** What every till's output must show, whatever its language. */
function expectPaidAfterReconnecting(run: TillRun) {
  const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  expect(run.code, said).toBe(0);
  expect(run.stdout, said).toMatch(/^phase: succeeded$/m);
  // It lost its link after `pending` and learned `succeeded` on the new one: the payment restated on reconnection,
  // then the event it missed fetched with pay.events.
  const lines = run.stdout.split('\n');
  const lost = lines.findIndex((line) => line.includes('connection lost'));
  const reconnected = lines.findIndex((line, i) => i > lost && line.includes('connected to'));
  const caughtUp = lines.findIndex((line) => /pay\.events \S+ after seq \d+: [1-9]\d* missed/.test(line));
  const succeeded = lines.indexOf('phase: succeeded');
  expect(lost, said).toBeGreaterThan(lines.findIndex((line) => /seq \d+: pending/.test(line)));
  expect(reconnected, said).toBeGreaterThan(lost);
  expect(caughtUp, said).toBeGreaterThan(reconnected);
  expect(succeeded, said).toBeGreaterThan(caughtUp);
  expect(run.stdout, said).toMatch(/^receipt: sent$/m);
  expect(run.stdout, said).toMatch(/^refund: 25000 kopecks, phase refunded$/m);
}

/**
 * The Pascal till's output over the HTTP API: it closed its event stream after `pending`, and the outcome came on
 * the stream it opened again with Last-Event-ID, the seq of the last event it took.
 */
function expectPaidAfterResumingTheStream(run: TillRun) {
  const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  expect(run.code, said).toBe(0);
  const lines = run.stdout.split('\n');
  const pending = lines.findIndex((line) => /pay\.sessionUpdated \S+ seq \d+: pending/.test(line));
  const lastSeq = /seq (\d+): pending/.exec(lines[pending] ?? '')?.[1];
  const lost = lines.findIndex((line) => line.includes('connection lost'));
  const resumed = lines.findIndex(
    (line) => line.includes(`connected to`) && line.includes(`Last-Event-ID: ${lastSeq})`),
  );
  const succeeded = lines.indexOf('phase: succeeded');
  expect(pending, said).toBeGreaterThan(-1);
  expect(lost, said).toBeGreaterThan(pending);
  expect(resumed, said).toBeGreaterThan(lost);
  expect(lines[resumed], said).toMatch(/^till: reconnected to /);
  expect(succeeded, said).toBeGreaterThan(resumed);
  expect(run.stdout, said).toMatch(new RegExp(`seq ${Number(lastSeq) + 1}: succeeded`));
  expect(run.stdout, said).toMatch(/^receipt: sent$/m);
  expect(run.stdout, said).toMatch(/^refund: 25000 kopecks, phase refunded$/m);
}

describe.skipIf(!anyReady)('reference tills against `demo`', () => {
  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL; // the demo system's own in-memory data, as `npm start` runs it
    demo = spawn(process.execPath, [cli, 'demo', '--port', '0'], { cwd: root, env });
    banner = await waitForDemoBanner(demo, { text: '' });
  }, 480_000);

  afterAll(async () => {
    if (demo === undefined) return;
    const exited = exitOf(demo);
    demo.kill('SIGTERM');
    await exited;
  });

  it.skipIf(!javaReady)(
    'examples/till-java pays a sandbox card: exit 0, succeeded, receipt, refund',
    async () => {
      expectPaidAfterReconnecting(await runTill('till-java', banner));
    },
    240_000,
  );

  it.skipIf(!pythonReady)(
    'examples/till-python pays a sandbox card: exit 0, succeeded, receipt, refund',
    async () => {
      expectPaidAfterReconnecting(await runTill('till-python', banner));
    },
    120_000,
  );

  it.skipIf(!csharpReady)(
    'examples/till-csharp pays a sandbox card: exit 0, succeeded, receipt, refund',
    async () => {
      expectPaidAfterReconnecting(await runTill('till-csharp', banner));
    },
    240_000,
  );

  it.skipIf(!pascalReady)(
    'examples/till-pascal pays a sandbox card over HTTP, resuming its event stream with Last-Event-ID',
    async () => {
      expectPaidAfterResumingTheStream(await runTill('till-pascal', banner));
    },
    240_000,
  );
});

/**
 * A scripted cash desk (and sandbox) on one port, for what `demo` does not do on demand: it answers the first
 * pay.start PAYMENT_BUSY and the first pay.receipt DATABASE_UNAVAILABLE, sends a notification twice, and on
 * reconnection restates the payment three events ahead, sending a newer event before it answers pay.events.
 */
async function startScriptedCashDesk(): Promise<{
  target: Target;
  calls: Array<{ method: string; params: any }>;
  close(): Promise<void>;
}> {
  const calls: Array<{ method: string; params: any }> = [];
  let paymentId = '';
  let confirmed = false;
  const tried = new Set<string>();
  const server: Server = createServer((req, res) => {
    const answer = (body: unknown) => res.setHeader('content-type', 'application/json').end(JSON.stringify(body));
    req.resume().on('end', () => {
      if (req.url === '/sandbox/cards') answer({ cardNumber: '4000000000000001', barcode: 'CM;4000000000000001;x;1' });
      else if (req.url?.startsWith('/sandbox/app/invoices')) answer({ invoices: [{ transactionId: 'trx-1' }] });
      else if (req.url === '/sandbox/app/transactions/trx-1/confirm') {
        confirmed = true;
        answer({ transactionId: 'trx-1', status: 'processing' });
      } else res.writeHead(404).end();
    });
  });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => offered.has('wallet-pos.v1') && 'wallet-pos.v1',
  });
  server.on('upgrade', (req, socket, head) => {
    if (req.headers.authorization !== 'Bearer scripted-key') return socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });
  const update = (seq: number, phase: string, more: object = {}) =>
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'pay.sessionUpdated',
      params: { paymentId, phase, seq, ...more },
    });
  function serve(ws: WebSocket) {
    const send = (text: string) => ws.send(text);
    if (confirmed) {
      send(update(5, 'succeeded', { restated: true, transactionId: 'trx-1' }));
      send(update(6, 'succeeded', { event: 'showProviderMessages' })); // newer than the events the till missed
    }
    ws.on('message', (data) => {
      const { id, method, params } = JSON.parse(String(data));
      calls.push({ method, params });
      const result = (value: unknown) => send(JSON.stringify({ jsonrpc: '2.0', id, result: value }));
      const refuse = (code: number, dataCode: string, more = {}) =>
        send(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code, message: dataCode, data: { code: dataCode, ...more } },
          }),
        );
      const first = !tried.has(method);
      tried.add(method);
      if (method === 'barcode.verify') result({ resultCode: 'CARDSESSION_AVAILABLE', reason: 'OK' });
      else if (method === 'pay.start' && first) refuse(-32011, 'PAYMENT_BUSY');
      else if (method === 'pay.start') {
        paymentId = params.paymentId;
        send(update(1, 'checking'));
        send(update(2, 'pending', { transactionId: 'trx-1' }));
        send(update(2, 'pending', { transactionId: 'trx-1' })); // the same event again: taken once
        result({ paymentId, phase: 'pending', totalAmount: 25000 });
      } else if (method === 'pay.events') {
        const events = [
          { paymentId, phase: 'pending', seq: 3, status: 'processing' },
          { paymentId, phase: 'pending', seq: 4, event: 'tellCustomerNotToConfirm' },
          { paymentId, phase: 'succeeded', seq: 5, transactionId: 'trx-1' },
        ].filter((e) => e.seq > params.afterSeq);
        setTimeout(() => result({ events }), 300); // after seq 6 has arrived: the till must still take 3, 4, 5 first
      } else if (method === 'pay.receipt' && first) refuse(-32004, 'DATABASE_UNAVAILABLE', { retryAfterMs: 100 });
      else if (method === 'pay.receipt') result({ paymentId, phase: 'succeeded', receiptSent: true });
      else if (method === 'pay.refund') result({ paymentId, phase: 'refunded', refundedAmount: 25000 });
      else refuse(-32601, 'METHOD_NOT_FOUND');
    });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    target: { cashDeskUrl: url, tillKey: 'scripted-key', sandboxUrl: url },
    calls,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Runs a till against the scripted cash desk and checks what it did there. */
async function expectRetriedAndCaughtUp(folder: string) {
  const desk = await startScriptedCashDesk();
  try {
    const run = await runTill(folder, desk.target);
    const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect(run.code, said).toBe(0);
    expect(run.stdout, said).toMatch(/^phase: succeeded$/m);
    expect(run.stdout, said).toMatch(/pay\.start answered PAYMENT_BUSY: again in/);
    expect(run.stdout, said).toMatch(/pay\.receipt answered DATABASE_UNAVAILABLE: again in/);
    // Each event once, in seq order: the repeated 2 dropped, 3 to 5 fetched before the newer 6 was taken.
    const taken = [...run.stdout.matchAll(/pay\.sessionUpdated \S+ seq (\d+):/g)].map((m) => Number(m[1]));
    expect(taken, said).toEqual([1, 2, 3, 4, 5, 6]);
    const starts = desk.calls.filter((c) => c.method === 'pay.start');
    expect(starts).toHaveLength(2);
    expect(starts[1]!.params.paymentId).toBe(starts[0]!.params.paymentId);
    expect(desk.calls.filter((c) => c.method === 'pay.events').map((c) => c.params.afterSeq)).toEqual([2]);
    expect(desk.calls.filter((c) => c.method === 'pay.receipt')).toHaveLength(2);
  } finally {
    await desk.close();
  }
}

describe.skipIf(!javaReady && !pythonReady && !csharpReady)('reference tills against a scripted cash desk', () => {
  it.skipIf(!javaReady)(
    'examples/till-java retries, takes each event once and in order, fetches what it missed',
    () => expectRetriedAndCaughtUp('till-java'),
    240_000,
  );

  it.skipIf(!pythonReady)(
    'examples/till-python retries, takes each event once and in order, fetches what it missed',
    () => expectRetriedAndCaughtUp('till-python'),
    120_000,
  );

  it.skipIf(!csharpReady)(
    'examples/till-csharp retries, takes each event once and in order, fetches what it missed',
    () => expectRetriedAndCaughtUp('till-csharp'),
    240_000,
  );
});
