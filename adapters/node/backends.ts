import { KitError } from '../../src/errors.js';
import { loadNativeBackend } from '../native/index.js';
import type { CoreBackend } from '../core/contract.js';
import { WasmBackend } from './backend.js';
import type { ResolvedConfig } from './config.js';

let fallbackSaid = false;

/**
 * The backend a config asks for. `auto` prefers the native addon and falls
 * back to wasm, saying so once per process; `native` without the addon is an
 * error, not a silent fallback.
 */
export function selectBackend(config: ResolvedConfig): CoreBackend {
  if (config.backend === 'wasm') return new WasmBackend(config);
  const native = loadNativeBackend();
  if (!(native instanceof Error)) return native(config);
  if (config.backend === 'native') {
    throw new KitError(
      'BACKEND_UNAVAILABLE',
      `backend 'native' requested, but the addon is unavailable: ${native.message}`,
    );
  }
  if (!fallbackSaid) {
    fallbackSaid = true;
    console.warn(`wallet-partner-kit: native addon unavailable (${native.message}); using the wasm core`);
  }
  return new WasmBackend(config);
}
