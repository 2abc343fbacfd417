// bench/servers/plain-http.ts over the built package (dist/), for callgrind-http.sh.
import { createServer } from 'node:http';
import { demoConfig } from '../../dist/src/demo.js';
import { createVerifier } from '../../dist/src/entries/index.js';
import { plainListener } from '../servers/plain-listener.mjs';

const server = createServer(
  plainListener(createVerifier({ ...demoConfig.verifier, backend: 'wasm', replay: false }), demoConfig.tills),
);
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
