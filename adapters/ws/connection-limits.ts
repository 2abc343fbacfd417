// The limits a bridge connection keeps, and the close frames it sends when one is broken or the bridge stops.
/** Close codes and reasons the bridge sends (RFC 6455 section 7.4.1). */
export const CLOSE_FRAMES = {
  /** Policy violation: too many invalid frames. */
  badFrames: { code: 1008, reason: 'too many invalid frames' },
  /** Policy violation: answers pile up unread. */
  slowConsumer: { code: 1008, reason: 'slow consumer' },
  /** Try again later: this client lags while all clients' unsent answers are over `maxBufferedBytesTotal`. */
  overBudget: { code: 1013, reason: 'server send budget exhausted' },
  /** Going away: `Bridge#close()`. */
  shutdown: { code: 1001, reason: 'server shutting down' },
} as const;

/**
 * Frames waiting for a slower frame ahead of them (or being worked on) before
 * the connection stops reading more (TCP back-pressure on the till). With the
 * in-memory store every frame is answered within the turn it arrives in, so
 * nothing waits; with Redis a flooding till would otherwise queue unbounded
 * store round trips.
 */
export const MAX_FRAMES_IN_FLIGHT = 64;

/** What a connection needs to know from the bridge's options. */
export interface ConnectionLimits {
  maxBufferedBytes: number;
  maxBadFrames: number;
  closeGraceMs: number;
}
