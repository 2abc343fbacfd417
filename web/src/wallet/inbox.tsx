import { useState } from 'preact/hooks';
import { call, describe } from '../shared/api';
import { when } from '../shared/format';
import type { InboxMessage } from '../shared/types';
import { Badge, Notice } from '../shared/ui';

/** The phone's push messages, newest first; opening one marks it read (the merchant then gets its read callback). */
export function Inbox({
  msisdn,
  onMsisdn,
  inbox,
  onDone,
}: {
  msisdn: string;
  onMsisdn: (msisdn: string) => void;
  inbox: { msisdn: string; messages: InboxMessage[] };
  onDone: () => void;
}) {
  const messages = inbox.messages;
  const [error, setError] = useState<string | undefined>(undefined);
  const [draft, setDraft] = useState(msisdn);
  const read = async (message: InboxMessage) => {
    try {
      await call(
        'POST',
        `/sandbox/app/inbox/${encodeURIComponent(inbox.msisdn)}/messages/${encodeURIComponent(message.messageId)}/read`,
      );
      setError(undefined);
    } catch (e) {
      setError(describe(e));
    }
    onDone();
  };
  const unread = messages.filter((m) => m.status !== 'READ').length;
  return (
    <section class="panel" aria-labelledby="inbox-h">
      <h2 id="inbox-h">Messages {unread > 0 && <span class="badge pending">{unread} unread</span>}</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          onMsisdn(draft.replace(/[^\d]/g, ''));
        }}
      >
        <div>
          <label for="msisdn">This phone's number</label>
          <input
            id="msisdn"
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="secondary">
          Show its messages
        </button>
      </form>
      {error !== undefined && (
        <Notice kind="error" title="Not marked as read">
          {error}
        </Notice>
      )}
      {messages.length === 0 ? (
        <p class="muted">No messages for {inbox.msisdn || msisdn}.</p>
      ) : (
        <ul class="plain">
          {messages.map((m) => (
            <li key={m.messageId} data-testid="message" data-message-id={m.messageId} data-msisdn={inbox.msisdn}>
              <strong>{m.title}</strong> <Badge value={m.status} /> <span class="muted">{when(m.receivedAt)}</span>
              <div>{m.text}</div>
              {m.deeplink !== null && <div class="mono muted">{m.deeplink}</div>}
              {m.status !== 'READ' && m.status !== 'FAILED' && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => void read(m)}
                  aria-label={`Mark "${m.title}" as read`}
                >
                  Mark as read
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
