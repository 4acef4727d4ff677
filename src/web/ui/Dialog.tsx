// Modal dialogs over Headless UI's Dialog, which traps focus, closes on Esc and gives focus
// back to where it was. The shell shows `dialogs.confirm` and `dialogs.info` with these.

import { DialogPanel, DialogTitle, Dialog as HeadlessDialog } from '@headlessui/react';
import { type ReactNode, useState } from 'react';

export interface DialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  /** Buttons at the bottom, in reading order. */
  actions?: ReactNode;
}

export function Dialog({ open, onClose, title, children, actions }: DialogProps) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="ui-dialog-root">
      <div className="ui-dialog-backdrop" aria-hidden="true" />
      <div className="ui-dialog-frame">
        <DialogPanel className="ui-dialog">
          <DialogTitle className="ui-dialog-title">{title}</DialogTitle>
          <div className="ui-dialog-body">{children}</div>
          {actions && <div className="ui-dialog-actions">{actions}</div>}
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  message: string;
  title?: string;
  confirmLabel?: string;
  danger?: boolean;
  /** true when confirmed; false on Cancel, Esc or a click outside. */
  onResult(ok: boolean): void;
}

export function ConfirmDialog({
  open,
  message,
  title = 'Are you sure?',
  confirmLabel = 'OK',
  danger = false,
  onResult,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={() => onResult(false)}
      title={title}
      actions={
        <>
          <button type="button" className="ui-button" onClick={() => onResult(false)}>
            Cancel
          </button>
          <button
            type="button"
            className={`ui-button ui-button-primary${danger ? ' ui-button-danger' : ''}`}
            onClick={() => onResult(true)}
            autoFocus
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="ui-dialog-message">{message}</p>
    </Dialog>
  );
}

export interface InfoDialogProps {
  open: boolean;
  title: string;
  rows: readonly (readonly [string, string])[];
  onClose(): void;
  /** Defaults to the system clipboard. */
  copy?(text: string): Promise<void>;
}

const clipboardCopy = (text: string) => navigator.clipboard.writeText(text);

export function InfoDialog({ open, title, rows, onClose, copy = clipboardCopy }: InfoDialogProps) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      actions={
        <button type="button" className="ui-button ui-button-primary" onClick={onClose} autoFocus>
          Close
        </button>
      }
    >
      <dl className="ui-info">
        {rows.map(([key, value]) => (
          <div key={key} className="ui-info-row">
            <dt>{key}</dt>
            <dd>
              {value === '' ? (
                // Nothing to copy: said in words, with no button that would copy nothing.
                <span className="ui-info-none">None</span>
              ) : (
                <>
                  <code className="ui-info-value">{value}</code>
                  <button
                    type="button"
                    className="ui-button ui-button-small"
                    aria-label={`Copy ${key}`}
                    onClick={() =>
                      copy(value).then(
                        () => setCopied(key),
                        () => setCopied(null),
                      )
                    }
                  >
                    {copied === key ? 'Copied' : 'Copy'}
                  </button>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
