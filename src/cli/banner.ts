import { symbols, type Logger } from 'pino';

/**
 * Writes a server's banner on stdout in its place among the log lines: after those logged before it, in one piece.
 * pino buffers its lines and writes them asynchronously while stdout.write goes out at once, so a banner written
 * directly lands before start-up lines still on their way; written through the logger's own stdout stream, it
 * queues behind them. The banner stays on stdout, where every test, bench and script reads it.
 */
export function bannerWriter(logger: Logger): (text: string) => void {
  const stream = (logger as unknown as Record<symbol, { fd?: number; write?: (text: string) => unknown } | undefined>)[
    symbols.streamSym
  ];
  return (text) => {
    if (stream?.fd === 1 && typeof stream.write === 'function') stream.write(text);
    else process.stdout.write(text);
  };
}
