// A saved script's webhooks (purpose, trigger URL, secret): add one, give one a new secret, copy
// its URL; each through its command (script.webhook.*), so the palette and console do the same.

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { EntityRef } from '../../../../../commands/args.ts';
import { errorText } from '../../../api/http.ts';
import type { ScriptWebhook } from '../../../api/sentinel.ts';
import { useApp } from '../../../app/deps.tsx';
import { useCommandRuntime } from '../../../app/runtime.ts';
import { type Column, VirtualList } from '../../../ui/VirtualList.tsx';
import { Field } from './fields.tsx';

export function useWebhooks(scriptId: string | null) {
  const { api } = useApp();
  return useQuery({
    queryKey: ['scriptWebhooks', scriptId],
    queryFn: () => api.scriptWebhooks.list(scriptId!),
    enabled: scriptId !== null,
  });
}

const COLUMNS: Column<ScriptWebhook>[] = [
  { id: 'purpose', title: 'Purpose', value: (w) => w.purpose },
  { id: 'url', title: 'Trigger URL', value: (w) => w.url, width: '3fr' },
  { id: 'secret', title: 'Secret', value: (w) => w.secret ?? '(editors only)', width: '2fr' },
];

export function WebhooksPanel({ script }: { script: EntityRef }) {
  const rt = useCommandRuntime();
  const q = useWebhooks(script.id);
  const [purpose, setPurpose] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [active, setActive] = useState<ScriptWebhook | null>(null);
  const run = async (id: string, values: Record<string, unknown>) => {
    const cmd = rt.registry.get(id)!;
    try {
      await rt.run(cmd, { script, ...values }, 'form');
      setError(undefined);
      await q.refetch();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (await run('script.webhook.create', { purpose })) setPurpose('');
  };
  return (
    <section className="se-webhooks" aria-label="Webhooks">
      <h3>Webhooks</h3>
      <VirtualList<ScriptWebhook>
        name="script-webhooks"
        label="Webhooks"
        rows={q.data?.webhooks ?? []}
        rowKey={(w) => w.webhookId}
        columns={COLUMNS}
        loading={q.isPending}
        error={q.error ? errorText(q.error) : null}
        emptyText="No webhooks yet."
        onSelectionChange={(_m, a) => setActive(a)}
        initialRect={{ width: 600, height: 100 }}
        toolbar={
          <>
            <button
              type="button"
              className="ui-button"
              disabled={!active}
              onClick={() => active && void run('script.webhook.copyUrl', { webhook: active.webhookId })}
            >
              Copy URL
            </button>
            <button
              type="button"
              className="ui-button"
              disabled={!active}
              onClick={() => active && void run('script.webhook.rotateSecret', { webhook: active.webhookId })}
            >
              New secret
            </button>
          </>
        }
      />
      <form className="se-inline-form" onSubmit={add}>
        <Field label="Purpose of a new webhook" error={error}>
          {(id, d, invalid) => (
            <input
              id={id}
              value={purpose}
              aria-describedby={d}
              aria-invalid={invalid || undefined}
              onChange={(e) => setPurpose(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="ui-button">
          Add webhook
        </button>
      </form>
    </section>
  );
}
