// /scripts/workshop/{scriptId} (SPEC §2 Workshop preview): a community script's description,
// preview, code (read-only, as plain text), parameters, versions (Date, Version ID) and rating;
// its toolbar likes, copies (MIT-0), adds to a server or group, and for its author removes it.
// Untrusted text (name, description, code) is only ever text, never HTML.

import { useQuery } from '@tanstack/react-query';
import { useAtom, useSetAtom, useStore } from 'jotai';
import { useEffect, useMemo } from 'react';
import { useParams } from 'react-router';
import type { ScriptRevision } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import { selectionOf } from '../../../domain/resolver.ts';
import { likesOf, WorkshopMsg } from '../../../domain/workshop.ts';
import { ApiError } from '../../api/http.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId } from '../../app/PaneView.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { selectionAtom } from '../../app/state.ts';
import { prefAtoms } from '../../store/prefs.ts';
import { runOrPrompt } from '../../ui/runCommand.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { ScriptStatus } from '../scripts/ScriptStatus.tsx';
import '../scripts/scripts.css';
import { parseSimple } from '../../../domain/scripts/simple.ts';
import { simpleSentences } from '../../../domain/scripts/simpleText.ts';
import { inWords } from '../../../domain/words.ts';

const versionColumns: Column<ScriptRevision>[] = [
  {
    id: 'date',
    title: 'Date',
    value: (r) => r.dateCreated,
    render: (r) => formatTime(r.dateCreated),
  },
  { id: 'version', title: 'Version ID', value: (r) => r.revisionId, width: '2fr' },
  { id: 'status', title: 'Status', value: (r) => r.approvalStatus },
];

/** The versions while they load: one array, so the list does not take each render's as new rows. */
const NO_VERSIONS: readonly ScriptRevision[] = [];

/** Attaching on one version: the Add to Server dialog, locked to it. */
const lockedTo = (r: ScriptRevision) => ({ mode: 'locked', version: r.revisionId });

export function WorkshopPreview() {
  const { scriptId = '' } = useParams();
  const { api, auth, index } = useApp();
  const runtime = useCommandRuntime();
  const store = useStore();
  const paneId = usePaneId();
  const setSelection = useSetAtom(selectionAtom);
  const [noticeVisible, setNoticeVisible] = useAtom(prefAtoms.attachNoticeVisible);
  const script = useQuery({
    queryKey: ['communityScripts', scriptId],
    queryFn: () => api.communityScripts.get(scriptId),
  });
  const versions = useQuery({
    queryKey: ['scriptRevisions', scriptId],
    queryFn: () => api.scriptRevisions(scriptId),
  });
  const s = script.data;
  const ref = useMemo(() => (s ? { kind: 'script' as const, id: s.scriptId, label: s.name } : null), [s]);
  // Commands (palette, console, toolbar) act on the script in view.
  useEffect(() => {
    if (!ref) return;
    index.upsert([ref]);
    setSelection((all) => ({ ...all, [paneId]: selectionOf([ref]) }));
  }, [index, paneId, ref, setSelection]);

  if (script.error) {
    const gone = script.error instanceof ApiError && script.error.status === 404;
    return (
      <div className="page">
        <h1>Workshop</h1>
        <p role="alert">
          {gone
            ? 'This script is not in the Workshop: its author removed it, or it never was.'
            : script.error.message}
        </p>
      </div>
    );
  }
  if (!s || !ref) return <p className="page">Loading…</p>;
  const onScript = selectionOf([ref]);
  const author = s.userId === userOf(auth)?.userId;
  const addToServer = runtime.registry.get('workshop.addToServer');
  return (
    <div className="page workshop-preview">
      <header className="server-header">
        <h1 className="script-name">
          {s.name}
          <ScriptStatus script={s} />
        </h1>
        <dl className="facts">
          <dt>Author</dt>
          <dd>{s.usernameFull}</dd>
          <dt>Rating</dt>
          <dd>{s.communityRating === null ? 'No votes' : `${Math.round(s.communityRating * 100)}%`}</dd>
          <dt>Likes</dt>
          <dd>
            {likesOf(s)} of {s.communityVotes}
          </dd>
          <dt>You like it</dt>
          <dd>{s.liked ? 'Yes' : 'No'}</dd>
        </dl>
        <Toolbar
          commandIds={
            author
              ? [...MENUS.workshopPreviewToolbar, ...MENUS.workshopAuthorToolbar]
              : MENUS.workshopPreviewToolbar
          }
          label="Workshop script"
          selection={onScript}
        />
      </header>
      <p className="workshop-text">{s.preview}</p>
      <p className="ui-dialog-message">{WorkshopMsg.licence}</p>
      {noticeVisible && (
        <p className="workshop-notice" role="note">
          {WorkshopMsg.attachNotice}
          <button type="button" className="ui-button" onClick={() => setNoticeVisible(false)}>
            Hide this notice
          </button>
        </p>
      )}
      <section aria-label="Description">
        <h2>Description</h2>
        <p className="workshop-text">{s.description || 'No description.'}</p>
      </section>
      {s.parameters.length > 0 && (
        <section aria-label="Parameters">
          <h2>Parameters</h2>
          <table className="workshop-params">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Default</th>
              </tr>
            </thead>
            <tbody>
              {s.parameters.map((p) => (
                <tr key={p.name}>
                  <td>{p.name}</td>
                  <td>{p.type}</td>
                  <td>{String(p.default ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section aria-label="Versions" className="workshop-versions">
        <h2>Versions</h2>
        <VirtualList<ScriptRevision>
          name="workshop-versions"
          label="Versions"
          rows={versions.data?.revisions ?? NO_VERSIONS}
          loading={versions.isLoading}
          error={versions.error ? WorkshopMsg.versionsNotFound : null}
          rowKey={(r) => r.revisionId}
          columns={versionColumns}
          defaultSort={{ column: 'date', direction: 'desc' }}
          emptyText={WorkshopMsg.versionsNotFound}
          onOpen={(r) => {
            if (addToServer)
              runOrPrompt(runtime, addToServer, lockedTo(r), 'menu', { selection: onScript, store });
          }}
          menu={() => MENUS.workshopVersionRow}
          entity={() => ref}
          menuValues={([r]) => (r ? lockedTo(r) : {})}
        />
      </section>
      <section aria-label="Code">
        <h2>Code</h2>
        {s.commonJavascript.trim() && (
          <>
            <h3>Common JavaScript</h3>
            <pre className="workshop-code">{s.commonJavascript}</pre>
          </>
        )}
        {s.events.map((e) => (
          <div key={e.scriptEventId}>
            <h3>
              {inWords(e.context)}
              {e.keyword ? ` (${e.keyword})` : ''} · {e.language}
            </h3>
            <EventCode language={e.language} context={e.context} code={e.code} />
          </div>
        ))}
      </section>
    </div>
  );
}

/** A Simple handler in sentences (its JSON says nothing to a reader); JavaScript as the text it is. */
function EventCode({ language, context, code }: { language: string; context: string; code: string }) {
  const simple = language === 'Simple' ? parseSimple(code, context) : null;
  if (!simple || typeof simple === 'string') return <pre className="workshop-code">{code}</pre>;
  const { when, conditions, actions } = simpleSentences(simple);
  return (
    <div className="workshop-simple">
      <p>{when}</p>
      {conditions.length > 0 && (
        <ul aria-label="Conditions">
          {conditions.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a script's conditions are a fixed, ordered list.
            <li key={i}>{c}</li>
          ))}
        </ul>
      )}
      <p>It then:</p>
      <ol aria-label="Actions">
        {actions.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a script's actions are a fixed, ordered list.
          <li key={i}>{a}</li>
        ))}
      </ol>
    </div>
  );
}
