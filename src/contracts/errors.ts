import { z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';

/**
 * The error envelope of every HTTP API of the kit (interface document section 7,
 * DESIGN.md section 3): `status` is a stable code, `errors` lines are
 * `<field>: <message>` or a free message.
 */
export const ErrorEnvelope = z.object({
  status: z.string().openapi({ example: 'BAD_REQUEST' }),
  errors: z.array(z.string()).openapi({ example: ['fullBarcode: must be a string'] }),
}).openapi('Error');

export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Builds an envelope. */
export function errorEnvelope(status: string, errors: readonly string[]): ErrorEnvelope {
  return { status, errors: [...errors] };
}

/** `<field>: <message>` lines for a zod error (the body itself is `body`). */
export function validationErrors(error: ZodError): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => `${k}: unknown field`);
    const path = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return [`${path}: ${issue.message}`];
  });
}
