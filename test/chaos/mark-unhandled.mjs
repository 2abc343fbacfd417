// Preloaded (node --import) into the `serve` children of the chaos test, main thread and worker threads alike: an
// unhandled rejection is written as one recognisable line before the process (or thread) dies of it as it would have
// anyway, so the test can tell that death from the kill -9 it sends itself.
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

process.on('unhandledRejection', (reason) => {
  const text = reason instanceof Error ? (reason.stack ?? String(reason)) : String(reason);
  writeSync(2, `CHAOS-UNHANDLED-REJECTION (${isMainThread ? 'main thread' : 'worker thread'}): ${text}\n`);
  throw reason;
});
