// One row of a table chosen in a dialog (`dialogs.choose`): the Revive dialog's survivors with
// their Name and Tribe. Keyboard as in every list: arrows or j/k, / filters, Enter chooses.

import type { EntityRef } from '../../../commands/args.ts';
import type { Choice } from '../../../commands/context.ts';
import { Dialog } from './Dialog.tsx';
import { type Column, VirtualList } from './VirtualList.tsx';

type Row = Choice['rows'][number];

export function ChooseDialog({
  choice,
  onResult,
}: {
  choice: Choice;
  onResult(ref: EntityRef | null): void;
}) {
  const columns: Column<Row>[] = choice.columns.map((title, i) => ({
    id: `c${i}`,
    title,
    value: (r) => r.cells[i] ?? '',
  }));
  return (
    <Dialog
      open
      onClose={() => onResult(null)}
      title={choice.title}
      actions={
        <button type="button" className="ui-button" onClick={() => onResult(null)}>
          Cancel
        </button>
      }
    >
      {choice.notice && <p className="ui-dialog-message">{choice.notice}</p>}
      <p className="ui-dialog-message">Enter chooses the row; Esc cancels.</p>
      <div className="choose-list">
        <VirtualList<Row>
          name={`choose-${choice.columns.join('-')}`}
          label={choice.title}
          rows={choice.rows}
          rowKey={(r) => r.ref.id}
          columns={columns}
          defaultSort={{ column: 'c0', direction: 'asc' }}
          emptyText={choice.emptyText}
          onOpen={(r) => onResult(r.ref)}
          initialRect={{ width: 480, height: 260 }}
        />
      </div>
    </Dialog>
  );
}
