import type { ChildProcess } from 'node:child_process';

/** What the `demo` banner tells a newcomer, parsed. */
export interface DemoBanner {
  cashDeskUrl: string;
  wsUrl: string;
  tillKey: string;
  sandboxUrl: string;
  loyaltyUrl: string;
  /** The barcode of the curl line. */
  curlBarcode: string;
  /** The `node -e` line, as printed (a shell command). */
  wsLine: string;
  /** The barcode inside the WebSocket line's pay.start. */
  wsBarcode: string;
  /** The card the WebSocket line pays with. */
  wsCard: string;
}

function parse(text: string): DemoBanner | undefined {
  const pick = (re: RegExp) => re.exec(text)?.[1];
  const cashDeskUrl = pick(/Cash desk\s+(http:\/\/127\.0\.0\.1:\d+)/);
  const wsUrl = pick(/WebSocket\s+(ws:\/\/127\.0\.0\.1:\d+\/ws)/);
  const tillKey = pick(/Till key\s+(\S+)/);
  const sandboxUrl = pick(/Sandbox\s+(http:\/\/127\.0\.0\.1:\d+)/);
  const loyaltyUrl = pick(/Loyalty\s+(http:\/\/127\.0\.0\.1:\d+)/);
  const curlBarcode = pick(/-d '\{"fullBarcode":"([^"]+)"\}'/);
  const wsLine = pick(/^\s*(node -e .*)$/m);
  const wsBarcode = wsLine && /"method":"pay\.start","params":\{"fullBarcode":"([^"]+)"/.exec(wsLine)?.[1];
  const wsCard = pick(/with card (\d+) over the WebSocket/);
  if (
    !cashDeskUrl ||
    !wsUrl ||
    !tillKey ||
    !sandboxUrl ||
    !loyaltyUrl ||
    !curlBarcode ||
    !wsLine ||
    !wsBarcode ||
    !wsCard
  )
    return undefined;
  return { cashDeskUrl, wsUrl, tillKey, sandboxUrl, loyaltyUrl, curlBarcode, wsLine, wsBarcode, wsCard };
}

/** Resolves with the parsed banner once a `demo` child has printed all of it; rejects if it exits first. */
export function waitForDemoBanner(
  child: ChildProcess,
  output: { text: string },
  timeoutMs = 420_000,
): Promise<DemoBanner> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within ${timeoutMs} ms:\n${output.text}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString();
      const banner = parse(output.text);
      if (banner) {
        clearTimeout(timer);
        resolve(banner);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited early with ${code}:\n${output.text}`));
    });
  });
}

/** Resolves with the exit code. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}
