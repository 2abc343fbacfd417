import { describe, expect, it } from 'vitest';
import { acceptedRequestId, currentRequestId, requestIdFrom, withRequestId } from '../../../src/log/request-id.js';

describe('requestIdFrom', () => {
  it('keeps a sane id and makes a UUID up for a missing, long or hostile one', () => {
    for (const sane of [
      'till-7-000123',
      '01HZX3J9Q8K4V6T2M5N7P0R1S2',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      'a.b_c~d:e@f/g+h=i',
    ]) {
      expect(requestIdFrom(sane)).toBe(sane);
    }
    for (const bad of [undefined, '', 'x'.repeat(129), 'a b', 'a"b', 'a\nb', '<script>', 'é', ['a', 'b']]) {
      expect(acceptedRequestId(bad)).toBeUndefined();
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(requestIdFrom('x'.repeat(128))).toBe('x'.repeat(128));
  });
});

describe('withRequestId', () => {
  it(
    'makes the id current for everything the call starts, awaits and ' + 'timers included, and for nothing else',
    async () => {
      expect(currentRequestId()).toBeUndefined();
      const seen = await withRequestId('r-1', async () => {
        await Promise.resolve();
        const later = await new Promise<string | undefined>((resolve) =>
          setImmediate(() => resolve(currentRequestId())),
        );
        const inner = withRequestId('r-2', () => currentRequestId());
        return [currentRequestId(), later, inner];
      });
      expect(seen).toEqual(['r-1', 'r-1', 'r-2']);
      expect(currentRequestId()).toBeUndefined();
    },
  );
});
