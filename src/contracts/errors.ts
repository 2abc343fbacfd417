import { z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';

/**
 * The error envelope of every HTTP API of the kit (interface document sections
 * 2.5 and 7): `status` is a stable code, `errors` lines are
 * `<field>: <message>` or a free message.
 */
export const ErrorEnvelope = z.object({
  status: z.string().openapi({ example: 'BAD_REQUEST' }),
  errors: z.array(z.string()).openapi({ example: ['fullBarcode: must be a string'] }),
  requestId: z.string().optional().openapi({
    description: "The answer's `X-Request-Id` (the caller's when sane, else made up): quote it when reporting a failure, " + "it is in the server's log lines.",
    example: 'till-7-000123',
  }),
}).openapi('Error');

export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Builds an envelope; with `requestId`, the request's id (the kit's servers add it to every refusal). */
export function errorEnvelope(status: string, errors: readonly string[], requestId?: string): ErrorEnvelope {
  return requestId === undefined ? { status, errors: [...errors] } : { status, errors: [...errors], requestId };
}

/** `<field>: <message>` lines for a zod error (the body itself is `body`). */
export function validationErrors(error: ZodError): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => `${k}: unknown field`);
    const path = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return [`${path}: ${issue.message}`];
  });
}
