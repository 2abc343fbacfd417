import { describe, expect, it } from 'vitest';
import { realSleep } from '../../../src/time/sleep.js';

describe('realSleep', () => {
  it("rejects with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    const sleeping = realSleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
  });
});
