import { useAtom } from 'jotai';
import { type Toast, toastsAtom } from './state.ts';

/** Toasts: a summary and the reason (SPEC §8 "Product reaction"); errors are announced assertively. */
export function Toasts() {
  const [toasts, setToasts] = useAtom(toastsAtom);
  return (
    <div className="toasts">
      <div role="status" aria-live="polite" className="toasts-inner">
        {toasts
          .filter((t) => t.kind !== 'error')
          .map((t) => (
            <ToastItem key={t.id} t={t} dismiss={() => setToasts((l) => l.filter((x) => x.id !== t.id))} />
          ))}
      </div>
      <div role="alert" aria-live="assertive" className="toasts-inner">
        {toasts
          .filter((t) => t.kind === 'error')
          .map((t) => (
            <ToastItem key={t.id} t={t} dismiss={() => setToasts((l) => l.filter((x) => x.id !== t.id))} />
          ))}
      </div>
    </div>
  );
}

function ToastItem({ t, dismiss }: { t: Toast; dismiss: () => void }) {
  return (
    <div className={`toast toast-${t.kind}`}>
      <div className="toast-summary">{t.summary}</div>
      {t.reason && <div className="toast-reason">{t.reason}</div>}
      {t.action && (
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            dismiss();
            t.action?.run();
          }}
        >
          {t.action.label}
        </button>
      )}
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
