import type { Logger } from 'pino';

/**
 * Reads the TLS certificate and key again on SIGHUP (what `systemctl reload` sends): new connections get the new
 * certificate, open ones keep theirs, and bad files leave the one in use (the server logs a `warn`). Only for a
 * server with TLS: elsewhere SIGHUP keeps Node's default, the end of the process.
 */
export function reloadTlsOnHangup(logger: Logger, reload: () => boolean): void {
  process.on('SIGHUP', () => {
    logger.info({ signal: 'SIGHUP' }, 'reloading the TLS certificate');
    reload();
  });
}
