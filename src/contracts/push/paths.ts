/** Paths of the Push API (the interface document, section 4.3), under `/public`. */
export const PUSH_PATHS = {
  resetPassword: '/public/user/reset-password',
  single: '/public/push/single',
  batch: '/public/push/batch',
  message: '/public/push/{messageId}',
} as const;

/** The current Push API version (document section 9). */
export const PUSH_API_VERSION = '1.1.0';
