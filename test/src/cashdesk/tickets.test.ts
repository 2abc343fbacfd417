import { describe, expect, it } from 'vitest';
import { TicketStore } from '../../../src/cashdesk/tickets.js';

function storeAt(start = 1_000_000) {
  const clock = { now: start };
  const store = new TicketStore({ lifetimeMs: 30_000, maxPerTill: 3, now: () => clock.now });
  return { clock, store };
}

describe('TicketStore', () => {
  it('redeems a ticket for the till it was issued to', () => {
    const { store } = storeAt();
    const a = store.issue({ id: 'a' });
    const b = store.issue({ id: 'b' });
    expect(store.redeem(b.ticket)).toEqual({ id: 'b' });
    expect(store.redeem(a.ticket)).toEqual({ id: 'a' });
  });

  it('answers the expiry 30 s after issue on the injected clock', () => {
    const { store } = storeAt(5_000);
    expect(store.issue({ id: 'a' }).expiresAt).toBe(35_000);
  });

  it('refuses a ticket the second time', () => {
    const { store } = storeAt();
    const { ticket } = store.issue({ id: 'a' });
    expect(store.redeem(ticket)).toEqual({ id: 'a' });
    expect(store.redeem(ticket)).toBeUndefined();
  });

  it('accepts a ticket until just before its expiry', () => {
    const { clock, store } = storeAt();
    const { ticket } = store.issue({ id: 'a' });
    clock.now += 29_999;
    expect(store.redeem(ticket)).toEqual({ id: 'a' });
  });

  it('refuses a ticket once its lifetime is over, and forgets it', () => {
    const { clock, store } = storeAt();
    const { ticket } = store.issue({ id: 'a' });
    clock.now += 30_000;
    expect(store.redeem(ticket)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('refuses tickets it never issued, empty and oversized ones', () => {
    const { store } = storeAt();
    const { ticket } = store.issue({ id: 'a' });
    expect(store.redeem(`${ticket}x`)).toBeUndefined();
    expect(store.redeem('')).toBeUndefined();
    expect(store.redeem(undefined)).toBeUndefined();
    expect(store.redeem('x'.repeat(10_000))).toBeUndefined();
    expect(store.redeem(ticket)).toEqual({ id: 'a' });
  });

  it('issues a different random ticket each time', () => {
    const { store } = storeAt();
    const tickets = new Set(Array.from({ length: 3 }, () => store.issue({ id: 'a' }).ticket));
    expect(tickets.size).toBe(3);
    for (const ticket of tickets) expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("drops a till's oldest unused ticket beyond maxPerTill, leaving other tills' alone", () => {
    const { store } = storeAt();
    const other = store.issue({ id: 'b' });
    const [oldest, ...rest] = Array.from({ length: 4 }, () => store.issue({ id: 'a' }).ticket);
    expect(store.size).toBe(4);
    expect(store.redeem(oldest)).toBeUndefined();
    for (const ticket of rest) expect(store.redeem(ticket)).toEqual({ id: 'a' });
    expect(store.redeem(other.ticket)).toEqual({ id: 'b' });
  });
});
