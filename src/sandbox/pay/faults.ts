import type { MiddlewareHandler } from 'hono';
import { payRefusal } from './pay-refusals.js';

/** What an injected fault does to a request. */
export type FaultAction = 'drop-after-commit' | 'fail-before-commit' | 'delay';

/** A fault waiting for the next requests to a path. */
export interface Fault {
  path: string;
  action: FaultAction;
  /** Requests still to hit. */
  remaining: number;
  /**
   * For `delay`: real milliseconds before the request is processed (not scaled: it exercises the client's timeouts).
   */
  delayMs: number;
}

/**
 * Faults injected into the Pay API by tests (`POST /sandbox/faults`): the next
 * `count` requests to a path fail before anything is stored (503), are
 * answered late, or are processed and committed and then lose their answer
 * (the TCP socket is destroyed): the client cannot tell a lost request from
 * a lost answer, which is what its recovery rules are for. Kept in memory,
 * per sandbox process.
 */
export class Faults {
  readonly #queue: Fault[] = [];

  /** Adds a fault. */
  add(fault: Omit<Fault, 'remaining'> & { count: number }): Fault {
    const added: Fault = { path: fault.path, action: fault.action, remaining: fault.count, delayMs: fault.delayMs };
    this.#queue.push(added);
    return { ...added };
  }

  /** Faults still armed. */
  list(): Fault[] {
    return this.#queue.filter((f) => f.remaining > 0).map((f) => ({ ...f }));
  }

  /** Disarms every fault. */
  clear(): void {
    this.#queue.length = 0;
  }

  /** Takes the next fault for a path, if one is armed. */
  take(path: string): Fault | undefined {
    if (this.#queue.length === 0) return undefined;
    const index = this.#queue.findIndex((f) => f.path === path && f.remaining > 0);
    if (index < 0) return undefined;
    const fault = this.#queue[index]!;
    fault.remaining--;
    if (fault.remaining === 0) this.#queue.splice(index, 1);
    return fault;
  }

  /** The route middleware that applies faults to requests of `path`; put it first. */
  middleware(path: string): MiddlewareHandler {
    return async (c, next) => {
      const fault = this.take(path);
      if (fault === undefined) return next();
      if (fault.action === 'fail-before-commit') {
        throw payRefusal('UNAVAILABLE', ['The Pay service is unavailable (injected fault); nothing was stored, retry']);
      }
      if (fault.action === 'delay') {
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        return next();
      }
      await next();
      // The request ran and committed; its answer is lost. Only a real socket can be cut.
      const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
      if (socket === undefined) {
        throw payRefusal('UNAVAILABLE', ['drop-after-commit needs the sandbox served over HTTP (answer replaced)']);
      }
      socket.destroy();
    };
  }
}
