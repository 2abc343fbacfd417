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
    // Two cores here and in CI: more workers only contend.
    maxWorkers: 2,
    // One module graph per worker, not per file: re-importing src/ (zod schemas, hono, pglite, wasm) for each of
    // ~85 files was most of the wall time (20 light files: 149 s -> 66 s under load). No test mocks modules
    // (vi.mock) or leaves globals changed, so sharing the graph is safe; a file that ever needs a fresh graph
    // belongs in a vitest project of its own with isolate: true.
    isolate: false,
    // The longest files first, whether or not vitest has their durations cached (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
  },
});
