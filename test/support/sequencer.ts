import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (measured on the 2-core machine with three workers, most first): started before the
 * rest, so that no worker is left running one alone at the end. Without vitest's cache of durations (a clean
 * checkout, as in CI) its own order is by file size, which would start several of these last. A file missing here
 * only runs in vitest's order; one listed that no longer exists is ignored.
 */
const LONGEST = [
  'test/package/installed.test.ts',
  'test/web/till-and-merchant.test.ts',
  'test/chaos/payments.test.ts',
  'test/examples/tills.test.ts',
  'test/src/server/payments-restart.test.ts',
  'test/src/cli/pay-field.test.ts',
  'test/src/contracts/prism.test.ts',
  'test/src/sandbox/pay/dialect-foreign.test.ts',
  'test/adapters/ws/pay-recovery.test.ts',
  'test/web/layout.test.ts',
  'test/web/wallet.test.ts',
  'test/src/push/campaign-crash.test.ts',
  'test/src/sandbox/push/progress.test.ts',
  'test/src/cli/push.test.ts',
  'test/src/sandbox/push/send.test.ts',
  'test/src/cli/errors.test.ts',
];

/** Vitest's order (`BaseSequencer`), with {@link LONGEST} moved to the front in its own order. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return at === -1 ? LONGEST.length : at;
    };
    // Array.prototype.sort is stable: the files not listed keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
