import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Follows a server-sent event stream of change notices (`change` events with `{topic}`): calls `onChange` for each
 * topic, and once with `*` when (re)connected, so the page reads everything again after a gap. The browser's
 * EventSource reconnects by itself; nothing here polls. Returns whether the stream is open.
 */
export function useChanges(url: string, onChange: (topic: string) => void): boolean {
  const [open, setOpen] = useState(false);
  const handler = useRef(onChange);
  handler.current = onChange;
  useEffect(() => {
    const source = new EventSource(url);
    source.addEventListener('ready', () => {
      setOpen(true);
      handler.current('*');
    });
    source.addEventListener('change', (event) => {
      try {
        handler.current(String((JSON.parse((event as MessageEvent<string>).data) as { topic: string }).topic));
      } catch {
        handler.current('*');
      }
    });
    source.addEventListener('error', () => setOpen(false));
    return () => source.close();
  }, [url]);
  return open;
}
