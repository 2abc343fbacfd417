// Module loader hooks of record-loads.mjs: appends each resolved URL to the log file it was given (hooks run on
// a thread of their own, so a synchronous append is what orders the lines before the import returns).
import { appendFileSync } from 'node:fs';

let log = '';

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
