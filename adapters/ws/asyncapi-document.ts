import { z } from 'zod';
import { jsonSchemas } from './asyncapi-schemas.js';
import { connection } from './asyncapi-connection.js';
import type { RpcBridgeDescription, RpcErrorKind, RpcMethodDoc, RpcNotificationDoc } from './asyncapi-description.js';

/**
 * Builds the AsyncAPI 3.0 document of a JSON-RPC 2.0 bridge over WebSocket
 * from the zod schemas its methods validate with: the cash desk bridge's
 * facts (methods, results, error codes) come from adapters/ws/asyncapi.ts,
 * and this file turns them into channels, messages and operations. The
 * schemas go through the same generator as the OpenAPI documents, so a
 * schema named there (`Payment`, `StartPayment`...) has the same name here.
 */

const CHANNEL = 'bridge';
const channelRef = { $ref: `#/channels/${CHANNEL}` };
const messageRef = (key: string) => ({ $ref: `#/channels/${CHANNEL}/messages/${key}` });
const correlation = { $ref: '#/components/correlationIds/callId' };

/** `pay.changeBasket` -> `payChangeBasket`: keys and names the AsyncAPI patterns allow. */
export function operationKey(method: string): string {
  return method
    .split('.')
    .map((part, i) => (i === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
    .join('');
}
function pascal(method: string): string {
  const key = operationKey(method);
  return key[0]!.toUpperCase() + key.slice(1);
}

const JsonRpcId = z.union([z.string(), z.number(), z.null()]).meta({
  id: 'JsonRpcId',
  description: 'Echoed unchanged in the answer: match answers to calls by it, never by their order.',
});
const version = z.literal('2.0');

interface Built {
  schemas: Record<string, z.ZodType>;
  messages: Record<string, object>;
  operations: Record<string, object>;
}

/** Names `schema` in the document (so the schemas using it refer to it rather than repeat it). */
function named(built: Built, name: string, schema: z.ZodType): z.ZodType {
  const withName = schema.meta({ id: name });
  built.schemas[name] = withName;
  return withName;
}

/** `{ code, message, data }` of one error kind, named by it (built once: methods share kinds). */
function errorSchema(built: Built, kind: RpcErrorKind): z.ZodType {
  const known = built.schemas[kind.name];
  if (known !== undefined) return known;
  const code =
    kind.dataCodes.length > 0
      ? z.enum(kind.dataCodes as [string, ...string[]])
      : z.string().meta({ description: 'The kit error code: branch on it.' });
  const data = z.object({
    code,
    errors: z.array(z.string()).optional().meta({ description: '`<field>: <message>` lines, when there are some.' }),
    requestId: z.string().optional().meta({ description: "This failure's id in the server's log lines." }),
    ...kind.data,
  });
  const message = z.string().meta({ description: 'For people; may be reworded: branch on data.code.' });
  const error = z.object({ code: z.literal(kind.rpcCode), message, data }).meta({ description: kind.description });
  return named(built, kind.name, error);
}

/** A failed answer carrying one of `kinds`. */
function failure(built: Built, name: string, kinds: readonly RpcErrorKind[]): z.ZodType {
  const errors = kinds.map((kind) => errorSchema(built, kind));
  const error = errors.length === 1 ? errors[0]! : anyOf(errors);
  return named(built, name, z.object({ jsonrpc: version, id: JsonRpcId, error }));
}

function anyOf(schemas: readonly z.ZodType[]): z.ZodType {
  return z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

function payloadRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

const PROTOCOL_ERROR = 'protocolError';

/** The call, result and error messages of one method, and its operation; returns the call's and answers' schemas. */
function addMethod(built: Built, doc: RpcMethodDoc): { call: z.ZodType; answers: z.ZodType[] } {
  const key = operationKey(doc.method);
  const name = pascal(doc.method);
  // The bridge reads omitted params as `{}`: they may be left out wherever `{}` passes.
  const params = doc.params.safeParse({}).success ? doc.params.optional() : doc.params;
  const callShape = { jsonrpc: version, id: JsonRpcId.optional(), method: z.literal(doc.method), params };
  const call = named(built, `${name}Call`, z.object(callShape));
  const result = named(built, `${name}Result`, z.object({ jsonrpc: version, id: JsonRpcId, result: doc.result }));
  const error = failure(built, `${name}Error`, doc.errors);
  const codes = doc.errors.map((e) => `${e.rpcCode} (${e.dataCodes.join(', ') || 'any kit code'})`);
  built.messages[`${key}Call`] = {
    name: doc.method,
    title: `${doc.method} call`,
    summary: doc.summary,
    correlationId: correlation,
    description: 'Without `id` it is a notification: run, never answered.',
    payload: payloadRef(`${name}Call`),
  };
  built.messages[`${key}Result`] = {
    name: `${doc.method} result`,
    title: `${doc.method} result`,
    correlationId: correlation,
    payload: payloadRef(`${name}Result`),
  };
  built.messages[`${key}Error`] = {
    name: `${doc.method} error`,
    title: `${doc.method} refused`,
    correlationId: correlation,
    description: `Error codes: ${codes.join('; ')}.`,
    payload: payloadRef(`${name}Error`),
  };
  const replies = [`${key}Result`, `${key}Error`, PROTOCOL_ERROR].map(messageRef);
  built.operations[key] = {
    action: 'receive',
    channel: channelRef,
    title: doc.method,
    summary: doc.summary,
    messages: [messageRef(`${key}Call`)],
    reply: { channel: channelRef, messages: replies },
  };
  return { call, answers: [result, error] };
}

/** A JSON array of calls in one frame, and the array answering it. */
function addBatch(built: Built, calls: readonly z.ZodType[], answers: readonly z.ZodType[], maxBatch: number): void {
  named(built, 'BatchCall', z.array(anyOf(calls)).min(1).max(maxBatch));
  named(built, 'BatchAnswer', z.array(anyOf(answers)).min(1));
  built.messages.batchCall = {
    name: 'batch',
    title: 'Batch of calls',
    payload: payloadRef('BatchCall'),
    description:
      `A JSON array of calls in one frame (at most ${maxBatch} by default: \`maxBatch\`). Answered by one ` +
      'array holding the answer of each call that has an id; an array of notifications only gets no answer.',
  };
  built.messages.batchAnswer = {
    name: 'batch answer',
    title: 'Answers of a batch',
    payload: payloadRef('BatchAnswer'),
    description: 'One answer per call with an id, each as that call alone would get it.',
  };
  built.operations.batch = {
    action: 'receive',
    channel: channelRef,
    title: 'batch',
    summary: 'Several calls in one frame (a JSON-RPC batch).',
    messages: [messageRef('batchCall')],
    reply: { channel: channelRef, messages: [messageRef('batchAnswer'), messageRef(PROTOCOL_ERROR)] },
  };
}

function addNotification(built: Built, note: RpcNotificationDoc): void {
  const key = operationKey(note.method);
  const name = `${pascal(note.method)}Notification`;
  named(built, name, z.object({ jsonrpc: version, method: z.literal(note.method), params: note.params }));
  built.messages[key] = {
    name: note.method,
    title: note.method,
    summary: note.summary,
    description: note.description,
    payload: payloadRef(name),
  };
  built.operations[key] = {
    action: 'send',
    channel: channelRef,
    title: note.method,
    summary: note.summary,
    messages: [messageRef(key)],
  };
}

/** The AsyncAPI 3.0 document of a bridge: every method, notification, batch and error kind of `d`. */
export function rpcBridgeAsyncApiDocument(d: RpcBridgeDescription): object {
  const built: Built = { schemas: {}, messages: {}, operations: {} };
  built.messages[PROTOCOL_ERROR] = {
    name: 'protocol error',
    title: 'Frame or call refused',
    correlationId: correlation,
    payload: payloadRef('ProtocolError'),
    description:
      'A frame that is not JSON, not a request, an empty or oversized batch, an unknown method, or a bug. ' +
      "`id` is the call's when it could be read, else null.",
  };
  const calls: z.ZodType[] = [];
  const answers: z.ZodType[] = [failure(built, 'ProtocolError', d.protocolErrors)];
  for (const method of d.methods) {
    const parts = addMethod(built, method);
    calls.push(parts.call);
    answers.push(...parts.answers);
  }
  addBatch(built, calls, answers, d.maxBatch);
  for (const note of d.notifications) addNotification(built, note);

  const { securitySchemes, server, upgrade } = connection(d);
  return {
    asyncapi: '3.0.0',
    info: { title: d.title, version: d.version, description: d.description, license: { name: 'MIT' } },
    defaultContentType: 'application/json',
    servers: { demo: server },
    channels: {
      [CHANNEL]: {
        address: d.path,
        title: `${d.subprotocol} connection`,
        messages: built.messages,
        description: `One WebSocket connection, subprotocol \`${d.subprotocol}\`: JSON-RPC 2.0 text frames both ways.`,
        bindings: { ws: upgrade },
      },
    },
    operations: built.operations,
    components: {
      schemas: jsonSchemas(built.schemas),
      securitySchemes,
      correlationIds: {
        callId: { description: "An answer carries its call's `id`.", location: '$message.payload#/id' },
      },
    },
  };
}
