import type { ComponentChildren } from 'preact';

/** A message for the person: errors are announced at once (role alert), the rest politely (role status). */
export function Notice({
  kind,
  title,
  children,
}: {
  kind: 'error' | 'ok' | 'warn' | 'info';
  title?: string;
  children?: ComponentChildren;
}) {
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title !== undefined && <strong>{title}</strong>}
      {children}
    </div>
  );
}

/**
 * The page's header, with a skip link to the main content and the live-updates indicator: `live` true when
 * updates flow, false when they stopped (`offLabel`, by default "reconnecting…"), `idle` before anything was
 * asked of the page (a page waiting for a key has nothing to reconnect: no alarm there).
 */
export function TopBar({
  title,
  subtitle,
  live,
  offLabel = 'reconnecting…',
}: {
  title: string;
  subtitle: string;
  live: boolean | 'idle';
  offLabel?: string;
}) {
  const [tone, label] =
    live === 'idle' ? ['live idle', 'not connected'] : live ? ['live', 'live updates on'] : ['live off', offLabel];
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <h1>{title}</h1>
        <p>{subtitle}</p>
        <span class={tone} role="status" data-testid="live">
          {label}
        </span>
      </header>
    </>
  );
}

/** A status word as a coloured badge (colour is never the only cue: the word is there). */
export function Badge({ value, tone }: { value: string; tone?: string }) {
  return <span class={`badge ${tone ?? value}`}>{value}</span>;
}
