// The editor's draft of a script, kept in the browser under the script's id (`new` for the
// creator) at every edit, so leaving the editor and coming back, a reload or a refused save never
// loses a change. It is dropped when the script is saved or the user discards it.

import { useCallback, useEffect, useState } from 'react';
import type { ScriptDocument } from '../../../../domain/scripts/content.ts';

const PREFIX = 'palisade.scriptDraft.';

/**
 * The document as the server keeps it, to compare: it answers the events ordered by context and
 * keyword, so an order the user chose is no unsaved change.
 */
export function canonical(doc: ScriptDocument | null): string {
  if (!doc) return '';
  const events = doc.events.map((e) => JSON.stringify(e)).sort();
  return JSON.stringify({ ...doc, events });
}

export const draftKey = (scriptId: string | null) => `${PREFIX}${scriptId ?? 'new'}`;

export function readDraft(key: string): ScriptDocument | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as ScriptDocument) : null;
  } catch {
    return null;
  }
}

function writeDraft(key: string, doc: ScriptDocument | null): void {
  try {
    if (doc) localStorage.setItem(key, JSON.stringify(doc));
    else localStorage.removeItem(key);
  } catch {
    // A full or blocked storage keeps the draft in memory only; the editor still holds it.
  }
}

export interface Draft {
  doc: ScriptDocument | null;
  /** The draft differs from what was saved. */
  dirty: boolean;
  /** The draft was kept from an earlier visit. */
  restored: boolean;
  set(doc: ScriptDocument): void;
  /** What the server now holds: the draft is dropped. */
  saved(doc: ScriptDocument): void;
  discard(): void;
}

/** The draft of `key`, starting from the kept one, else from `saved` once it is loaded. */
export function useScriptDraft(key: string, saved: ScriptDocument | null): Draft {
  const [kept] = useState(() => readDraft(key));
  const [doc, setDoc] = useState<ScriptDocument | null>(kept ?? saved);
  const [base, setBase] = useState<ScriptDocument | null>(saved);
  const [restored, setRestored] = useState(kept !== null);
  useEffect(() => {
    if (!saved) return;
    setBase(saved);
    setDoc((d) => d ?? saved);
  }, [saved]);
  const dirty = doc !== null && canonical(doc) !== canonical(base);
  const set = useCallback(
    (d: ScriptDocument) => {
      setDoc(d);
      writeDraft(key, d);
    },
    [key],
  );
  return {
    doc,
    dirty,
    restored: restored && dirty,
    set,
    saved: (d) => {
      writeDraft(key, null);
      setBase(d);
      setDoc(d);
      setRestored(false);
    },
    discard: () => {
      writeDraft(key, null);
      setDoc(base);
      setRestored(false);
    },
  };
}
