import type { CoreBackend } from '../node/backend.js';
import type { ResolvedConfig } from '../node/config.js';

/** Builds native backends, or says why the addon cannot be used. */
export function loadNativeBackend(): ((config: ResolvedConfig) => CoreBackend) | Error {
  return new Error('the native addon has not been built');
}
