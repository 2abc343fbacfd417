import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/feed/feed.js';

describe('Feed', () => {
  it('tells every listener, even when one throws, until it unsubscribes', () => {
    const feed = new Feed<number>();
    const heard: number[] = [];
    feed.subscribe({
      next: () => {
        throw new Error('broken');
      },
    });
    const off = feed.subscribe({ next: (n) => heard.push(n) });
    feed.publish(1);
    off();
    feed.publish(2);
    expect(heard).toEqual([1]);
    expect(feed.size).toBe(1);
  });

  it('ends every listener on close, and one added later at once', () => {
    const feed = new Feed<string>();
    let ended = 0;
    feed.subscribe({ next: () => {}, closed: () => ended++ });
    feed.close();
    feed.close();
    feed.subscribe({ next: () => {}, closed: () => ended++ });
    expect(ended).toBe(2);
    expect(feed.closed).toBe(true);
    expect(feed.size).toBe(0);
  });
});
