import type { PayCheckReport, PayCheckResult } from './types.js';
import { PayError } from '../errors.js';

/** Lower case without `_` and `-`: `Transaction_ID` and `transactionId` meet. */
const loose = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
const parentOf = (path: string) => path.replace(/(?:\.[^.[\]]+|\[\d+\]|^[^.[\]]+)$/, '');
const leafOf = (path: string) => path.slice(parentOf(path).length).replace(/^\./, '');

/**
 * Fields the reader wanted (missing, or missing and needed) that an unknown field of the same object spells otherwise.
 */
export function lookAlikes(result: PayCheckResult): Array<{ unknown: string; expected: string }> {
  const wanted = [
    ...result.missing,
    ...(result.failure?.errors ?? [])
      .filter((l) => l.endsWith(': missing'))
      .map((l) => l.slice(0, -': missing'.length)),
  ];
  const found: Array<{ unknown: string; expected: string }> = [];
  for (const expected of wanted) {
    const twin = result.unknown.find(
      (u) => parentOf(u.field) === parentOf(expected) && loose(leafOf(u.field)) === loose(leafOf(expected)),
    );
    if (twin) found.push({ unknown: twin.field, expected });
  }
  return found;
}

/** Notes on one operation: look-alike names, and what a refusal usually means. */
export function hintsFor(result: PayCheckResult, error: unknown): string[] {
  const notes = lookAlikes(result).map(
    ({ unknown, expected }) =>
      `'${unknown}' looks like '${expected}' in another spelling: the client matches names exactly`,
  );
  if (!(error instanceof PayError)) return notes;
  const status = error.httpStatus;
  const op = result.operation;
  if (error.code === 'TOKEN_INVALID') notes.push('the token was refused (see the advice below)');
  else if (error.code === 'CARD_SESSION_INVALID')
    notes.push('the card session is unknown, expired or closed: scan a fresh barcode and run again');
  else if (error.code === 'PAY_NETWORK' || error.code === 'PAY_TIMEOUT')
    notes.push('no answer: is the URL right and reachable from here?');
  else if ((status === 404 || status === 405) && error.serverCode === undefined) {
    notes.push(`no such path? the service may use another one for ${op} (paths.${op}, --path ${op}=/...)`);
  } else if (status === 400) notes.push('the service refused the body: the request is in the record');
  else if (status === 415) notes.push('the service refused the content type application/json');
  else if (error.code === 'PAY_PROTOCOL' && status !== undefined && status >= 200 && status < 300) {
    notes.push(
      'a 2xx lacking (or with an unreadable) field the interface document names: the client cannot use this answer',
    );
  } else if (error.code === 'PAY_PROTOCOL')
    notes.push('an error answer of a kind the kit does not know (not { status, errors[] } with a known status)');
  return notes;
}

/** Which client options to consider, from all the verdicts. */
export function adviseOn(report: PayCheckReport): string[] {
  const advice: string[] = [];
  const sent = report.results.filter((r) => r.exchanges.length > 0);
  const refusedToken = sent.filter((r) => r.failure?.code === 'TOKEN_INVALID');
  if (refusedToken.length > 0) {
    advice.push(
      `${refusedToken.length === sent.length ? 'Every' : 'A'} signed call was refused as unauthorized: check the ` +
        `partner key (--key) and ` +
        `the token's kid (--partner-id), the header the service reads (sent: ${report.tokenHeader}; ` +
        `--token-header, tokenHeader), ` +
        "or whether the service computes its token otherwise (the client's sign option).",
    );
  }
  if (report.profile === 'kit') {
    const missing = [...new Set(report.results.flatMap((r) => r.missing.map((m) => m.replace(/\[\d+\]/g, '[]'))))];
    if (missing.length > 0) {
      advice.push(
        `The answers lack the kit's own fields (${missing.join(', ')}): the service seems to follow the ` +
          `interface document literally. ` +
          "Consider profile 'document' (--profile document): only the fields the document names are sent, " +
          '/status by transactionId, ' +
          'a lost /checkout recovered by the same /checkout, /refund never retried.',
      );
    }
    if (report.results.some((r) => r.verdict === 'FAIL' && r.httpStatus === 400)) {
      advice.push(
        "A body was refused (400): profile 'document' (--profile document) sends only the fields the document names.",
      );
    }
  }
  if (report.results.some((r) => lookAlikes(r).length > 0)) {
    advice.push(
      "Some fields differ from the document's names only in spelling: the client reads the document's names; " +
        'ask the service which is right.',
    );
  }
  if (report.results.every((r) => r.verdict === 'PASS')) {
    advice.push(
      `Nothing to change: profile '${report.profile}' and token header ${report.tokenHeader} fit this service.`,
    );
  }
  return advice;
}
