import { startSandbox } from '../../src/sandbox/server.js';
import { createPayModule } from '../../src/sandbox/pay/index.js';
import { ready } from './common.js';

// The sandbox with only its Pay module, on the database the parent chose:
// PGlite in memory, or the PostgreSQL at WPK_BENCH_DATABASE_URL in schema WPK_BENCH_SCHEMA.
// --demo: the demo partner exists, so the demo verifier's tokens are valid.
const databaseUrl = process.env.WPK_BENCH_DATABASE_URL || undefined;
const running = await startSandbox(
  {
    port: 0,
    demo: true,
    databaseUrl,
    databaseSchema: databaseUrl ? process.env.WPK_BENCH_SCHEMA : undefined,
  },
  [createPayModule()],
);
ready(running.port);
