import { type JsonRpcResponse, responseText } from './jsonrpc.js';

/** What a frame produced: the text to send back (none for notifications only) and whether the frame was invalid. */
export interface FrameOutcome {
  reply: string | undefined;
  /** Unparsable, binary, not a request, or a batch holding a non-request: counts towards `maxBadFrames`. */
  bad: boolean;
  /** `pay.start` calls the frame ran (each told to `onPayStart` as it began), answered or refused with this outcome. */
  payStarts?: number;
  /** The payments those `pay.start` calls answered with. */
  paymentIds?: string[];
}

/** One call's outcome inside a frame. */
export interface CallOutcome {
  response: JsonRpcResponse | undefined;
  invalid: boolean;
  /** A `pay.start` that ran, and the payment it answered with. */
  payStart?: { paymentId: string | undefined };
}

/** A valid call's outcome: notifications are run but never answered, errors included (spec, section 4.1). */
export function answer(notification: boolean, response: JsonRpcResponse): CallOutcome {
  return { invalid: false, response: notification ? undefined : response };
}

/** The error code (`data.code`) a call was answered with; undefined for a result (or a notification). */
export function errorCodeOf(outcome: CallOutcome): string | undefined {
  const { response } = outcome;
  return response !== undefined && 'error' in response ? response.error.data.code : undefined;
}

/** `payStarts` and `paymentIds` of a frame's outcome, added to `frame` when it ran any `pay.start`. */
function withPayStarts(frame: FrameOutcome, outcomes: readonly CallOutcome[]): FrameOutcome {
  for (const { payStart } of outcomes) {
    if (payStart === undefined) continue;
    frame.payStarts = (frame.payStarts ?? 0) + 1;
    if (payStart.paymentId !== undefined) {
      frame.paymentIds ??= [];
      frame.paymentIds.push(payStart.paymentId);
    }
  }
  return frame;
}

/** The outcome of a frame holding one request. */
export function singleOutcome(outcome: CallOutcome): FrameOutcome {
  const frame: FrameOutcome = { reply: outcome.response && responseText(outcome.response), bad: outcome.invalid };
  return outcome.payStart === undefined ? frame : withPayStarts(frame, [outcome]);
}

/** The outcome of a batch frame, its answers in request order. */
export function batchOutcome(outcomes: CallOutcome[]): FrameOutcome {
  const responses: string[] = [];
  let bad = false;
  for (const { response, invalid } of outcomes) {
    if (response !== undefined) responses.push(responseText(response));
    bad ||= invalid;
  }
  // A batch of notifications only gets nothing back, never an empty array (spec, section 6).
  return withPayStarts({ reply: responses.length === 0 ? undefined : `[${responses.join(',')}]`, bad }, outcomes);
}
