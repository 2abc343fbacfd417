import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BarcodeVerification } from '../../src/contracts/barcode.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import { SeriesCounter } from '../../src/cashdesk/metrics.js';
import { withRequestId } from '../../src/log/request-id.js';
import type { DatabaseNotice } from './database-notice.js';
import { errorForException } from './errors.js';
import {
  checkRequest, failure, JsonRpcErrorCode, type JsonRpcErrorObject, type JsonRpcId, type JsonRpcResponse, responseText, success,
} from './jsonrpc.js';
import { type BridgeMethodName, checkParams, InvalidParams, isBridgeMethod, runMethod } from './methods.js';
import { isThenable, type MaybePromise } from './ordered.js';

/** What a frame produced: the text to send back (none for notifications only) and whether the frame was invalid. */
export interface FrameOutcome {
  reply: string | undefined;
  /** Unparsable, binary, not a request, or a batch holding a non-request: counts towards `maxBadFrames`. */
  bad: boolean;
}

/** A request that passed every check: ready to run. */
interface Prepared {
  prepared: true;
  method: BridgeMethodName;
  id: JsonRpcId;
  notification: boolean;
  params: unknown;
}

function isPrepared(entry: Prepared | CallOutcome): entry is Prepared {
  return (entry as Prepared).prepared === true;
}

/** One call's outcome inside a frame. */
interface CallOutcome {
  response: JsonRpcResponse | undefined;
  invalid: boolean;
}

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

  /** `database`: where refusals for the database's sake, and the first answer after them, are told once per change. */
  constructor(service: CashDeskService, maxBatch: number, database?: DatabaseNotice) {
    this.#service = service;
    this.#maxBatch = maxBatch;
    this.#database = database;
    this.#calls = new SeriesCounter(() => service.metrics.bridgeCalls, ['method', 'outcome']);
  }

  /** Answers one frame of the till `tillId`; `log` is the connection's (it carries the till id). */
  handleFrame(data: Buffer, isBinary: boolean, log: Logger, tillId: string): FrameOutcome | PromiseLike<FrameOutcome> {
    if (isBinary) {
      return this.#frameError(JsonRpcErrorCode.InvalidRequest, 'Invalid Request', 'BINARY_FRAME',
        ['frame: must be a text frame holding JSON, not a binary frame']);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      // The spec's answer to unparsable text: -32700 with a null id (no id could be read).
      return this.#frameError(JsonRpcErrorCode.ParseError, 'Parse error', 'PARSE_ERROR');
    }
    if (!Array.isArray(parsed)) {
      const outcome = this.#call(parsed, log, tillId);
      return isThenable(outcome) ? outcome.then(singleOutcome) : singleOutcome(outcome);
    }
    if (parsed.length === 0) {
      return this.#frameError(JsonRpcErrorCode.InvalidRequest, 'Invalid Request', 'INVALID_REQUEST', ['batch: must not be empty']);
    }
    if (parsed.length > this.#maxBatch) {
      // Refused whole, before any call runs: a partial batch would leave the till guessing which calls happened.
      return this.#frameError(JsonRpcErrorCode.InvalidRequest, 'Invalid Request', 'BATCH_TOO_LARGE',
        [`batch: must hold at most ${this.#maxBatch} calls, got ${parsed.length}`]);
    }
    // Every call starts before any is waited on, so store round trips overlap.
    const prepared = parsed.map((element) => this.#prepare(element));
    const outcomes = new Array<MaybePromise<CallOutcome>>(prepared.length);
    let waiting = false;
    // Indices of the checked barcode.verify calls not yet run: they go to the verifier as one batch.
    let verifies: number[] = [];
    const runVerifies = (): void => {
      if (verifies.length === 0) return;
      if (this.#runVerifies(verifies.map((i) => prepared[i] as Prepared), log, tillId, verifies, outcomes)) waiting = true;
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
  #call(value: unknown, log: Logger, tillId: string): MaybePromise<CallOutcome> {
    const entry = this.#prepare(value);
    return isPrepared(entry) ? this.#run(entry, log, tillId) : entry;
  }

  /** Checks a request and its params: the call to run, or the outcome of a call refused without running anything. */
  #prepare(value: unknown): Prepared | CallOutcome {
    const check = checkRequest(value);
    if (!check.ok) {
      this.#count('other', 'INVALID_REQUEST');
      return {
        invalid: true,
        response: failure(check.id, JsonRpcErrorCode.InvalidRequest, 'Invalid Request', { code: 'INVALID_REQUEST', errors: check.errors, requestId: randomUUID() }),
      };
    }
    const { request, notification } = check;
    const id = request.id ?? null;
    if (!isBridgeMethod(request.method)) {
      this.#count('other', 'METHOD_NOT_FOUND');
      return answer(notification, failure(id, JsonRpcErrorCode.MethodNotFound, 'Method not found', { code: 'METHOD_NOT_FOUND', requestId: randomUUID() }));
    }
    const method = request.method;
    const params = checkParams(method, request.params);
    if (params instanceof InvalidParams) {
      this.#count(method, 'BAD_REQUEST');
      return answer(notification, failure(id, JsonRpcErrorCode.InvalidParams, 'Invalid params', { code: 'BAD_REQUEST', errors: params.errors, requestId: randomUUID() }));
    }
    return { prepared: true, method, id, notification, params };
  }

  /** Runs one checked call. */
  #run({ method, id, notification, params }: Prepared, log: Logger, tillId: string): MaybePromise<CallOutcome> {
    // A payment call's id is current while it runs, so its Pay API requests carry it (and its error, if any);
    // barcode.verify, the hot path, makes one only when it fails.
    const rid = method.startsWith('pay.') ? randomUUID() : undefined;
    let result: unknown;
    try {
      result = rid === undefined ? runMethod(method, this.#service, params, tillId) : withRequestId(rid, () => runMethod(method, this.#service, params, tillId));
    } catch (error) {
      return this.#failed(method, id, notification, error, log, rid);
    }
    if (!isThenable(result)) return this.#succeeded(method, id, notification, result);
    // Adopted by a native promise, so a foreign thenable's `then` (whatever it returns or throws) cannot break the chain.
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
  #runVerifies(calls: Prepared[], log: Logger, tillId: string, indices: number[], outcomes: Array<MaybePromise<CallOutcome>>): boolean {
    if (calls.length === 1) {
      const outcome = this.#run(calls[0]!, log, tillId);
      outcomes[indices[0]!] = outcome;
      return isThenable(outcome);
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
    const failedAll = (error: unknown) => calls.map(({ method, id, notification }) => this.#failed(method, id, notification, error, log));
    let results: BarcodeVerification[] | PromiseLike<BarcodeVerification[]>;
    try {
      results = this.#service.verifyBatchSync(calls.map(({ params }) => (params as { fullBarcode: string }).fullBarcode), tillId);
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
    return answer(notification, success(id, result));
  }

  #failed(method: BridgeMethodName, id: JsonRpcId, notification: boolean, error: unknown, log: Logger, rid = randomUUID()): CallOutcome {
    const rpcError: JsonRpcErrorObject = errorForException(error, log, method, rid);
    if (rpcError.data.code === 'DATABASE_UNAVAILABLE') this.#database?.refused();
    this.#count(method, rpcError.data.code);
    return answer(notification, { jsonrpc: '2.0', id, error: rpcError });
  }

  /** An error answering the whole frame (there is no request id to echo). */
  #frameError(code: number, message: string, dataCode: string, errors?: string[]): FrameOutcome {
    this.#count('other', dataCode);
    const requestId = randomUUID();
    return { reply: JSON.stringify(failure(null, code, message, errors ? { code: dataCode, errors, requestId } : { code: dataCode, requestId })), bad: true };
  }

  /** `wpk_bridge_calls_total{method,outcome}`; unknown method names are folded into `other` to bound the label set. */
  #count(method: string, outcome: string): void {
    this.#calls.count(method, outcome);
  }
}

/** A valid call's outcome: notifications are run but never answered, errors included (spec, section 4.1). */
function answer(notification: boolean, response: JsonRpcResponse): CallOutcome {
  return { invalid: false, response: notification ? undefined : response };
}

/** The outcome of a frame holding one request. */
function singleOutcome({ response, invalid }: CallOutcome): FrameOutcome {
  return { reply: response === undefined ? undefined : responseText(response), bad: invalid };
}

/** The outcome of a batch frame, its answers in request order. */
function batchOutcome(outcomes: CallOutcome[]): FrameOutcome {
  const responses: JsonRpcResponse[] = [];
  let bad = false;
  for (const { response, invalid } of outcomes) {
    if (response !== undefined) responses.push(response);
    bad ||= invalid;
  }
  // A batch of notifications only gets nothing back, never an empty array (spec, section 6).
  return { reply: responses.length === 0 ? undefined : JSON.stringify(responses), bad };
}
