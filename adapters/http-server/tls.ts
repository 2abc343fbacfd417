import { readFileSync } from 'node:fs';
import type { Server as HttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ConfigError } from '../../src/errors.js';

/** `tls` of a server's configuration: the PEM files of its certificate (chain) and private key. */
export const tlsFilesSchema = z
  .object({
    cert: z.string({ error: 'must be the path of a PEM certificate file' }).min(1),
    key: z.string({ error: 'must be the path of a PEM private key file' }).min(1),
  })
  .strict();

/** Paths of a server's certificate chain and private key (PEM). */
export type TlsFiles = z.output<typeof tlsFilesSchema>;

/** The certificate and key bytes, checked to make a secure context together. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

/** One file's bytes, or a `ConfigError` naming the setting and why (never the content). */
function readPem(path: string, setting: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError([`${setting}: cannot read ${path} (${code})`], 'TLS configuration');
  }
}

/**
 * Reads both files and checks they make a secure context (a PEM that does not
 * parse, or a key that is not the certificate's, fails here, not at the first
 * handshake).
 *
 * @throws ConfigError naming the file at fault.
 */
export function readTlsFiles(files: TlsFiles): TlsMaterial {
  const material = { cert: readPem(files.cert, 'tls.cert'), key: readPem(files.key, 'tls.key') };
  try {
    createSecureContext(material);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? 'not a usable certificate and key';
    throw new ConfigError(
      [`tls: ${files.cert} and ${files.key} are not a PEM certificate and its private key (${reason})`],
      'TLS configuration',
    );
  }
  return material;
}

/**
 * Reads the files again and gives them to `server` for new connections; open
 * ones keep the certificate they began with. When the files are bad, the
 * certificate in use stays and one `warn` says why. Returns whether it changed.
 */
export function reloadTls(server: HttpsServer, files: TlsFiles, logger: Logger | undefined): boolean {
  try {
    server.setSecureContext(readTlsFiles(files));
    logger?.info({ cert: files.cert }, 'TLS certificate reloaded');
    return true;
  } catch (error) {
    const issues = error instanceof ConfigError ? error.issues.join('; ') : String(error);
    logger?.warn({ cert: files.cert, issues }, 'TLS certificate not reloaded: the one in use stays');
    return false;
  }
}
