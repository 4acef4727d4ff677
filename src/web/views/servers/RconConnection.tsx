// Where Palisade connects to an RCON server and with which password (docs/servers-connecting.md),
// in the server's settings. The fields are `server.editSettings`'s own RCON arguments, so the
// form, the palette and the console check and say the same. The password is write-only: the
// field starts blank whatever is stored, says only whether one is, and blank keeps it. Only the
// owner and editors change any of it; everyone else sees why not.

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { gameKindText } from '../../../../commands/servers.ts';
import type { Service } from '../../../domain/api.ts';
import { hasAll, PERMISSION_LABELS, Perm } from '../../../domain/permissions.ts';
import { useApp } from '../../app/deps.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { describeFailure, type RunFailure } from '../../palette/prompt.ts';
import { patchService } from '../../store/services.ts';
import { ArgField, type FieldValue, parseFields } from '../../ui/ArgForm.tsx';

const FIELDS = ['rconHost', 'rconPort', 'rconPassword', 'rconGame'] as const;
type FieldName = (typeof FIELDS)[number];

const valuesOf = (s: Service): Record<FieldName, FieldValue> => ({
  rconHost: { raw: s.rconHost ?? '' },
  rconPort: { raw: s.rconPort === null ? '' : String(s.rconPort) },
  rconPassword: { raw: '' },
  rconGame: { raw: s.rconGame ?? 'detect' },
});

const PASSWORD_STATE = {
  stored: 'A password is stored. It is never shown; type a new one to replace it.',
  none: 'No password is stored.',
} as const;

export function RconConnection({ service: s }: { service: Service }) {
  const { api, index } = useApp();
  const qc = useQueryClient();
  const runtime = useCommandRuntime();
  const cmd = runtime.registry.get('server.editSettings');
  const [values, setValues] = useState(() => valuesOf(s));
  // What the fields were filled from: the server as read, then as saved.
  const [known, setKnown] = useState(s);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<RunFailure | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // After a refusal, focus goes to the first field it is about, where its message is read out.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const state = (
    <>
      <p data-testid="rcon-password-state">{PASSWORD_STATE[s.rconPasswordSet ? 'stored' : 'none']}</p>
      <p data-testid="rcon-game">Game: {gameKindText(s)}</p>
    </>
  );
  if (!cmd || !hasAll(s.permissions, Perm.EditServices))
    return (
      <section className="settings-rcon" aria-label="RCON connection">
        <h2>RCON connection</h2>
        {state}
        <p>
          Only the owner and users who may {PERMISSION_LABELS.EditServices} change where RCON connects and its
          password.
        </p>
      </section>
    );

  const change = (name: FieldName, v: FieldValue) => {
    setValues((cur) => ({ ...cur, [name]: v }));
    setErrors(({ [name]: _, ...rest }) => rest);
    setFailure(null);
    setSaved(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setFailure(null);
    setSaved(null);
    const { parsed, found } = await parseFields(FIELDS, cmd.args ?? {}, values, runtime.entities);
    setErrors(found);
    if (Object.keys(found).length > 0) return setRefusals((n) => n + 1);
    // Only what changed is sent, so the answer says what was done.
    if (parsed.rconHost === known.rconHost) delete parsed.rconHost;
    if (parsed.rconPort === known.rconPort) delete parsed.rconPort;
    if (parsed.rconGame === (known.rconGame ?? 'detect')) delete parsed.rconGame;
    if (Object.values(parsed).every((v) => v === undefined))
      return setFailure({
        summary: 'Nothing to save: type a new password, or change the host, the port or the game.',
      });
    setBusy(true);
    try {
      const result = await runtime.run(
        cmd,
        { server: { kind: 'server', id: s.serviceId, label: s.displayName }, ...parsed },
        'form',
      );
      const now = await api.services.get(s.serviceId);
      patchService(qc, index, now);
      setValues(valuesOf(now));
      setKnown(now);
      setSaved(result?.message ?? null);
    } catch (err) {
      // A refused password stays typed, beside its message, to be corrected.
      const f = describeFailure(err);
      if (f.field && (FIELDS as readonly string[]).includes(f.field)) {
        setErrors({ [f.field]: f.summary });
        setRefusals((n) => n + 1);
      } else setFailure(f);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-rcon" aria-label="RCON connection">
      <h2>RCON connection</h2>
      {state}
      <form ref={form} className="settings-form" aria-label="RCON connection" onSubmit={submit} noValidate>
        {FIELDS.map((name) => (
          <ArgField
            key={name}
            name={name}
            arg={cmd.args![name]}
            value={values[name]}
            error={errors[name]}
            lookup={runtime.entities}
            autoFocus={false}
            onChange={(v) => change(name, v)}
          />
        ))}
        {failure && (
          <p role="alert" className="settings-error">
            {failure.summary}
            {failure.reason && ` ${failure.reason}`}
          </p>
        )}
        {saved && <p role="status">{saved}</p>}
        <button type="submit" className="ui-button ui-button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save RCON connection'}
        </button>
      </form>
    </section>
  );
}
