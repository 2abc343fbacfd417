import { pino } from 'pino';
import { demoConfig } from '../../src/demo.js';
import { resolveServeConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/serve.js';
import { ready } from './common.js';

// The kit's own server, as `serve` runs it (auth, validation, metrics), on the
// same verifier settings as the baselines: wasm backend, replay off. Without
// the demo's payments: the baselines run no payments thread and no PGlite, and
// their start-up work (wasm compiles, migrations) would fall into the rounds.
const { pay: _payments, ...verifyOnly } = demoConfig;
const config = resolveServeConfig(
  { ...verifyOnly, verifier: { ...demoConfig.verifier, backend: 'wasm', replay: false } },
  {},
  { port: 0 },
);
const server = await startServer(config, pino({ level: 'silent' }));
ready(server.port);
