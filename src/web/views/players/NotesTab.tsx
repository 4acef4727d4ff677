// A player's notes, newest first, with their edit history (SPEC §3, §5, §6). Notes are added and
// edited through player.addNote / player.editNote; the form here is a view of their Note
// argument: it checks with the same rule, and a refused draft stays as typed.

import { useState } from 'react';
import { formatTime } from '../../../domain/format.ts';
import type { PlayerNote } from '../../../domain/players.ts';
import { noteContent } from '../../../domain/validate.ts';
import { useCommandRuntime } from '../../app/runtime.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';

const columns: Column<PlayerNote>[] = [
  { id: 'content', title: 'Note', value: (n) => n.content, width: '50%' },
  { id: 'author', title: 'Author', value: (n) => n.usernameFull },
  {
    id: 'dateCreated',
    title: 'Posted',
    value: (n) => n.dateCreated,
    render: (n) => formatTime(n.dateCreated),
  },
  {
    id: 'edited',
    title: 'Edited',
    value: (n) => (n.edits.length ? n.dateModified : null),
    render: (n) => (n.edits.length ? `${formatTime(n.dateModified)} (${n.edits.length}×)` : ''),
  },
];

type Editing = { note: PlayerNote | null } | null;

export function NotesTab({ playerId }: { playerId: string }) {
  const list = usePagedList({ of: 'playerNotes', params: { playerId } });
  const [editing, setEditing] = useState<Editing>(null);
  const [active, setActive] = useState<PlayerNote | null>(null);

  return (
    <div className="tab-panel">
      {editing ? (
        <NoteEditor playerId={playerId} note={editing.note} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" className="ui-button" onClick={() => setEditing({ note: null })}>
          Add note
        </button>
      )}
      <VirtualList<PlayerNote>
        {...list.view}
        name="player-notes"
        label="Notes"
        rowKey={(n) => n.noteId}
        columns={columns}
        defaultSort={{ column: 'dateCreated', direction: 'desc' }}
        emptyText="No notes yet. Notes are seen by every moderator and are never deleted."
        onOpen={(n) => setEditing({ note: n })}
        onSelectionChange={(_m, a) => setActive(a)}
      />
      {active && active.edits.length > 0 && (
        <section className="note-history" aria-label="Edit history">
          <h3>Earlier versions</h3>
          <ol>
            {active.edits.map((e) => (
              <li key={e.previousTimestamp}>
                <time>{formatTime(e.previousTimestamp)}</time> {e.previousContent}
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}

function NoteEditor({
  playerId,
  note,
  onDone,
}: {
  playerId: string;
  note: PlayerNote | null;
  onDone(): void;
}) {
  const runtime = useCommandRuntime();
  const [draft, setDraft] = useState(note?.content ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const problem = noteContent(draft);
    if (problem) return setError(problem);
    const cmd = runtime.registry.get(note ? 'player.editNote' : 'player.addNote');
    if (!cmd) return setError('Notes are not available.');
    setBusy(true);
    try {
      await runtime.run(
        cmd,
        note
          ? { note: note.noteId, content: draft }
          : { player: { kind: 'player', id: playerId, label: playerId }, content: draft },
        'toolbar',
      );
      onDone();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="note-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        {note ? 'Edit note' : 'New note'}
        <textarea
          className="ui-input"
          aria-label="Note"
          value={draft}
          autoFocus
          rows={3}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              onDone();
            }
          }}
        />
      </label>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={busy}>
        Save <kbd>Ctrl Enter</kbd>
      </button>
      <button type="button" className="ui-button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
