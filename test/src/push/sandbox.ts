import { randomBytes } from 'node:crypto';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { startTestSandbox, type SandboxCase } from '../../support/sandbox.js';

/** Account settings the tests create through POST /sandbox/push/accounts. */
export interface AccountSettings {
  callbackUrl?: string;
  singleIntervalMs?: number;
  batchIntervalMs?: number;
  simulateDelivery?: boolean;
  callbackSecret?: string;
}

/** A sandbox for the Push tests, with helpers over its /sandbox/ controls. */
export interface PushSandbox {
  url: string;
  running: RunningSandbox;
  createAccount(settings?: AccountSettings): Promise<{ login: string; password: string; callbackSecret: string }>;
  stats(
    login: string,
    subId?: string,
  ): Promise<{
    messages: number;
    distinctMsisdn: number;
    duplicateMsisdn: number;
    batches: number;
    byStatus: Record<string, number>;
  }>;
  close(): Promise<void>;
}

/**
 * Starts the sandbox for the Push tests through `start` (a {@link SandboxCase}'s; default PGlite in memory), on a
 * free port.
 */
export async function startPushSandbox({
  timeScale = 1,
  clock,
  start = startTestSandbox,
}: {
  timeScale?: number;
  clock?: () => number;
  start?: SandboxCase['start'];
} = {}): Promise<PushSandbox> {
  const running = await start({ timeScale, clock });
  const url = running.url;
  return {
    url,
    running,
    async createAccount(settings = {}) {
      const login = `acct-${randomBytes(4).toString('hex')}`;
      const response = await fetch(`${url}/sandbox/push/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login, partner: 'demo-partner', ...settings }),
      });
      if (response.status !== 200)
        throw new Error(`account creation answered ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as { password: string; callbackSecret: string };
      return { login, password: body.password, callbackSecret: body.callbackSecret };
    },
    async stats(login, subId) {
      const query = new URLSearchParams({ login, ...(subId === undefined ? {} : { subId }) });
      const response = await fetch(`${url}/sandbox/push/stats?${query}`);
      if (response.status !== 200) throw new Error(`stats answered ${response.status}`);
      return response.json() as ReturnType<PushSandbox['stats']>;
    },
    close: () => running.close(),
  };
}

/** `count` distinct valid numbers, deterministic: 7900 followed by a zero-padded counter. */
export function generatedNumbers(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => `7900${String(offset + i).padStart(7, '0')}`);
}
