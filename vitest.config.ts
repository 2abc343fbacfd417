import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Failure bounds, not expectations: no test asserts a duration, and on a shared 2-core machine a PGlite
    // start-up or a child's banner can take many times its quiet-machine time. Count-sized runs set their own.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits on state; its 1 s default is a timer a loaded machine outruns.
    expect: { poll: { timeout: 30_000 } },
    // One worker and a half per core (3 on this 2-core machine and in CI): a file spends much of its time waiting on a
    // child process, a socket or a timer, and a third worker fills that time with another file's work. Measured on
    // the 2-core machine with a clean cache (identical runs vary by up to 25% here): 2 workers 314-345 s, 3 workers
    // 257-325 s, 4 workers 345 s (contention); on a faster 2-core VM, 3 workers 209-228 s, 4 workers 241 s.
    // (A percentage would not do: vitest caps it at the number of cores.)
    maxWorkers: Math.round(availableParallelism() * 1.5),
    // One module graph per worker, not per file: re-importing src/ (zod schemas, hono, pglite, wasm) for each of
    // ~85 files was most of the wall time (20 light files: 149 s -> 66 s under load). No test mocks modules
    // (vi.mock) or leaves globals changed, so sharing the graph is safe; a file that ever needs a fresh graph
    // belongs in a vitest project of its own with isolate: true.
    isolate: false,
    // The longest files first, whether or not vitest has their durations cached (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
  },
});
