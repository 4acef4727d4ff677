// SKELETON (helper jseditor replaces this file with CodeMirror 6; the props are the contract).
export interface CodeEditorProps {
  /** The id the field's <label htmlFor> names. */
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The script's event type (SPEC §3 Events), for completing the event's fields; null when none. */
  context: string | null;
  /** 'script' for a script's code, 'common' for its Common JavaScript block. */
  role: 'script' | 'common';
  /** Marked invalid (aria-invalid) and described by this element id, when the save was refused. */
  errorId?: string;
}

export function CodeEditor({ id, value, onChange, errorId }: CodeEditorProps) {
  return (
    <textarea
      id={id}
      value={value}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
