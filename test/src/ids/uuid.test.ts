import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../../src/ids/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  it('gives version 4 UUIDs in the form crypto.randomUUID gives, across several batches', () => {
    const ids = Array.from({ length: 1000 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit in every free position when drawn often enough', () => {
    // A formatting slip (a nibble dropped, a digit table off by one) shows as a position that never varies.
    const seen = Array.from({ length: 36 }, () => new Set<string>());
    for (let n = 0; n < 4096; n++)
      [...randomUuid()].forEach((c, i) => {
        seen[i]!.add(c);
      });
    const sizes = seen.map((s) => s.size);
    for (const dash of [8, 13, 18, 23]) expect(sizes[dash]).toBe(1);
    expect(sizes[14]).toBe(1); // the version digit
    expect(sizes[19]).toBe(4); // the variant digit: 8, 9, a or b
    for (let i = 0; i < 36; i++) if (![8, 13, 14, 18, 19, 23].includes(i)) expect(sizes[i], `position ${i}`).toBe(16);
  });
});
