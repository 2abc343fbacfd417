import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/entries/index.js';
import { createLoyaltyClient, startLoyaltyProgram } from '../../../src/entries/loyalty.js';
import { luhnValid } from '../../../src/loyalty-program/card-number.js';

describe('startLoyaltyProgram', () => {
  it(
    'with PGlite in memory, calls onListening before it is ready; a card ' + 'issued then is a real one, kept',
    async () => {
      let resolved = false;
      let early: Promise<{ cardNumber: string }> | undefined;
      const starting = startLoyaltyProgram({
        port: 0,
        demo: true,
        onListening(url) {
          expect(resolved).toBe(false);
          // Held until the database is ready (or answered at once if it already is): either way the real answer.
          early = createLoyaltyClient({ baseUrl: url, ...demoConfig.loyalty }).issueAnonymousCard('start-1');
        },
      });
      const running = await starting;
      resolved = true;
      try {
        const card = await early!;
        expect(luhnValid(card.cardNumber)).toBe(true);
        expect(await running.store.card(card.cardNumber)).toMatchObject({ cardNumber: card.cardNumber });
        expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      } finally {
        await running.close();
      }
    },
  );

  it('refuses bad options before it listens', async () => {
    let listened = false;
    await expect(
      startLoyaltyProgram({
        port: 0,
        partnerKey: 'nothex',
        credentials: { login: 'w', password: 'short' },
        onListening() {
          listened = true;
        },
      }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(listened).toBe(false);
  });
});
