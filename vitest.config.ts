import { defineConfig } from 'vitest/config';

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
  },
});
