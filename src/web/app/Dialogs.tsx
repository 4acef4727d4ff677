// The shell's dialogs: confirmation, information, and the searchable list of every hotkey.

import { useAtom } from 'jotai';
import { useState } from 'react';
import { ConfirmDialog, Dialog, InfoDialog } from '../ui/Dialog.tsx';
import { useCommandRuntime } from './runtime.ts';
import { dialogAtom } from './state.ts';

/** Shows a react-hotkeys-hook key string the way people write it: `mod+k` → `Ctrl K`, `g>s` → `g s`. */
export function keyLabel(key: string): string {
  return key
    .split('>')
    .map((chord) =>
      chord
        .split('+')
        .map(
          (k) =>
            ({ mod: 'Ctrl', shift: 'Shift', alt: 'Alt', backslash: '\\', arrowleft: '←', arrowright: '→' })[
              k
            ] ?? (k.length === 1 ? k : k[0].toUpperCase() + k.slice(1)),
        )
        .join(' '),
    )
    .join(' then ');
}

function Shortcuts({ onClose }: { onClose(): void }) {
  const rt = useCommandRuntime();
  const [q, setQ] = useState('');
  const rows = rt.registry
    .all()
    .filter((c) => c.keys?.length)
    .filter((c) => `${c.title} ${c.id} ${c.keys!.join(' ')}`.toLowerCase().includes(q.toLowerCase()));
  return (
    <Dialog open onClose={onClose} title="Keyboard shortcuts">
      <input
        className="ui-input"
        aria-label="Search shortcuts"
        placeholder="Search shortcuts"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        autoFocus
      />
      <table className="shortcuts">
        <thead>
          <tr>
            <th>Keys</th>
            <th>Command</th>
            <th>Where</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td>
                {c.keys!.map((k) => (
                  <kbd key={k}>{keyLabel(k)}</kbd>
                ))}
              </td>
              <td>{c.title}</td>
              <td>{c.scope === 'list' ? 'in lists' : 'anywhere'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

export function Dialogs() {
  const [dialog, setDialog] = useAtom(dialogAtom);
  const close = () => setDialog(null);
  if (!dialog) return null;
  if (dialog.type === 'shortcuts') return <Shortcuts onClose={close} />;
  if (dialog.type === 'info')
    return <InfoDialog open title={dialog.title} rows={dialog.rows} onClose={close} />;
  return (
    <ConfirmDialog
      open
      message={dialog.message}
      onResult={(ok) => {
        close();
        dialog.resolve(ok);
      }}
    />
  );
}
