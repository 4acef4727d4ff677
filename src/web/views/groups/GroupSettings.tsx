// A group's settings (SPEC §3 Group, §5): name (at least 3 characters), colour, chat forwarding and
// the community invite code, checked before saving and saved through group.editSettings; and the
// chat-community link in each state of SPEC §4 with its link and unlink commands.

import { type FormEvent, useId, useRef, useState } from 'react';
import { CommandError } from '../../../../commands/registry.ts';
import type { Group } from '../../../domain/api.ts';
import { COLOR_CHOICES, type ColorChoice, fromApiColor } from '../../../domain/enums.ts';
import { COMMUNITY_LINK_LABELS, communityLinkState, forwardsToCommunity } from '../../../domain/groups.ts';
import { selectionOf } from '../../../domain/resolver.ts';
import { groupName } from '../../../domain/validate.ts';
import { errorText } from '../../api/http.ts';
import { MENUS } from '../../app/menus.ts';
import { useCommandRuntime } from '../../app/runtime.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';

interface Draft {
  name: string;
  color: ColorChoice;
  chatForwarding: boolean;
  invite: string;
}

const draftOf = (g: Group): Draft => ({
  name: g.name,
  color: fromApiColor(g.color),
  chatForwarding: g.enableGroupChat,
  invite: g.discordInviteCode ?? '',
});

function CommunityLink({ group }: { group: Group }) {
  const state = communityLinkState(group);
  return (
    <section className="group-community" aria-label="Chat community">
      <h3>Chat community</h3>
      <p>
        State: <strong data-testid="community-state">{COMMUNITY_LINK_LABELS[state]}</strong>
        {state === 'codeRequested' && (
          <>
            {' '}
            · link code <code data-testid="link-code">{group.discordLinkCode}</code>: give it to the
            community’s bot (<code>/link {group.discordLinkCode}</code>).
          </>
        )}
        {state === 'linked' && <> · {group.discordGuildName ?? group.discordGuildId}</>}
      </p>
      <p className="settings-help">
        {forwardsToCommunity(group)
          ? 'Group chat is forwarded to the community.'
          : 'Chat reaches the community when chat forwarding is on and the community is linked.'}
      </p>
      <Toolbar
        commandIds={state === 'linked' ? MENUS.groupUnlinkCommunity : MENUS.groupLinkCommunity}
        label="Chat community"
        selection={selectionOf([{ kind: 'group', id: group.groupId, label: group.name }])}
      />
    </section>
  );
}

export function GroupSettings({ group }: { group: Group }) {
  const runtime = useCommandRuntime();
  const ids = useId();
  const form = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(group));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const focus = (k: string) => (form.current?.elements.namedItem(k) as HTMLElement | null)?.focus();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const short = groupName(draft.name);
    setErrors(short ? { name: short } : {});
    if (short) return focus('name');
    const cmd = runtime.registry.get('group.editSettings');
    if (!cmd) return;
    setSaving(true);
    try {
      await runtime.run(
        cmd,
        { group: { kind: 'group', id: group.groupId, label: group.name }, ...draft },
        'form',
      );
    } catch (err) {
      const field = err instanceof CommandError ? err.field : undefined;
      if (field && field in draft) {
        setErrors({ [field]: errorText(err) });
        focus(field);
      } else setFormError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  const describe = (k: keyof Draft) =>
    errors[k] ? { 'aria-invalid': true, 'aria-describedby': `${ids}-${k}-error` } : {};
  const error = (k: keyof Draft) =>
    errors[k] && (
      <p id={`${ids}-${k}-error`} role="alert" className="settings-error">
        {errors[k]}
      </p>
    );

  return (
    <div className="group-settings">
      <form ref={form} className="settings-form" aria-label="Group settings" onSubmit={submit} noValidate>
        <div className="settings-field">
          <label htmlFor={`${ids}-name`}>Name</label>
          <input
            id={`${ids}-name`}
            name="name"
            type="text"
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
            {...describe('name')}
          />
          {error('name')}
        </div>
        <div className="settings-field">
          <label htmlFor={`${ids}-color`}>Colour</label>
          <select
            id={`${ids}-color`}
            name="color"
            value={draft.color}
            onChange={(e) => set('color', e.target.value as ColorChoice)}
          >
            {COLOR_CHOICES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="settings-field settings-bool">
          <label htmlFor={`${ids}-chat`}>Chat forwarding</label>
          <input
            id={`${ids}-chat`}
            name="chatForwarding"
            type="checkbox"
            checked={draft.chatForwarding}
            aria-describedby={`${ids}-chat-help`}
            onChange={(e) => set('chatForwarding', e.target.checked)}
          />
          <small id={`${ids}-chat-help`} className="settings-help">
            Relay players’ chat on one server to the group’s other servers (never anonymous players’).
          </small>
        </div>
        <div className="settings-field">
          <label htmlFor={`${ids}-invite`}>Community invite code</label>
          <input
            id={`${ids}-invite`}
            name="invite"
            type="text"
            value={draft.invite}
            onChange={(e) => set('invite', e.target.value)}
            {...describe('invite')}
          />
          {error('invite')}
        </div>
        {formError && (
          <p role="alert" className="settings-error">
            {formError}
          </p>
        )}
        <button type="submit" className="ui-button ui-button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save group'}
        </button>
      </form>
      <CommunityLink group={group} />
    </div>
  );
}
