import { withAuditCaller } from '../../src/cashdesk/back-office/audit-context.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BarcodeVerification } from '../../src/contracts/barcode.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import { SeriesCounter } from '../../src/cashdesk/metrics.js';
import { withRequestId } from '../../src/log/request-id.js';
import type { DatabaseNotice } from './database-notice.js';
import { errorForException } from './errors.js';
import { type JsonRpcErrorObject, type JsonRpcId, success } from './jsonrpc.js';
import { type BridgeErrorCode, bridgeFailure } from './protocol-errors.js';
import { batchIdTexts, requestIdText } from './raw-ids.js';
import { type BridgeMethodName, runMethod } from './methods.js';
import { hasNumberId, isPrepared, type Prepared, prepareCall } from './prepare-call.js';
import { isThenable, type MaybePromise } from './ordered.js';
import {
  answer,
  batchOutcome,
  type CallOutcome,
  errorCodeOf,
  type FrameOutcome,
  singleOutcome,
} from './frame-outcome.js';
import { traceCall } from '../../src/telemetry/rpc-span.js';
import { tracingActive } from '../../src/telemetry/tracing.js';

export type { FrameOutcome } from './frame-outcome.js';

/**
 * Turns one WebSocket frame into its JSON-RPC answer: parses it, splits a
 * batch, checks each request, validates params, runs the method, and maps
 * every failure to an error object. It never throws for anything a till can
 * send; the connection still guards against bugs here.
 *
 * Everything is synchronous until a method returns a promise, and only then
 * is the frame's outcome a promise. `barcode.verify` goes through
 * `service.verifySync`, a plain result with the in-memory store: the promise
 * per call that `service.verify` makes, its callbacks and the in-order queue
 * cost about 1 µs of the 13-14 µs of server time a call took under load.
 * With Redis behind the verifier the result is a promise, and waited on.
 */
export class Dispatcher {
  readonly #service: CashDeskService;
  readonly #maxBatch: number;
  readonly #calls: SeriesCounter;
  readonly #database: DatabaseNotice | undefined;
  /** A span per call (an OpenTelemetry SDK was registered when the dispatcher was made); none on any path otherwise. */
  readonly #tracing = tracingActive();
  /** The current frame's `onPayStart`: calls run synchronously inside `handleFrame`, so one slot serves. */
  #onPayStart: (() => void) | undefined;
  /** The current frame's client address (the trusted-proxy rule's), for the audit log: one slot, as above. */
  #address: string | undefined;
  /** `#count` as a function made once: the checks before a call runs take it. */
  readonly #countCall = (method: string, outcome: string): void => this.#count(method, outcome);

  /** `database`: where refusals for the database's sake, and the first answer after them, are told once per change. */
  constructor(service: CashDeskService, maxBatch: number, database?: DatabaseNotice) {
    this.#service = service;
    this.#maxBatch = maxBatch;
    this.#database = database;
    this.#calls = new SeriesCounter(() => service.metrics.bridgeCalls, ['method', 'outcome']);
  }

  /**
   * Answers one frame of the till `tillId`; `log` is the connection's (it carries the till id). `onPayStart` is
   * called, before this returns, once for each `pay.start` the frame runs: its payment's notifications can be
   * held from then until the outcome (which counts them in `payStarts`) is sent.
   */
  handleFrame(
    data: Buffer,
    isBinary: boolean,
    log: Logger,
    tillId: string,
    onPayStart?: () => void,
    address?: string,
  ): FrameOutcome | PromiseLike<FrameOutcome> {
    if (isBinary) {
      return this.#frameError('BINARY_FRAME', ['frame: must be a text frame holding JSON, not a binary frame']);
    }
    let parsed: unknown;
    const text = data.toString('utf8');
    try {
      parsed = JSON.parse(text);
    } catch {
      // The spec's answer to unparsable text: -32700 with a null id (no id could be read).
      return this.#frameError('PARSE_ERROR');
    }
    this.#onPayStart = onPayStart;
    this.#address = address;
    if (!Array.isArray(parsed)) {
      const outcome = this.#call(parsed, hasNumberId(parsed) ? requestIdText(text) : undefined, log, tillId);
      return isThenable(outcome) ? outcome.then(singleOutcome) : singleOutcome(outcome);
    }
    if (parsed.length === 0) {
      return this.#frameError('INVALID_REQUEST', ['batch: must not be empty']);
    }
    if (parsed.length > this.#maxBatch) {
      // Refused whole, before any call runs: a partial batch would leave the till guessing which calls happened.
      return this.#frameError('BATCH_TOO_LARGE', [
        `batch: must hold at most ${this.#maxBatch} calls, got ${parsed.length}`,
      ]);
    }
    // Every call starts before any is waited on, so store round trips overlap.
    const rawIds = parsed.some(hasNumberId) ? batchIdTexts(text) : undefined;
    const prepared = parsed.map((element, i) => prepareCall(element, rawIds?.[i], this.#tracing, this.#countCall));
    const outcomes = new Array<MaybePromise<CallOutcome>>(prepared.length);
    let waiting = false;
    // Indices of the checked barcode.verify calls not yet run: they go to the verifier as one batch.
    let verifies: number[] = [];
    const runVerifies = (): void => {
      if (verifies.length === 0) return;
      if (
        this.#runVerifies(
          verifies.map((i) => prepared[i] as Prepared),
          log,
          tillId,
          verifies,
          outcomes,
        )
      )
        waiting = true;
      verifies = [];
    };
    for (let i = 0; i < prepared.length; i++) {
      const entry = prepared[i]!;
      if (!isPrepared(entry)) {
        outcomes[i] = entry; // refused without running anything: nothing it does can come between two calls' effects
        continue;
      }
      if (entry.method === 'barcode.verify') {
        verifies.push(i);
        continue;
      }
      // Any other call (a payment may claim a barcode) runs after the verifications sent before it, as one by one.
      runVerifies();
      const outcome = this.#run(entry, log, tillId);
      if (isThenable(outcome)) waiting = true;
      outcomes[i] = outcome;
    }
    runVerifies();
    return waiting ? Promise.all(outcomes).then(batchOutcome) : batchOutcome(outcomes as CallOutcome[]);
  }

  /** One request object, from a single frame. */
  #call(value: unknown, rawId: string | undefined, log: Logger, tillId: string): MaybePromise<CallOutcome> {
    const entry = prepareCall(value, rawId, this.#tracing, this.#countCall);
    return isPrepared(entry) ? this.#run(entry, log, tillId) : entry;
  }

  /** Runs one checked call (as a span of its own when tracing). */
  #run(call: Prepared, log: Logger, tillId: string): MaybePromise<CallOutcome> {
    if (call.parent === undefined) return this.#execute(call, log, tillId);
    return traceCall(call.method, call.parent, () => this.#execute(call, log, tillId), errorCodeOf);
  }

  /** Runs a payment call with the frame's client address as the audit log's. */
  #audited<T>(run: () => T): T {
    return withAuditCaller({ address: this.#address ?? null }, run);
  }

  #execute({ method, id, notification, params }: Prepared, log: Logger, tillId: string): MaybePromise<CallOutcome> {
    // A payment call's id is current while it runs, so its Pay API requests carry it (and its error, if any);
    // barcode.verify, the hot path, makes one only when it fails.
    const rid = method.startsWith('pay.') ? randomUUID() : undefined;
    if (method === 'pay.start') this.#onPayStart?.();
    let result: unknown;
    try {
      result =
        rid === undefined
          ? runMethod(method, this.#service, params, tillId)
          : withRequestId(rid, () => this.#audited(() => runMethod(method, this.#service, params, tillId)));
    } catch (error) {
      return this.#failed(method, id, notification, error, log, rid);
    }
    if (!isThenable(result)) return this.#succeeded(method, id, notification, result);
    // Adopted by a native promise, so a foreign thenable's `then` (whatever it returns or throws) cannot break the
    // chain.
    return Promise.resolve(result).then(
      (settled) => this.#succeeded(method, id, notification, settled),
      (error: unknown) => this.#failed(method, id, notification, error, log, rid),
    );
  }

  /**
   * Runs checked barcode.verify calls of one batch frame, in order, through one
   * `verifyBatchSync` (the verifier's batch API), putting each call's outcome
   * at its index in `outcomes`; true when those outcomes are promises. A lone
   * call goes through `verifySync`, as a frame of its own would.
   */
  #runVerifies(
    calls: Prepared[],
    log: Logger,
    tillId: string,
    indices: number[],
    outcomes: Array<MaybePromise<CallOutcome>>,
  ): boolean {
    if (calls.length === 1 || this.#tracing) {
      // When tracing, each call alone: a span per call, each as long as its own verification.
      let waiting = false;
      for (let k = 0; k < calls.length; k++) {
        outcomes[indices[k]!] = this.#run(calls[k]!, log, tillId);
        waiting = isThenable(outcomes[indices[k]!]) || waiting;
      }
      return waiting;
    }
    const all = this.#verifyAll(calls, log, tillId);
    if (!isThenable(all)) {
      for (let k = 0; k < indices.length; k++) outcomes[indices[k]!] = all[k]!;
      return false;
    }
    for (let k = 0; k < indices.length; k++) outcomes[indices[k]!] = all.then((settled) => settled[k]!);
    return true;
  }

  /**
   * The outcomes of verify calls run as one batch. A failure of the whole batch
   * (the shared store down, the verifier closed) answers each of its calls with
   * that error, as each would have got it alone.
   */
  #verifyAll(calls: Prepared[], log: Logger, tillId: string): MaybePromise<CallOutcome[]> {
    const failedAll = (error: unknown) =>
      calls.map(({ method, id, notification }) => this.#failed(method, id, notification, error, log));
    let results: BarcodeVerification[] | PromiseLike<BarcodeVerification[]>;
    try {
      results = this.#service.verifyBatchSync(
        calls.map(({ params }) => (params as { fullBarcode: string }).fullBarcode),
        tillId,
      );
    } catch (error) {
      return failedAll(error);
    }
    const succeededAll = (settled: BarcodeVerification[]) =>
      calls.map(({ method, id, notification }, k) => this.#succeeded(method, id, notification, settled[k]));
    if (!isThenable(results)) return succeededAll(results);
    return Promise.resolve(results).then(succeededAll, failedAll);
  }

  #succeeded(method: BridgeMethodName, id: JsonRpcId, notification: boolean, result: unknown): CallOutcome {
    this.#count(method, 'ok');
    // Only payment calls reach the database: a verification answered says nothing of it.
    if (this.#database !== undefined && method.startsWith('pay.')) this.#database.answered();
    const outcome = answer(notification, success(id, result));
    if (method === 'pay.start') outcome.payStart = { paymentId: (result as { paymentId?: string } | null)?.paymentId };
    return outcome;
  }

  #failed(
    method: BridgeMethodName,
    id: JsonRpcId,
    notification: boolean,
    error: unknown,
    log: Logger,
    rid = randomUUID(),
  ): CallOutcome {
    const rpcError: JsonRpcErrorObject = errorForException(error, log, method, rid);
    if (rpcError.data.code === 'DATABASE_UNAVAILABLE') this.#database?.refused();
    this.#count(method, rpcError.data.code);
    const outcome = answer(notification, { jsonrpc: '2.0', id, error: rpcError });
    if (method === 'pay.start') outcome.payStart = { paymentId: undefined };
    return outcome;
  }

  /** An error answering the whole frame (there is no request id to echo). */
  #frameError(code: BridgeErrorCode, errors?: string[]): FrameOutcome {
    this.#count('other', code);
    return { reply: JSON.stringify(bridgeFailure(null, code, errors)), bad: true };
  }

  /** `wpk_bridge_calls_total{method,outcome}`; unknown method names are folded into `other` to bound the label set. */
  #count(method: string, outcome: string): void {
    this.#calls.count(method, outcome);
  }
}
