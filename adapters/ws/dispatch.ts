import type { Logger } from 'pino';
import type { CashDeskService } from '../../src/server/service.js';
import { errorForException } from './errors.js';
import {
  checkRequest, failure, JsonRpcErrorCode, type JsonRpcErrorObject, type JsonRpcResponse, success,
} from './jsonrpc.js';
import { isBridgeMethod, prepareCall } from './methods.js';

/** What a frame produced: the text to send back (none for notifications only) and whether the frame was invalid. */
export interface FrameOutcome {
  reply: string | undefined;
  /** Unparsable, binary, not a request, or a batch holding a non-request: counts towards `maxBadFrames`. */
  bad: boolean;
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
 */
export class Dispatcher {
  readonly #service: CashDeskService;
  readonly #maxBatch: number;

  constructor(service: CashDeskService, maxBatch: number) {
    this.#service = service;
    this.#maxBatch = maxBatch;
  }

  /** Answers one frame; `log` is the connection's (it carries the till id). */
  async handleFrame(data: Buffer, isBinary: boolean, log: Logger): Promise<FrameOutcome> {
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
      const { response, invalid } = await this.#call(parsed, log);
      return { reply: response === undefined ? undefined : JSON.stringify(response), bad: invalid };
    }
    if (parsed.length === 0) {
      return this.#frameError(JsonRpcErrorCode.InvalidRequest, 'Invalid Request', 'INVALID_REQUEST', ['batch: must not be empty']);
    }
    if (parsed.length > this.#maxBatch) {
      // Refused whole, before any call runs: a partial batch would leave the till guessing which calls happened.
      return this.#frameError(JsonRpcErrorCode.InvalidRequest, 'Invalid Request', 'BATCH_TOO_LARGE',
        [`batch: must hold at most ${this.#maxBatch} calls, got ${parsed.length}`]);
    }
    const outcomes = await Promise.all(parsed.map((element) => this.#call(element, log)));
    const responses = outcomes.flatMap((o) => (o.response === undefined ? [] : [o.response]));
    // A batch of notifications only gets nothing back, never an empty array (spec, section 6).
    return { reply: responses.length === 0 ? undefined : JSON.stringify(responses), bad: outcomes.some((o) => o.invalid) };
  }

  /** One request object, from a single frame or a batch. */
  async #call(value: unknown, log: Logger): Promise<CallOutcome> {
    const check = checkRequest(value);
    if (!check.ok) {
      this.#count('other', 'INVALID_REQUEST');
      return { invalid: true, response: failure(check.id, JsonRpcErrorCode.InvalidRequest, 'Invalid Request', { code: 'INVALID_REQUEST', errors: check.errors }) };
    }
    const { request, notification } = check;
    const id = request.id ?? null;
    // Notifications are run but never answered, errors included (spec, section 4.1).
    const answer = (response: JsonRpcResponse): CallOutcome => ({ invalid: false, response: notification ? undefined : response });
    if (!isBridgeMethod(request.method)) {
      this.#count('other', 'METHOD_NOT_FOUND');
      return answer(failure(id, JsonRpcErrorCode.MethodNotFound, 'Method not found', { code: 'METHOD_NOT_FOUND' }));
    }
    const method = request.method;
    const call = prepareCall(method, request.params);
    if (!call.ok) {
      this.#count(method, 'BAD_REQUEST');
      return answer(failure(id, JsonRpcErrorCode.InvalidParams, 'Invalid params', { code: 'BAD_REQUEST', errors: call.errors }));
    }
    try {
      const result = await call.run(this.#service);
      this.#count(method, 'ok');
      return answer(success(id, result));
    } catch (error) {
      const rpcError: JsonRpcErrorObject = errorForException(error, log, method);
      this.#count(method, rpcError.data.code);
      return answer({ jsonrpc: '2.0', id, error: rpcError });
    }
  }

  /** An error answering the whole frame (there is no request id to echo). */
  #frameError(code: number, message: string, dataCode: string, errors?: string[]): FrameOutcome {
    this.#count('other', dataCode);
    return { reply: JSON.stringify(failure(null, code, message, errors ? { code: dataCode, errors } : { code: dataCode })), bad: true };
  }

  /** `wpk_bridge_calls_total{method,outcome}`; unknown method names are folded into `other` to bound the label set. */
  #count(method: string, outcome: string): void {
    this.#service.metrics.bridgeCalls.inc({ method, outcome });
  }
}
