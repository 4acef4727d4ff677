// Server settings (SPEC §3, §5): every field of src/domain/serverSettings.ts with its rule, checked
// before saving and shown beside the field; a refusal from the server lands beside its field too.
// What was typed stays as typed until it is saved, whatever the server or live updates say.

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { permissionRefusal } from '../../../../commands/registry.ts';
import type { Service } from '../../../domain/api.ts';
import { API_COLORS } from '../../../domain/enums.ts';
import {
  currentSetting,
  parseSetting,
  SERVER_SETTINGS,
  type ServerSetting,
  type SettingValue,
  settingsPatch,
  settingText,
} from '../../../domain/serverSettings.ts';
import { ApiError, errorText } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { pushToast } from '../../app/state.ts';
import { patchService } from '../../store/services.ts';
import { PushNotificationsSetting } from './PushNotifications.tsx';
import { RconConnection } from './RconConnection.tsx';

type Texts = Record<string, string>;

const textsOf = (s: Service): Texts =>
  Object.fromEntries(SERVER_SETTINGS.map((d) => [d.key, settingText(currentSetting(s, d))]));

function Field({
  def,
  value,
  error,
  onChange,
}: {
  def: ServerSetting;
  value: string;
  error?: string;
  onChange(v: string): void;
}) {
  const id = useId();
  const described = [def.help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: def.key,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described,
  } as const;
  const input =
    def.kind === 'bool' ? (
      <input
        {...common}
        type="checkbox"
        checked={value === 'yes'}
        onChange={(e) => onChange(e.target.checked ? 'yes' : 'no')}
      />
    ) : def.kind === 'color' ? (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        {API_COLORS.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    ) : (
      <input
        {...common}
        type="text"
        inputMode={def.kind === 'int' ? 'numeric' : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  return (
    <div className={`settings-field settings-${def.kind}`}>
      <label htmlFor={id}>{def.label}</label>
      {input}
      {def.help && (
        <small id={`${id}-help`} className="settings-help">
          {def.help}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="settings-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function ServerSettings({ service }: { service: Service }) {
  const { api, index, store } = useApp();
  const qc = useQueryClient();
  const [texts, setTexts] = useState<Texts>(() => textsOf(service));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const focusField = (key: string) => (form.current?.elements.namedItem(key) as HTMLElement | null)?.focus();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const values: Record<string, SettingValue> = {};
    const found: Record<string, string> = {};
    for (const def of SERVER_SETTINGS) {
      const r = parseSetting(def, texts[def.key] ?? '');
      if (r.ok) values[def.key] = r.value;
      else found[def.key] = r.error;
    }
    setErrors(found);
    setFormError(null);
    const first = SERVER_SETTINGS.find((d) => found[d.key]);
    if (first) {
      focusField(first.key);
      return;
    }
    setSaving(true);
    try {
      const saved = await api.services.patch(service.serviceId, settingsPatch(service, values));
      patchService(qc, index, saved);
      setTexts(textsOf(saved));
      pushToast(store, 'success', `Settings of ${saved.displayName} saved.`);
    } catch (err) {
      const field = err instanceof ApiError ? (err.details as { field?: string } | null)?.field : undefined;
      if (field && SERVER_SETTINGS.some((d) => d.key === field)) {
        setErrors({ [field]: err instanceof Error ? err.message : String(err) });
        focusField(field);
      } else setFormError(errorText(permissionRefusal(err)));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="server-settings">
      <form ref={form} className="settings-form" aria-label="Server settings" onSubmit={submit} noValidate>
        <p className="settings-readonly">
          Server browser name <strong>{service.name}</strong> · cluster id <code>{service.clusterId}</code>
        </p>
        {SERVER_SETTINGS.map((def) => (
          <Field
            key={def.key}
            def={def}
            value={texts[def.key] ?? ''}
            error={errors[def.key]}
            onChange={(v) => setTexts((t) => ({ ...t, [def.key]: v }))}
          />
        ))}
        {formError && (
          <p role="alert" className="settings-error">
            {formError}
          </p>
        )}
        <button type="submit" className="ui-button ui-button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
      </form>
      {service.connectionKind === 'rcon' && <RconConnection service={service} />}
      <PushNotificationsSetting serviceId={service.serviceId} label={service.displayName} />
    </div>
  );
}
