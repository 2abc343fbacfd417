import { z } from 'zod';

/**
 * The error envelope of every HTTP API of the kit (interface document sections
 * 2.5 and 7): `status` is a stable code, `errors` lines are
 * `<field>: <message>` or a free message.
 */
export const ErrorEnvelope = z
  .object({
    status: z.string().meta({ example: 'BAD_REQUEST' }),
    errors: z.array(z.string()).meta({ example: ['fullBarcode: must be a string'] }),
    requestId: z
      .string()
      .optional()
      .meta({
        description:
          "The answer's `X-Request-Id` (the caller's when sane, else made up): quote it when reporting a failure, " +
          "it is in the server's log lines.",
        example: 'till-7-000123',
      }),
  })
  .meta({ id: 'Error' });

export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Builds an envelope; with `requestId`, the request's id (the kit's servers add it to every refusal). */
export function errorEnvelope(status: string, errors: readonly string[], requestId?: string): ErrorEnvelope {
  return requestId === undefined ? { status, errors: [...errors] } : { status, errors: [...errors], requestId };
}
