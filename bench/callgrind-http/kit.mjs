// The kit's cash desk server from the built package (dist/), as bench/servers/kit.ts runs it, for callgrind-http.sh:
// under valgrind the tsx loader (an esbuild child process) would be measured too.
import { pino } from 'pino';
import { demoConfig } from '../../dist/src/demo.js';
import { resolveServeConfig } from '../../dist/src/server/config.js';
import { startServer } from '../../dist/src/server/serve.js';

const { pay: _payments, ...verifyOnly } = demoConfig;
const config = resolveServeConfig(
  { ...verifyOnly, verifier: { ...demoConfig.verifier, backend: 'wasm', replay: false } },
  {},
  { port: 0 },
);
const server = await startServer(config, pino({ level: 'silent' }));
process.stdout.write(`READY ${server.port}\n`);
