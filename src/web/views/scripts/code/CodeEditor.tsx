// A script's JavaScript field (a handler's code, or the script's Common JavaScript block). CodeMirror
// is its own chunk, fetched when the browser is idle once a page that edits scripts loads, so the
// console's first script does not carry it.

import { Suspense } from 'react';
import { lazyWhenIdle } from '../../../app/lazyPane.ts';
import type { CodePart } from './beaconCompletion.ts';

export interface CodeEditorProps {
  /** The id the field's <label htmlFor> names. */
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The script's event type (SPEC §3 Events), for completing the event's fields; null when none. */
  context: string | null;
  /** 'script' for a script's code, 'common' for its Common JavaScript block. */
  part: CodePart;
  /** Marked invalid (aria-invalid) and described by this element id, when the save was refused. */
  errorId?: string;
}

const CodeMirrorEditor = lazyWhenIdle(() =>
  import('./CodeMirrorEditor.tsx').then((m) => ({ default: m.CodeMirrorEditor })),
);

export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense
      fallback={
        <p className="code-editor-loading" role="status">
          Loading the code editor…
        </p>
      }
    >
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}
