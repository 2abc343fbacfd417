import { describe, expect, it } from 'vitest';
import { type Beating, Heartbeat, type HeartbeatTimer, MAX_SLICES } from '../../../adapters/ws/heartbeat.js';

/** A timer the test fires slice by slice; records the period it was asked for. */
function manualTimer(): HeartbeatTimer & { fire(): void; periodMs: number; stopped: boolean } {
  let tick: (() => void) | undefined;
  const timer = {
    periodMs: 0,
    stopped: false,
    every(ms: number, fn: () => void) {
      timer.periodMs = ms;
      tick = fn;
      return () => {
        timer.stopped = true;
      };
    },
    fire() {
      tick!();
    },
  };
  return timer;
}

/** A peer that counts its ticks into `log` (by slice) and may throw. */
class Peer implements Beating {
  beats = 0;
  constructor(
    readonly log: { slice: number; visits: number[] },
    readonly throws = false,
  ) {}
  heartbeat(): void {
    this.beats++;
    this.log.visits[this.log.slice] = (this.log.visits[this.log.slice] ?? 0) + 1;
    if (this.throws) throw new Error('broken socket');
  }
}

function setup(count: number, intervalMs = 30_000) {
  const log = { slice: 0, visits: [] as number[] };
  const peers = new Set<Peer>(Array.from({ length: count }, () => new Peer(log)));
  const timer = manualTimer();
  const errors: unknown[] = [];
  const heartbeat = new Heartbeat(
    intervalMs,
    () => peers,
    (error) => errors.push(error),
    timer,
  );
  /** Fires one slice, recording the visits it made under its number. */
  const fire = () => {
    timer.fire();
    log.slice++;
  };
  const round = () => {
    for (let i = 0; i < heartbeat.slices; i++) fire();
  };
  return { log, peers, timer, errors, heartbeat, fire, round };
}

describe('Heartbeat', () => {
  it('spreads 10,000 peers over the slices of an interval, each visited once per round', () => {
    const { log, peers, timer, heartbeat, round } = setup(10_000);
    expect(heartbeat.slices).toBe(MAX_SLICES);
    expect(timer.periodMs).toBe(30_000 / MAX_SLICES);
    round();
    expect(log.visits).toHaveLength(MAX_SLICES);
    // No slice takes more than its share: the whole set at once is what stalled the event loop.
    expect(Math.max(...log.visits)).toBeLessThanOrEqual(Math.ceil(10_000 / MAX_SLICES));
    expect([...peers].every((p) => p.beats === 1)).toBe(true);
    round();
    expect([...peers].every((p) => p.beats === 2)).toBe(true);
  });

  it('visits a small set once per round, not once per slice, when there are fewer peers than slices', () => {
    const { peers, round, fire } = setup(3);
    fire();
    fire();
    fire();
    fire();
    expect([...peers].map((p) => p.beats)).toEqual([1, 1, 1]);
    round(); // the rest of the first round and the first slices of the second
    expect([...peers].map((p) => p.beats)).toEqual([2, 2, 2]);
  });

  it('visits peers that join during a round and skips peers that left', () => {
    const { log, peers, fire, heartbeat } = setup(100);
    for (let i = 0; i < 10; i++) fire();
    const gone = [...peers].slice(90);
    for (const peer of gone) peers.delete(peer);
    const joined = Array.from({ length: 50 }, () => new Peer(log));
    for (const peer of joined) peers.add(peer);
    for (let i = 10; i < heartbeat.slices; i++) fire();
    expect(gone.every((p) => p.beats === 0)).toBe(true);
    expect(joined.every((p) => p.beats === 1)).toBe(true);
    expect([...peers].every((p) => p.beats === 1)).toBe(true);
  });

  it('goes on to the next peers when one throws, and reports the error', () => {
    const { log, peers, errors, round } = setup(0);
    const broken = new Peer(log, true);
    const healthy = new Peer(log);
    peers.add(broken).add(healthy);
    round();
    expect(errors).toHaveLength(1);
    expect(healthy.beats).toBe(1);
  });

  it('uses fewer slices, at least 10 ms apart, when the interval is short', () => {
    const { heartbeat, timer } = setup(1, 100);
    expect(heartbeat.slices).toBe(10);
    expect(timer.periodMs).toBe(10);
    expect(setup(1, 10).heartbeat.slices).toBe(1);
  });

  it('stops its timer when stopped', () => {
    const { heartbeat, timer } = setup(1);
    heartbeat.stop();
    expect(timer.stopped).toBe(true);
  });
});
