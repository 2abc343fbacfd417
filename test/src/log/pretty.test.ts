import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/logger.js';
import { prettyDestination, prettyLogLine } from '../../../src/log/pretty.js';

describe('prettyLogLine', () => {
  it('writes time, level and message first, then the other fields as key=value', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
      pid: 1,
      hostname: 'h',
      msg: 'Pay API not answering',
      url: 'http://127.0.0.1:8090',
      attempt: { n: 2 },
    });
    expect(prettyLogLine(line)).toBe(
      '03:04:05 WARN  Pay API not answering url=http://127.0.0.1:8090 attempt={"n":2}\n',
    );
  });

  it('passes a line that is not JSON on as it is', () => {
    expect(prettyLogLine('not json')).toBe('not json\n');
  });
});

describe('prettyDestination', () => {
  it('formats each line of a logger writing to it, in order, under the logging policy', () => {
    const written: string[] = [];
    const logger = createLogger({ level: 'info', destination: prettyDestination({ write: (t) => written.push(t) }) });
    logger.info({ port: 8080 }, 'listening');
    logger.debug('not at info');
    logger.error('failed');
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}listening port=8080\n$/);
    expect(written[1]).toMatch(/^\d\d:\d\d:\d\d ERROR failed\n$/);
  });
});

describe('createLogger', () => {
  it('writes JSON when told not to be pretty (as when standard output is not a terminal)', () => {
    const written: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (t: string) => written.push(t) } });
    logger.info('listening');
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 30, msg: 'listening' });
  });
});
