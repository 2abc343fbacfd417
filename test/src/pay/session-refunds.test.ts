import { describe, expect, it } from 'vitest';
import type { PayClient } from '../../../src/entries/pay.js';
import type { SandboxCard } from './sandbox-harness.js';
import { paySandboxCases } from './sandbox-harness.js';
import { useSandbox } from './session-fixture.js';

const TOTAL = 2 * 8_990 + 350 * 120 - 1_000;
const [pglite] = paySandboxCases('Pay session refunds');

/**
 * The client with /refund as a service that settles refunds later answers it: `PENDING` first (nothing refunded
 * yet), then, asked again by the refundId, `FAILED`, or the sandbox's own refund as `SUCCEEDED`.
 */
function settlingLater(client: PayClient, outcome: 'SUCCEEDED' | 'FAILED'): { client: PayClient; calls: number } {
  const seen = { calls: 0 } as { client: PayClient; calls: number };
  const refund: PayClient['refund'] = async (body, options) => {
    seen.calls++;
    if (seen.calls === 1 || outcome === 'FAILED') {
      const status = seen.calls === 1 ? 'PENDING' : 'FAILED';
      return {
        transactionId: body.transactionId,
        refundId: body.refundId!,
        amount: body.amount ?? TOTAL,
        refundedAmount: 0,
        status,
      };
    }
    return { ...(await client.refund(body, options)), status: 'SUCCEEDED' };
  };
  seen.client = new Proxy(client, {
    get(target, prop) {
      if (prop === 'refund') return refund;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return seen;
}

describe('PaymentSession refunds', () => {
  const t = useSandbox(pglite!);

  async function paid(card: SandboxCard, client?: PayClient) {
    const opened = t.open(card, client ? { client } : {});
    await opened.session.start();
    await t.sim.confirm(opened.session.transactionId!);
    await opened.session.waitForResult();
    return opened;
  }

  it('follows a refund answered pending until it succeeds, and is refunded only then', async () => {
    const card = await t.sim.issueCard({ walletPayIsDefault: true });
    const later = settlingLater(t.client, 'SUCCEEDED');
    const { session } = await paid(card, later.client);
    expect(await session.refund({ refundId: 'pending-1' })).toMatchObject({ status: 'PENDING' });
    expect(session.phase).toBe('succeeded');
    expect(session.refunds).toEqual([expect.objectContaining({ refundId: 'pending-1', state: 'pending' })]);
    await expect.poll(() => session.phase).toBe('refunded');
    expect(session.refunds[0]).toMatchObject({
      state: 'succeeded',
      answer: { status: 'SUCCEEDED', refundedAmount: TOTAL },
    });
    expect(session.transaction?.refundedAmount).toBe(TOTAL);
  });

  it('keeps the payment paid when a pending refund fails', async () => {
    const card = await t.sim.issueCard({ walletPayIsDefault: true });
    const later = settlingLater(t.client, 'FAILED');
    const { session } = await paid(card, later.client);
    await session.refund({ refundId: 'failing-1', amount: 1_000 });
    await expect.poll(() => session.refunds[0]?.state).toBe('failed');
    expect(session.phase).toBe('succeeded');
    expect(session.transaction?.refundedAmount ?? 0).toBe(0);
    expect(session.watching).toBe(false);
  });

  it('answers a refundId repeated after a restart from its snapshot, without asking the service', async () => {
    const card = await t.sim.issueCard({ walletPayIsDefault: true });
    const { session } = await paid(card);
    const first = await session.refund({ refundId: 'kept-1', amount: 1_000 });
    const snapshot = JSON.parse(JSON.stringify(session.snapshot()));
    session.close();
    const counting = settlingLater(t.client, 'SUCCEEDED');
    const again = t.open(card, { client: counting.client, restore: snapshot }).session;
    expect(await again.refund({ refundId: 'kept-1', amount: 1_000 })).toEqual(first);
    expect(counting.calls).toBe(0);
    expect(again.phase).toBe('succeeded');
  });
});
