import type { ZodError } from 'zod';

/**
 * `<field>: <message>` lines for a zod error, the one way the kit words a
 * failed validation (request bodies, options, configurations, answers read):
 * a field by its dotted path, `root` for the value itself, and each unknown
 * field by its own path (`pay.paths.void: unknown field`).
 *
 * @example
 * if (!parsed.success) throw new ConfigError(validationErrors(parsed.error, 'options'));
 */
export function validationErrors(error: ZodError, root = 'body'): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((k) => `${[...issue.path, k].join('.')}: unknown field`);
    const path = issue.path.length > 0 ? issue.path.join('.') : root;
    return [`${path}: ${issue.message}`];
  });
}
