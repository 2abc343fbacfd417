/**
 * A cash desk HTTP server in a process of its own, for the open-file limit test:
 *
 *   sh -c 'ulimit -n 160 && exec node --import tsx test/support/fd-limit-child.ts'
 *
 * Serves the HTTP adapter on 127.0.0.1 (ephemeral port) with a connection cap far above what the limit allows and
 * timeouts long enough that idle keep-alive sockets stay open, then prints `READY <port> <soft fd limit>`.
 * Stops on SIGTERM.
 */
import { createHttpApp } from '../../adapters/cashdesk-http/index.js';
import { serveHttp } from '../../adapters/http-server/index.js';
import { softFdLimit } from '../../adapters/http-server/connection-gate.js';
import { CashDeskService } from '../../src/cashdesk/service.js';
import { TillRegistry } from '../../src/cashdesk/tills.js';
import { createVerifier } from '../../src/entries/index.js';
import { BASE_CONFIG, NOW } from './fixtures.js';

const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW, replay: false });
const tills = new TillRegistry([{ id: 'till-1', key: 'till-key-0123456789abcdef' }]);
const service = new CashDeskService({ verifier, tills });
const served = await serveHttp(createHttpApp(service), {
  limits: {
    maxConnections: 100_000,
    headersTimeoutMs: 600_000,
    requestTimeoutMs: 600_000,
    keepAliveTimeoutMs: 600_000,
  },
});
process.on('SIGTERM', () => {
  served.server.closeAllConnections();
  void served
    .close()
    .then(() => verifier.close())
    .then(() => process.exit(0));
});
process.stdout.write(`READY ${new URL(served.url).port} ${softFdLimit() ?? 0}\n`);
