import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';

/** Every address in 127.0.0.0/8 is loopback on Linux: tests connect from several to act as different callers. */
export const ADDRESSES = {
  attacker: '127.0.0.2',
  honest: '127.0.0.3',
  newcomer: '127.0.0.4',
  other: '127.0.0.5',
} as const;

/** An answer read whole. */
export interface FromAddressAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any; // tests assert on the shape
}

/** One HTTP request sent from `localAddress` (a JSON body when given). */
export function requestFrom(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    localAddress,
  }: { method?: string; headers?: Record<string, string>; body?: string; localAddress: string },
): Promise<FromAddressAnswer> {
  return new Promise((resolve, reject) => {
    const all = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
    const req = httpRequest(url, { method, headers: all, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
