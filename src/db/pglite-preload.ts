import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** PGlite's compiled PostgreSQL and its file bundle, read once per process. */
export interface PglitePreload {
  readonly wasmModule: WebAssembly.Module;
  /** `pglite.data`: PostgreSQL's share files. Copy it per instance: PGlite's files live in it. */
  readonly fsBundle: Uint8Array;
}

let preloading: Promise<PglitePreload | undefined> | undefined;

/**
 * Starts compiling PGlite's wasm (9 MB; V8 compiles on background threads)
 * and reading its file bundle, now, and keeps them for every PGlite this
 * process opens. A command calls it before it loads the rest of its code, so
 * the compiling overlaps the loading; {@link openPglite} awaits it. Resolves
 * to `undefined` when PGlite's files are not where this version keeps them:
 * PGlite then loads them itself.
 */
export function preloadPglite(): Promise<PglitePreload | undefined> {
  preloading ??= (async () => {
    try {
      const dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
      const [wasm, fsBundle] = await Promise.all([
        readFile(join(dir, 'pglite.wasm')),
        readFile(join(dir, 'pglite.data')),
      ]);
      return { wasmModule: await WebAssembly.compile(wasm), fsBundle };
    } catch {
      return undefined;
    }
  })();
  return preloading;
}

/**
 * Takes what another thread preloaded (a compiled module crosses to a worker
 * thread without compiling again), unless this thread has begun its own.
 */
export function adoptPglitePreload(given: PglitePreload): void {
  preloading ??= Promise.resolve(given);
}
