// /logs/{messageId} (SPEC §2): one log line, its facts and metadata, with Show Raw Log Data.

import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { LogMessage } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { inWords } from '../../../domain/words.ts';
import { ApiError } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { PaneLink } from '../../app/PaneView.tsx';
import { sanitiseLines } from '../../terminal/sanitise.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { logRef } from './logRef.ts';

export const LOG_NOT_FOUND = 'The log message does not exist or you do not have permission to view it.';

export function LogPage() {
  const { messageId = '' } = useParams();
  const { api } = useApp();
  const query = useQuery({
    queryKey: ['logMessage', messageId],
    queryFn: () =>
      api.http<LogMessage>('GET', `/sentinel/logMessages/${encodeURIComponent(messageId)}`, {
        expect: ['objectNotFound'],
      }),
  });
  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="page">
        <h1>Log message</h1>
        <p role="alert">{notFound ? LOG_NOT_FOUND : query.error.message}</p>
      </div>
    );
  }
  const m = query.data;
  if (!m)
    return (
      <div className="page" aria-busy="true">
        <h1>Log message</h1>
        <p>Loading…</p>
      </div>
    );
  return (
    <div className="page page-log">
      <h1 className="log-page-message">{m.message}</h1>
      <Toolbar
        label="Log message actions"
        commandIds={MENUS.logToolbar}
        selection={selectionOf([logRef(m)])}
      />
      <dl className="facts log-facts">
        <dt>Time</dt>
        <dd>{formatTime(m.time)}</dd>
        <dt>Event</dt>
        <dd>{inWords(m.eventName)}</dd>
        <dt>Type</dt>
        <dd>{m.type}</dd>
        <dt>Level</dt>
        <dd className={`log-level log-level-${m.level.toLowerCase()}`}>{m.level}</dd>
        <dt>Server</dt>
        <dd>
          <PaneLink to={pathOf('server', m.serviceId)}>{m.serviceDisplayName}</PaneLink>
        </dd>
        <dt>Message id</dt>
        <dd>
          <code>{m.messageId}</code>
        </dd>
      </dl>
      <h2>Event data</h2>
      <pre className="log-metadata">
        {sanitiseLines(JSON.stringify(m.metadata, null, 2), Number.POSITIVE_INFINITY).join('\n')}
      </pre>
    </div>
  );
}
