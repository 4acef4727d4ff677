// The shell's dialogs: confirmation, information, the searchable list of every key by scope, and
// the blueprint and mod pickers.

import { useAtom } from 'jotai';
import { useState } from 'react';
import { type KeyScope, valuesInView } from '../../../commands/registry.ts';
import { keyLabels } from '../palette/keyLabels.ts';
import { ArgForm } from '../ui/ArgForm.tsx';
import { BlueprintPicker, ModPicker } from '../ui/BlueprintPicker.tsx';
import { ChooseDialog } from '../ui/ChooseDialog.tsx';
import { ConfirmDialog, Dialog, InfoDialog } from '../ui/Dialog.tsx';
import { knownValues } from '../ui/runCommand.ts';
import { useCommandRuntime } from './runtime.ts';
import { dialogAtom } from './state.ts';

const SCOPES: readonly [KeyScope, string][] = [
  ['global', 'Anywhere'],
  ['list', 'In lists'],
  ['chart', 'On a chart'],
  ['terminal', 'In the console'],
];

/** Every key of the registry, commands' and reserved ones, one table per scope. */
export function Shortcuts({ onClose }: { onClose(): void }) {
  const rt = useCommandRuntime();
  const [q, setQ] = useState('');
  const all = [
    ...rt.registry
      .all()
      .filter((c) => c.keys?.length)
      .map((c) => ({ id: c.id, title: c.title, keys: c.keys!, scope: c.scope ?? 'global' })),
    ...rt.registry.reserved(),
  ].filter((r) => `${r.title} ${r.id} ${r.keys.join(' ')}`.toLowerCase().includes(q.toLowerCase()));
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
      {SCOPES.map(([scope, caption]) => {
        const rows = all.filter((r) => r.scope === scope);
        return (
          rows.length > 0 && (
            <table key={scope} className="shortcuts">
              <caption>{caption}</caption>
              <thead>
                <tr>
                  <th>Keys</th>
                  <th>What it does</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      {r.keys.map((k) => (
                        <kbd key={k}>{keyLabels(k).join(' then ')}</kbd>
                      ))}
                    </td>
                    <td>{r.title}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        );
      })}
    </Dialog>
  );
}

/** A command as a form over its arguments; it closes once the command has run. */
function CommandForm({
  commandId,
  known,
  onClose,
}: {
  commandId: string;
  known: Record<string, unknown>;
  onClose(): void;
}) {
  const rt = useCommandRuntime();
  const cmd = rt.registry.get(commandId);
  // What the user is looking at (the server in view) fills what was not typed.
  const [initial] = useState(() =>
    cmd ? knownValues(cmd, known, valuesInView(cmd, rt.context('form'))) : {},
  );
  if (!cmd) return <InfoDialog open title={`Unknown command ${commandId}`} rows={[]} onClose={onClose} />;
  return (
    <Dialog open onClose={onClose} title={cmd.title}>
      {cmd.description && <p className="ui-dialog-message">{cmd.description}</p>}
      <ArgForm
        cmd={cmd}
        lookup={rt.entities}
        initial={initial}
        onCancel={onClose}
        onSubmit={async (values) => {
          await rt.run(cmd, values, 'form');
          onClose();
        }}
      />
    </Dialog>
  );
}

export function Dialogs() {
  const [dialog, setDialog] = useAtom(dialogAtom);
  const close = () => setDialog(null);
  if (!dialog) return null;
  if (dialog.type === 'shortcuts') return <Shortcuts onClose={close} />;
  if (dialog.type === 'form')
    return <CommandForm commandId={dialog.commandId} known={dialog.known} onClose={close} />;
  if (dialog.type === 'choose')
    return (
      <ChooseDialog
        choice={dialog.choice}
        onResult={(ref) => {
          close();
          dialog.resolve(ref);
        }}
      />
    );
  if (dialog.type === 'blueprint') {
    const done = (path: string | null) => {
      close();
      dialog.resolve(path);
    };
    return (
      <BlueprintPicker
        kind={dialog.kind}
        initialText={dialog.text}
        initialPacks={dialog.packs}
        onPick={done}
        onClose={() => done(null)}
      />
    );
  }
  if (dialog.type === 'mods') {
    const done = (packs: string[] | null) => {
      close();
      dialog.resolve(packs);
    };
    return <ModPicker selected={dialog.selected} onPick={done} onClose={() => done(null)} />;
  }
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
