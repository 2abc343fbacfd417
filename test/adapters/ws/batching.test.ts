import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TurnCork } from '../../../adapters/ws/turn-cork.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A Writable recording each underlying write (one entry per syscall a socket would make). */
function recordingStream(): { stream: Writable; writes: string[][] } {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      writes.push(chunks.map((c) => String(c.chunk)));
      callback();
    },
  });
  return { stream, writes };
}

describe('TurnCork', () => {
  it('holds the writes of a turn and releases them in one write, after beforeRelease', async () => {
    const { stream, writes } = recordingStream();
    const order: string[] = [];
    const cork = new TurnCork(stream, () => order.push(`release after ${writes.length} writes`));
    cork.hold();
    expect(cork.held).toBe(true);
    for (const text of ['a', 'b', 'c']) stream.write(text);
    cork.hold(); // idempotent within the turn
    expect(writes).toEqual([]);
    await nextTurn();
    expect(order).toEqual(['release after 0 writes']);
    expect(writes).toEqual([['a', 'b', 'c']]);
    expect(cork.held).toBe(false);
  });

  it('leaves nested corks (as ws makes around each frame) to count down inside the hold', async () => {
    const { stream, writes } = recordingStream();
    const cork = new TurnCork(stream);
    cork.hold();
    for (const frame of ['1', '2']) {
      stream.cork();
      stream.write(`header${frame}`);
      stream.write(`payload${frame}`);
      stream.uncork();
    }
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual([['header1', 'payload1', 'header2', 'payload2']]);
    stream.write('later');
    expect(writes).toHaveLength(2);
  });

  it('releases harmlessly when the stream was destroyed in the meantime', async () => {
    const { stream } = recordingStream();
    const cork = new TurnCork(stream);
    cork.hold();
    stream.write('lost');
    stream.destroy();
    await nextTurn();
    expect(cork.held).toBe(false);
  });
});
