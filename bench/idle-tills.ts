import WebSocket from 'ws';

// The idle tills of the idle-tills benchmark, in a process of their own: COUNT connections to the bridge as
// the till with KEY, opened CONCURRENCY at a time, that then do nothing but answer pings (ws answers them by
// itself). Tells its parent { connected, refused } once all are tried; on 'count', { open }; stops on SIGTERM.
// Usage (forked): idle-tills.ts WS_URL KEY COUNT

const [wsUrl, key, countText] = process.argv.slice(2) as [string, string, string];
const count = Number(countText);
const CONCURRENCY = 50;
const sockets: WebSocket[] = [];
let refused = 0;
let next = 0;

function open(): Promise<void> {
  return new Promise((resolve) => {
    const headers = { Authorization: `Bearer ${key}` };
    const ws = new WebSocket(wsUrl, 'wallet-pos.v1', { headers, perMessageDeflate: false });
    ws.once('open', () => {
      sockets.push(ws);
      resolve();
    });
    ws.once('error', () => {
      refused++;
      resolve();
    });
  });
}

await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) {
      next++;
      await open();
    }
  }),
);
process.send!({ connected: sockets.length, refused });
process.on('message', (message: string) => {
  if (message === 'count') process.send!({ open: sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length });
});
process.on('SIGTERM', () => {
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
