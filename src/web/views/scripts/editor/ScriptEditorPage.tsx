// The script creator (/scripts/add) and editor (/scripts/{scriptId}), SPEC §2 "Script editors":
// name, description, preview, parameters, the events and features each with its own fields and
// code, the Common JavaScript block, webhooks and the tester. It is a form over script.save: a
// refused save names its field beside it and keeps every edit, and the draft outlives leaving the
// page (scriptDraft.ts). Ctrl+S saves.

import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { selectionOf } from '../../../../domain/resolver.ts';
import {
  documentOf,
  emptyDocument,
  newEvent,
  type ScriptDocument,
  type ScriptEventDoc,
  type ScriptParameter,
} from '../../../../domain/scripts/content.ts';
import { isTriggeredContext } from '../../../../domain/scripts/contexts.ts';
import { errorText } from '../../../api/http.ts';
import { useApp } from '../../../app/deps.tsx';
import { MENUS } from '../../../app/menus.ts';
import { useCommandRuntime } from '../../../app/runtime.ts';
import { Toolbar } from '../../../ui/Toolbar.tsx';
import { CodeEditor } from '../code/CodeEditor.tsx';
import { EditorList } from './EditorList.tsx';
import { EventEditor } from './EventEditor.tsx';
import { Field } from './fields.tsx';
import { type ImportChoice, ImportPanel } from './ImportPanel.tsx';
import { ParametersEditor } from './ParametersEditor.tsx';
import { saveErrors } from './saveErrors.ts';
import { draftKey, useScriptDraft } from './scriptDraft.ts';
import { TesterPanel } from './TesterPanel.tsx';
import { useWebhooks, WebhooksPanel } from './WebhooksPanel.tsx';
import './editor.css';

const eventLabel = (e: ScriptEventDoc) =>
  isTriggeredContext(e.context) ? `${e.context}: ${e.keyword ?? ''}` : e.context;

function useScript(scriptId: string | null) {
  const { api, index } = useApp();
  const q = useQuery({
    queryKey: ['script', scriptId],
    queryFn: () => api.scripts.get(scriptId!),
    enabled: scriptId !== null,
    // The draft is the user's; a refetch must not replace what they are typing.
    refetchOnWindowFocus: false,
  });
  const doc = useMemo(
    () => (q.data ? documentOf(q.data as unknown as Record<string, unknown>) : null),
    [q.data],
  );
  // The breadcrumb, the palette and the console name the script as it was saved.
  useEffect(() => {
    if (q.data)
      index.upsert([{ kind: 'script', id: q.data.scriptId, label: q.data.name, mask: q.data.permissions }]);
  }, [q.data, index]);
  return { q, doc };
}

export function ScriptEditorPage() {
  const { scriptId: raw = 'add' } = useParams();
  const scriptId = raw === 'add' ? null : raw;
  // A new key remounts the editor, so each script keeps its own draft.
  return <ScriptEditor key={raw} scriptId={scriptId} />;
}

function ScriptEditor({ scriptId }: { scriptId: string | null }) {
  const rt = useCommandRuntime();
  const { search } = useLocation();
  const { q, doc: saved } = useScript(scriptId);
  const initial = useMemo(
    () => (scriptId ? null : emptyDocument(new URLSearchParams(search).get('name') ?? '')),
    [scriptId, search],
  );
  const draft = useScriptDraft(draftKey(scriptId), scriptId ? saved : initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [eventIndex, setEventIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const [importing, setImporting] = useState(false);
  const [refusals, setRefusals] = useState(0);
  const [showEvent, setShowEvent] = useState<{ index: number } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const webhooks = useWebhooks(scriptId);
  const scriptRef = scriptId
    ? { kind: 'script' as const, id: scriptId, label: saved?.name ?? scriptId }
    : null;

  // After a refusal, the field it names has focus (its event shown first, a frame later).
  useEffect(() => {
    if (refusals === 0) return;
    const id = requestAnimationFrame(() =>
      root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );
    return () => cancelAnimationFrame(id);
  }, [refusals]);

  if (scriptId && q.error)
    return (
      <div className="se-page">
        <h1>Script</h1>
        <p role="alert">{errorText(q.error)}</p>
      </div>
    );
  const doc = draft.doc;
  if (!doc)
    return (
      <div className="se-page" aria-busy="true">
        <h1>Script</h1>
        <p>Loading…</p>
      </div>
    );

  const set = (patch: Partial<ScriptDocument>) => {
    draft.set({ ...doc, ...patch });
    if (errors.form) setErrors(({ form: _, ...rest }) => rest);
  };
  const clearError = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await rt.run(
        rt.registry.get('script.save')!,
        { script: scriptRef ?? undefined, content: JSON.stringify(doc) },
        'form',
      );
      setErrors({});
      draft.saved(doc);
      if (scriptId) void q.refetch();
    } catch (e) {
      const found = saveErrors(e);
      setErrors(found);
      const at = Object.keys(found)
        .map((f) => /^events\[(\d+)\]/.exec(f)?.[1])
        .find((i) => i !== undefined);
      if (at !== undefined) setShowEvent({ index: Number(at) });
      setRefusals((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      e.stopPropagation();
      void save();
    }
  };

  const runImport = async (source: string, onDuplicate: ImportChoice) => {
    const r = await rt.run(rt.registry.get('script.import')!, { source, onDuplicate }, 'form');
    setImporting(false);
    return r?.message ?? 'Imported.';
  };

  const event = Math.min(eventIndex, doc.events.length - 1);
  const nameError = errors.name;
  const hook = webhooks.data?.webhooks[0] ?? null;
  const otherErrors = Object.entries(errors).filter(
    ([f]) =>
      !['name', 'form', 'parameters', 'commonJavascript'].includes(f) && !f.startsWith(`events[${event}]`),
  );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+S saves from any field of the editor, as in any editor.
    <div className="se-page" ref={root} onKeyDown={onKeyDown}>
      <h1>{scriptId ? (saved?.name ?? 'Script') : 'New script'}</h1>
      {draft.restored && (
        <p className="se-notice" role="status">
          Unsaved changes from your last visit are restored.
        </p>
      )}
      <div className="se-actions">
        <button
          type="button"
          className="ui-button"
          onClick={() => void save()}
          aria-disabled={busy || undefined}
        >
          {scriptId ? 'Save' : 'Create'} <kbd className="ui-key">Ctrl S</kbd>
        </button>
        <button
          type="button"
          className="ui-button"
          onClick={() => setImporting((v) => !v)}
          aria-expanded={importing}
        >
          Import…
        </button>
        {scriptRef && (
          <Toolbar
            commandIds={MENUS.scriptEditorToolbar}
            label="Script"
            selection={selectionOf([scriptRef])}
          />
        )}
        {draft.dirty && (
          <button
            type="button"
            className="ui-button"
            onClick={() => {
              draft.discard();
              setErrors({});
            }}
          >
            Discard changes
          </button>
        )}
        <span className="se-dirty" aria-live="polite">
          {draft.dirty ? 'Unsaved changes' : scriptId ? 'Saved' : ''}
        </span>
      </div>
      {errors.form && (
        <p className="se-error" role="alert">
          {errors.form}
        </p>
      )}
      {otherErrors.map(([f, m]) => (
        <p key={f} className="se-error" role="alert">
          {f}: {m}
        </p>
      ))}
      {importing && <ImportPanel run={runImport} />}

      <section className="se-about" aria-label="About the script">
        <Field id="script-name" label="Name" error={nameError}>
          {(id, d, invalid) => (
            <input
              id={id}
              data-autofocus
              value={doc.name}
              aria-describedby={d}
              aria-invalid={invalid || undefined}
              onChange={(e) => {
                set({ name: e.target.value });
                clearError('name');
              }}
            />
          )}
        </Field>
        <Field label="Preview" help="One line shown in lists and the Workshop" error={errors.preview}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              value={doc.preview}
              onChange={(e) => set({ preview: e.target.value })}
            />
          )}
        </Field>
        <Field label="Description" help="Markdown" error={errors.description}>
          {(id, d) => (
            <textarea
              id={id}
              rows={4}
              aria-describedby={d}
              value={doc.description}
              onChange={(e) => set({ description: e.target.value })}
            />
          )}
        </Field>
      </section>

      <section aria-label="Parameters">
        <h2>Parameters</h2>
        <ParametersEditor<ScriptParameter>
          name="parameters"
          label="Parameters"
          noun="Parameter"
          rows={doc.parameters}
          withRequired={false}
          onChange={(parameters) => {
            set({ parameters });
            clearError('parameters');
          }}
          error={errors.parameters}
          errorId="script-parameters-error"
        />
      </section>

      <section aria-label="Events and features">
        <h2>Events and features</h2>
        <EditorList<ScriptEventDoc>
          name="events"
          label="Events and features"
          noun="Event"
          rows={doc.events}
          minRows={1}
          onChange={(events) => set({ events })}
          onChoose={setEventIndex}
          show={showEvent}
          newRow={() => newEvent('chat', 'Simple', false)}
          emptyText="No events: add one."
          columns={[
            { id: 'context', title: 'Context', value: (r) => eventLabel(r.row), width: '2fr' },
            { id: 'language', title: 'Language', value: (r) => r.row.language },
          ]}
          form={(e, setE, i) => (
            <EventEditor
              event={e}
              index={i}
              onChange={(x) => {
                setE(x);
                for (const f of Object.keys(errors)) if (f.startsWith(`events[${i}]`)) clearError(f);
              }}
              errors={errors}
              webhook={hook}
            />
          )}
        />
        {otherErrors.length === 0 && errors.events && (
          <p className="se-error" role="alert">
            {errors.events}
          </p>
        )}
      </section>

      <section aria-label="Common JavaScript">
        <h2>Common JavaScript</h2>
        <div className="se-field">
          <label htmlFor="script-common">Common JavaScript (shared by every JavaScript event)</label>
          <CodeEditor
            id="script-common"
            value={doc.commonJavascript}
            onChange={(commonJavascript) => set({ commonJavascript })}
            context={null}
            part="common"
            errorId={errors.commonJavascript ? 'script-common-error' : undefined}
          />
          {errors.commonJavascript && (
            <small id="script-common-error" className="se-error" role="alert">
              {errors.commonJavascript}
            </small>
          )}
        </div>
      </section>

      {scriptRef ? (
        <WebhooksPanel script={scriptRef} />
      ) : (
        <p className="se-help">Webhooks can be added once the script is created.</p>
      )}
      <TesterPanel doc={doc} event={event} onEvent={setEventIndex} />
    </div>
  );
}
