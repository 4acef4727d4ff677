// /api-reference (SPEC §2 landing links): every route of the API, as the server lists its own
// routes (GET /v4/apiReference), grouped by topic, with a filter.

import { useQuery } from '@tanstack/react-query';
import { Fragment, useDeferredValue, useId, useState } from 'react';
import type { ApiRouteEntry, RouteAccess } from '../../../domain/apiReference.ts';
import { errorText } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { PublicPage } from './PublicPage.tsx';

const ACCESS: Record<RouteAccess, string> = {
  open: 'Anyone',
  optional: 'Anyone; a token is read when sent',
  token: 'Token',
};

export const accessText = (r: ApiRouteEntry) =>
  r.access === 'token' ? `${ACCESS.token}: ${r.scopes.join(', ')}` : ACCESS[r.access];

/** Routes whose method, path, topic, access or description hold every word of the filter. */
export function filterRoutes(routes: readonly ApiRouteEntry[], filter: string): ApiRouteEntry[] {
  const terms = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...routes];
  return routes.filter((r) => {
    const text = `${r.method} ${r.path} ${r.topic} ${accessText(r)} ${r.description}`.toLowerCase();
    return terms.every((t) => text.includes(t));
  });
}

/** Topics in the order the server first lists them. */
function byTopic(routes: readonly ApiRouteEntry[]): [string, ApiRouteEntry[]][] {
  const topics = new Map<string, ApiRouteEntry[]>();
  for (const r of routes) topics.set(r.topic, [...(topics.get(r.topic) ?? []), r]);
  return [...topics];
}

/** A path that may wrap only after a slash, so a parameter is never cut in two. */
function PathText({ path }: { path: string }) {
  const segments = path.split('/').slice(1);
  // Each segment's key is the path up to it, unique within the path.
  return segments.map((segment, i) => {
    const upTo = `/${segments.slice(0, i + 1).join('/')}`;
    return (
      <Fragment key={upTo}>
        {i > 0 && <wbr />}/{segment}
      </Fragment>
    );
  });
}

function TopicTable({ topic, routes }: { topic: string; routes: ApiRouteEntry[] }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="public-reference-topic">
      <h2 id={id}>{topic}</h2>
      <table aria-labelledby={id} className="public-table">
        <thead>
          <tr>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Access</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {routes.map((r) => (
            <tr key={`${r.method} ${r.path}`}>
              <td>
                <code>{r.method}</code>
              </td>
              <td>
                <code>
                  <PathText path={r.path} />
                </code>
              </td>
              <td>{accessText(r)}</td>
              <td>
                <Described text={r.description} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function ApiReference() {
  const { api, config } = useApp();
  const reference = useQuery({ queryKey: ['apiReference'], queryFn: () => api.apiReference() });
  const [filter, setFilter] = useState('');
  const deferred = useDeferredValue(filter);
  const routes = reference.data ? filterRoutes(reference.data.routes, deferred) : [];

  return (
    <PublicPage mainClassName="public-text public-reference">
      <h1>API Reference</h1>
      <p>
        Everything the console does goes through this API, and your own tools can use it too. Every address
        below is relative to the server: <code>{new URL(config.apiUrl).origin}</code>. Sign in with OAuth 2.1
        (an authorization code with PKCE at <code>/v4/login</code>), then send the access token as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>. Answers are JSON; errors carry a <code>code</code>{' '}
        and a <code>message</code>.
      </p>
      <h2 id="api-tokens">API tokens for your own tools</h2>
      <p>
        A script or bot need not sign in: make it an API token in the console (API tokens, or{' '}
        <code>mktoken</code> at the console pane), read only or read and write, for everything you can reach
        or for one server or group, for up to a year. The token is shown once; send it as{' '}
        <code>Authorization: Bearer pat_…</code> like any access token. It never does more than you can: if
        you lose a permission, so does the token. It cannot manage tokens, devices or two-factor sign-in, and
        it stops at once when you revoke it. The list shows when and from where each was last used.
      </p>
      {reference.isPending ? (
        <p role="status">Loading the reference…</p>
      ) : reference.isError ? (
        <div role="alert">
          <p>The reference could not be loaded: {errorText(reference.error)}</p>
          <button type="button" className="public-button" onClick={() => reference.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <p className="public-filter">
            <label>
              Filter routes <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
            </label>{' '}
            <span role="status">
              {routes.length} of {reference.data.routes.length} routes
            </span>
          </p>
          {byTopic(routes).map(([topic, rs]) => (
            <TopicTable key={topic} topic={topic} routes={rs} />
          ))}
        </>
      )}
    </PublicPage>
  );
}

/** A description whose `quoted` parts are code: a parameter as it is typed, set in code type. */
function Described({ text }: { text: string }) {
  return (
    <>
      {text.split(/`([^`]+)`/).map((part, i) =>
        // Split on a capture: odd parts were between backticks.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in their order
        i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
      )}
    </>
  );
}
