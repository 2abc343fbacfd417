import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Handler } from 'hono';
import type { Logger } from 'pino';
import { CLIENT_CLOSED_REQUEST, problemFor } from './failures.js';
import type { NodeEnv } from './node-env.js';
import type { NodeHandler } from './node-routes.js';
import { HttpProblem } from './problem.js';
import { type BodySink, ClientAborted, readRawBody } from './raw-body.js';
import { unsupportedMediaType } from './refusals.js';
import { sendJson, writeProblem } from './reply.js';
import type { RequestCounter } from './request-metrics.js';

/** What every raw POST route of an app shares; `C` is who a request comes from (the cash desk's till). */
export interface RawRouteDeps<C> {
  /**
   * The refusal owed to a request before its body is read (credentials, declared length and type), or the
   * caller it admitted: runs first, on the Node request's own headers. May throw (a lockout).
   */
  admit: (incoming: IncomingMessage) => HttpProblem | C;
  /** Where answers are counted (`wpk_http_requests_total`). */
  requests: RequestCounter;
  bodyLimitBytes: number;
  logger: Logger;
}

/** Turns `caller`'s body into the 200 JSON answer, or throws (an HttpProblem, or anything for `problemFor`). */
export type Answer<C> = (body: Buffer, caller: C) => unknown;

interface RawRoute<C> extends RawRouteDeps<C> {
  path: string;
  answer: Answer<C>;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * One request on a raw route, from its body to its answer: the {@link BodySink}
 * its body is read into. A class, so a request costs one object rather than a
 * set of closures (only an asynchronous answer adds its two callbacks).
 */
class RawPost<C> implements BodySink {
  constructor(
    private readonly route: RawRoute<C>,
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
  ) {}

  /** Who the request was admitted as; set before the body is read. */
  caller: C | undefined;

  bodyRead(body: Buffer): void {
    // Only now can a body without a Content-Type be told from no body at all.
    if (body.length > 0 && this.incoming.headers['content-type'] === undefined) {
      this.bodyFailed(unsupportedMediaType());
      return;
    }
    let result: unknown;
    try {
      result = this.route.answer(body, this.caller!);
    } catch (error) {
      this.bodyFailed(error);
      return;
    }
    if (isPromiseLike(result))
      result.then(
        (value) => this.send(value),
        (error: unknown) => this.bodyFailed(error),
      );
    else this.send(result);
  }

  /** Answers any failure, from reading the body to producing the answer, with its refusal. */
  bodyFailed(error: unknown): void {
    const { route, outgoing } = this;
    if (error instanceof ClientAborted) {
      // Not the server's failure, and no one to answer: logged at info, counted as 499 (nginx's "client closed
      // request").
      route.logger.info({ method: 'POST', path: route.path }, 'request aborted by the client');
      route.requests.count(route.path, CLIENT_CLOSED_REQUEST);
      return;
    }
    const problem = problemFor(error, route.logger, { method: 'POST', path: route.path });
    // An answer cannot follow one already under way (a failure inside the write itself).
    if (!outgoing.headersSent) writeProblem(this.incoming.headers, outgoing, problem);
    route.requests.count(route.path, problem.httpStatus);
  }

  private send(value: unknown): void {
    try {
      sendJson(this.outgoing, 200, value);
    } catch (error) {
      this.bodyFailed(error);
      return;
    }
    this.route.requests.count(this.route.path, 200);
  }
}

/**
 * A JSON POST route answered from the Node request and response directly
 * (the verify hot path): the body is read from `incoming` and the answer written to
 * `outgoing`, skipping the web Request, ReadableStream and Response that would
 * otherwise cost more than the verification. `serveHttp` calls it before
 * Hono's router (node-routes.ts); {@link honoRoute} mounts the same handler in
 * the app, for paths only Hono's router matches.
 *
 * The route does all of its own work, and no Hono middleware or `onError`
 * ever sees it: `admit` before the body is read (the cash desk's till auth and
 * declared length and type), the body limit while reading, 415 for a body
 * sent without a Content-Type, every failure through `problemFor` and
 * `writeProblem`, and the request count.
 *
 * @param path The route's path: the metrics label and the logged path (never the URL, whose `?key=` holds a till key).
 * @param answer Turns the body into the 200 answer (or a promise of it), or throws.
 */
export function rawJsonRoute<C>(deps: RawRouteDeps<C>, path: string, answer: Answer<C>): NodeHandler {
  const route: RawRoute<C> = { ...deps, path, answer };
  return (incoming, outgoing) => {
    const post = new RawPost(route, incoming, outgoing);
    let refusal: unknown;
    try {
      const checked = route.admit(incoming);
      if (checked instanceof HttpProblem) refusal = checked;
      else post.caller = checked;
    } catch (error) {
      refusal = error; // answered and counted here like any other failure, not by Hono's onError
    }
    if (refusal === undefined) readRawBody(incoming, route.bodyLimitBytes, post);
    else post.bodyFailed(refusal);
  };
}

/**
 * A {@link NodeHandler} as a Hono handler: it answers on `c.env`'s Node
 * response and returns `RESPONSE_ALREADY_SENT`, telling @hono/node-server the
 * route owns the response; the answer follows when the body has arrived.
 */
export function honoRoute(handler: NodeHandler): Handler<NodeEnv> {
  return (c) => {
    handler(c.env.incoming, c.env.outgoing);
    return RESPONSE_ALREADY_SENT;
  };
}
