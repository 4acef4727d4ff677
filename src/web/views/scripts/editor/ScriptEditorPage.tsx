// SKELETON (helper scripteditor replaces this file): /scripts/add (creator) and /scripts/{scriptId} (editor).
export function ScriptEditorPage() {
  return <h1>Script</h1>;
}
