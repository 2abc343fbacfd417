import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type RawData, WebSocket } from 'ws';
import { type Context, context } from '@opentelemetry/api';
import { upgradeTrace } from '../../src/telemetry/rpc-span.js';
import type { Dispatcher, FrameOutcome } from './dispatch.js';
import { internalError } from './errors.js';
import { NewPaymentHold } from './new-payment-hold.js';
import { type Delivery, OrderedDelivery, PromptDelivery } from './ordered.js';
import type { SendBudget } from './send-budget.js';
import { TurnCork } from './turn-cork.js';
import { CLOSE_FRAMES, type ConnectionLimits, MAX_FRAMES_IN_FLIGHT } from './connection-limits.js';

/**
 * One till's WebSocket: answers its frames, counts its invalid ones, watches
 * its send buffer, answers the heartbeat, and closes it when told to. Every
 * path that could throw is contained here, so no frame can crash the process.
 */
export class BridgeConnection {
  readonly tillId: string;
  /** Resolves once the socket is closed, whoever closed it. */
  readonly closed: Promise<void>;
  readonly #ws: WebSocket;
  readonly #dispatcher: Dispatcher;
  readonly #limits: ConnectionLimits;
  readonly #budget: SendBudget | undefined;
  readonly #log: Logger;
  /** Frames are worked on at once (store round trips overlap), answered as each is ready or in arrival order. */
  readonly #answers: Delivery<FrameOutcome>;
  readonly #newPayments: NewPaymentHold;
  readonly #onPayStart: () => void;
  readonly #cork: TurnCork;
  /** The trace context the upgrade request carried (only while tracing). */
  readonly #trace: Context | undefined;
  /** `open` answers frames; anything else ignores new ones (their answers would race the close frame). */
  #state: 'open' | 'draining' | 'closing' | 'closed' = 'open';
  #alive = true;
  #badFrames = 0;
  #terminateTimer: NodeJS.Timeout | undefined;
  /** The client's address (the trusted-proxy rule's), for the audit log of its payment calls. */
  readonly #address: string | undefined;

  /**
   * @param socket the upgraded TCP socket under `ws`: this turn's answers are held on it and sent together.
   * @param budget the bridge's budget for unsent answers over all clients.
   * @param ordered answer frames in the order they arrived (the till's `orderedAnswers`), not each as it is ready.
   * @param address the client's address under the trusted-proxy rule, recorded with its payment calls' audit rows.
   */
  constructor(
    ws: WebSocket,
    socket: Duplex,
    tillId: string,
    dispatcher: Dispatcher,
    limits: ConnectionLimits,
    log: Logger,
    budget?: SendBudget,
    ordered = false,
    address?: string,
  ) {
    this.#address = address;
    this.#ws = ws;
    this.#budget = budget;
    this.tillId = tillId;
    this.#dispatcher = dispatcher;
    this.#limits = limits;
    this.#log = log;
    // Calls are counted per turn: publish the counts before the answers reporting those calls leave.
    this.#cork = new TurnCork(socket);
    this.#trace = upgradeTrace(socket);
    const Answers = ordered ? OrderedDelivery : PromptDelivery;
    this.#answers = new Answers<FrameOutcome>(
      (outcome) => this.#deliver(outcome),
      (error) => this.#internalError(error),
      () => {
        if (this.#ws.isPaused && this.#answers.pending < MAX_FRAMES_IN_FLIGHT / 2) this.#ws.resume();
      },
    );
    this.#newPayments = new NewPaymentHold((text) => this.#notify(text));
    this.#onPayStart = () => this.#newPayments.started();
    this.closed = new Promise((resolve) => {
      ws.on('close', (code: number, reason: Buffer) => {
        this.#state = 'closed';
        clearTimeout(this.#terminateTimer);
        this.#log.info({ code, reason: reason.toString() }, 'till disconnected');
        resolve();
      });
    });
    // Without an 'error' listener ws would rethrow (oversized frame, invalid UTF-8, reset): ws closes the socket
    // itself.
    ws.on('error', (error: Error & { code?: string }) =>
      this.#log.warn({ code: error.code, message: error.message }, 'bridge socket error'),
    );
    ws.on('pong', () => {
      this.#alive = true;
    });
    ws.on('message', (data: RawData, isBinary: boolean) => this.#onFrame(data, isBinary));
  }

  /** Answers written and not yet handed to the kernel (`WebSocket#bufferedAmount`). */
  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }

  /** Frames received and not yet answered. */
  get inFlight(): number {
    return this.#answers.pending;
  }

  /**
   * One heartbeat tick: a peer that did not answer the previous ping is dead
   * (a till that lost power leaves a half-open TCP connection nobody notices),
   * so it is terminated; otherwise it is pinged again.
   */
  heartbeat(): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return;
    if (!this.#alive) {
      this.#log.warn('no pong since the last ping: terminating');
      this.#ws.terminate();
      return;
    }
    this.#alive = false;
    this.#ws.ping();
  }

  /**
   * Stops answering new frames, lets the frames in flight be answered, then
   * closes with 1001; a peer that has not completed the close handshake by
   * `graceMs` from now is terminated.
   */
  async shutdown(graceMs = this.#limits.closeGraceMs): Promise<void> {
    const deadline = Date.now() + graceMs;
    if (this.#state === 'open') this.#state = 'draining';
    await within(this.#answers.idle(), graceMs);
    this.#close(CLOSE_FRAMES.shutdown, Math.max(0, deadline - Date.now()));
    await this.closed;
  }

  /**
   * Sends a notification (`pay.sessionUpdated` of the payment `paymentId`) unless the connection is closing; one
   * about a payment a `pay.start` of this connection is creating waits for that call's answer.
   */
  notify(text: string, paymentId?: string): void {
    if (paymentId === undefined) this.#notify(text);
    else this.#newPayments.notify(text, paymentId);
  }

  #notify(text: string): void {
    if (this.#state !== 'open' && this.#state !== 'draining') return;
    try {
      this.#send(text);
    } catch (error) {
      this.#log.error({ err: error }, 'bridge notification failed unexpectedly');
    }
  }

  #handle(data: RawData, isBinary: boolean): FrameOutcome | PromiseLike<FrameOutcome> {
    return this.#dispatcher.handleFrame(
      toBuffer(data),
      isBinary,
      this.#log,
      this.tillId,
      this.#onPayStart,
      this.#address,
    );
  }

  #onFrame(data: RawData, isBinary: boolean): void {
    if (this.#state !== 'open') return;
    // A till that does not read its answers gets no more work done for it.
    const over = this.#overLimit();
    if (over !== undefined) {
      this.#slowConsumer(over);
      return;
    }
    let outcome: FrameOutcome | PromiseLike<FrameOutcome>;
    try {
      // The calls of a connection whose upgrade carried a traceparent join that trace (rpc-span.ts).
      outcome =
        this.#trace === undefined
          ? this.#handle(data, isBinary)
          : context.with(this.#trace, () => this.#handle(data, isBinary));
    } catch (error) {
      outcome = this.#internalError(error);
    }
    // Answered here and now when synchronous (and, for an ordered till, nothing is ahead of it); otherwise when
    // ready, or for an ordered till in arrival order (a legacy till that reads answers one by one expects that).
    this.#answers.push(outcome);
    if (this.#answers.pending >= MAX_FRAMES_IN_FLIGHT && !this.#ws.isPaused) this.#ws.pause();
  }

  /** The answer to a bug in the dispatcher: like any other unexpected error, with no id we could trust. */
  #internalError(error: unknown): FrameOutcome {
    const requestId = randomUUID();
    this.#log.error({ err: error, reqId: requestId }, 'bridge frame failed unexpectedly');
    return {
      reply: JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { ...internalError(), data: { code: 'INTERNAL', requestId } },
      }),
      bad: false,
    };
  }

  /**
   * Sends a frame's answer and counts it if it was invalid; never throws (it runs inside ws's and promise callbacks).
   */
  #deliver(outcome: FrameOutcome): void {
    try {
      if (outcome.reply !== undefined) this.#send(outcome.reply);
      if (outcome.payStarts !== undefined) this.#newPayments.answered(outcome.payStarts, outcome.paymentIds);
      if (outcome.bad && ++this.#badFrames >= this.#limits.maxBadFrames && this.#state === 'open') {
        this.#log.warn({ badFrames: this.#badFrames }, 'too many invalid frames: closing');
        this.#close(CLOSE_FRAMES.badFrames, this.#limits.closeGraceMs);
      }
    } catch (error) {
      this.#log.error({ err: error }, 'bridge answer failed unexpectedly');
    }
  }

  #send(text: string): void {
    // Answers finished after a close began are dropped: the till sees the close and retries elsewhere.
    if (this.#ws.readyState !== WebSocket.OPEN || this.#state === 'closing') return;
    if (!this.#cork.held) {
      const over = this.#overLimit();
      if (over !== undefined) {
        this.#slowConsumer(over);
        return;
      }
      this.#cork.hold();
    }
    // No callback: a failed write errors the socket, and ws closes it (the till retries elsewhere).
    this.#ws.send(text);
  }

  /**
   * The close frame for a client whose unread answers are too many: more than
   * `maxBufferedBytes` of its own, or lagging while the bridge's total is over
   * its budget. While this turn's writes are held they sit in the send buffer
   * too; they are not the till's backlog (they were never offered to it), and
   * nothing left the buffer since the hold began, so the check made when it
   * began still stands.
   */
  #overLimit(): { code: number; reason: string } | undefined {
    if (this.#cork.held) return undefined;
    const unsent = this.#ws.bufferedAmount;
    if (unsent > this.#limits.maxBufferedBytes) return CLOSE_FRAMES.slowConsumer;
    if (this.#budget?.exceededBy(unsent)) return CLOSE_FRAMES.overBudget;
    return undefined;
  }

  #slowConsumer(frame: { code: number; reason: string }): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#log.warn({ bufferedAmount: this.#ws.bufferedAmount, code: frame.code }, 'slow consumer: closing');
    this.#close(frame, this.#limits.closeGraceMs);
  }

  /**
   * Starts the close handshake. The close frame queues behind unsent answers,
   * so a peer that does not read would hold the socket (and its buffer) until
   * ws's own 30 s timeout: ours terminates it after `graceMs`.
   */
  #close({ code, reason }: { code: number; reason: string }, graceMs: number): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#state = 'closing';
    // A connection paused for back-pressure must read again to see the peer's close frame.
    if (this.#ws.isPaused) this.#ws.resume();
    this.#ws.close(code, reason);
    this.#terminateTimer = setTimeout(() => {
      this.#log.warn({ code }, 'close handshake not completed in time: terminating');
      this.#ws.terminate();
    }, graceMs);
    this.#terminateTimer.unref();
  }
}

/** A frame's payload as one Buffer, whatever `binaryType` produced. */
function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Waits for `promise`, but no longer than `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
