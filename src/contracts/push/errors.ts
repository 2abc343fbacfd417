import { httpStatusOf } from '../../errors/codes.js';

/**
 * Push API answers other than 200 (document section 7), with the kit's table's
 * statuses (src/errors/codes.ts). 304 carries no body (HTTP forbids one): the
 * wait is in `Retry-After`. The others carry the envelope `{ status, errors[] }`.
 */
export const PUSH_ERROR_STATUS = {
  BAD_REQUEST: httpStatusOf('BAD_REQUEST'),
  UNAUTHORIZED: httpStatusOf('UNAUTHORIZED'),
  NOT_FOUND: httpStatusOf('NOT_FOUND'),
} as const;

/** A Push API error envelope status. */
export type PushErrorCode = keyof typeof PUSH_ERROR_STATUS;

/** The document's 401 message. */
export const UNAUTHORIZED_MESSAGE = 'Invalid authorization token';
