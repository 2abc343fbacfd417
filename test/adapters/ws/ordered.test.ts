import { describe, expect, it, vi } from 'vitest';
import { isThenable, OrderedDelivery } from '../../../adapters/ws/ordered.js';

/** A promise with its settle functions outside. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('OrderedDelivery', () => {
  it('delivers a ready value inside push when nothing is ahead of it', () => {
    const delivered: string[] = [];
    const queue = new OrderedDelivery<string>(
      (v) => delivered.push(v),
      () => 'rejected',
      () => undefined,
    );
    queue.push('a');
    expect(delivered).toEqual(['a']);
    queue.push('b');
    expect(delivered).toEqual(['a', 'b']);
    expect(queue.pending).toBe(0);
  });

  it('keeps push order when an earlier value is a promise, and delivers the run it unblocks', async () => {
    const delivered: string[] = [];
    const afterSettle = vi.fn();
    const queue = new OrderedDelivery<string>(
      (v) => delivered.push(v),
      () => 'rejected',
      afterSettle,
    );
    const slow = deferred<string>();
    const fast = deferred<string>();
    queue.push('first');
    queue.push(slow.promise);
    queue.push('ready');
    queue.push(fast.promise);
    queue.push('last');
    expect(delivered).toEqual(['first']);
    expect(queue.pending).toBe(4);
    fast.resolve('fast');
    await flush();
    // Settled, but behind the slow one: nothing moves.
    expect(delivered).toEqual(['first']);
    slow.resolve('slow');
    await flush();
    expect(delivered).toEqual(['first', 'slow', 'ready', 'fast', 'last']);
    expect(queue.pending).toBe(0);
    expect(afterSettle).toHaveBeenCalledTimes(2);
  });

  it('delivers what onRejected makes of a rejection, in its place', async () => {
    const delivered: string[] = [];
    const queue = new OrderedDelivery<string>(
      (v) => delivered.push(v),
      (e) => `error: ${(e as Error).message}`,
      () => undefined,
    );
    const failing = deferred<string>();
    queue.push(failing.promise);
    queue.push('after');
    failing.reject(new Error('boom'));
    await flush();
    expect(delivered).toEqual(['error: boom', 'after']);
  });

  it('resolves idle() at once when empty, and once the last pending value is delivered', async () => {
    const delivered: string[] = [];
    const queue = new OrderedDelivery<string>(
      (v) => delivered.push(v),
      () => 'rejected',
      () => undefined,
    );
    await queue.idle();
    const pending = deferred<string>();
    queue.push(pending.promise);
    let idle = false;
    void queue.idle().then(() => {
      idle = true;
    });
    await flush();
    expect(idle).toBe(false);
    pending.resolve('done');
    await flush();
    expect(idle).toBe(true);
    expect(delivered).toEqual(['done']);
  });

  it('waits on thenables that are not native promises', async () => {
    const delivered: string[] = [];
    const queue = new OrderedDelivery<string>(
      (v) => delivered.push(v),
      () => 'rejected',
      () => undefined,
    );
    let settle!: (v: string) => void;
    queue.push({
      then: (resolve: (v: string) => void) => {
        settle = resolve;
      },
    } as PromiseLike<string>);
    queue.push('now');
    await flush();
    expect(delivered).toEqual([]);
    settle('later');
    await flush();
    expect(delivered).toEqual(['later', 'now']);
  });
});

describe('isThenable', () => {
  it('tells promises and thenables from plain results', () => {
    expect(isThenable(Promise.resolve(1))).toBe(true);
    expect(isThenable({ then: () => undefined })).toBe(true);
    for (const value of [null, undefined, 0, 'then', { then: 1 }, { resultCode: 'OK' }, []])
      expect(isThenable(value)).toBe(false);
  });
});
