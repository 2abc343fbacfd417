import { pino } from 'pino';
import { demoConfig } from '../../src/demo.js';
import { resolveServeConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/serve.js';
import { ready } from './common.js';

// The cash desk server on the demo configuration with WPK_BENCH_TILLS tills
// (bench-till-0 ... with keys bench-till-key-<n>-not-secret), its Pay client
// pointed at the sandbox of WPK_BENCH_PAY_URL, webhooks signed with the demo secret.
const count = Number(process.env.WPK_BENCH_TILLS ?? 1);
const tills = Array.from({ length: count }, (_, n) => ({ id: `bench-till-${n}`, key: `bench-till-key-${n}-not-secret` }));
const config = resolveServeConfig({
  ...demoConfig, tills,
  pay: { ...demoConfig.pay, url: process.env.WPK_BENCH_PAY_URL },
  server: { port: 0 },
}, {});
const server = await startServer(config, pino({ level: process.env.LOG_LEVEL ?? 'warn' }));
ready(server.port);
