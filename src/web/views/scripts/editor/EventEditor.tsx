// One event or feature of a script: its context (a game event, or what triggers it by name), its
// language, the kind's own fields (menu text, command keyword and arguments with their syntax and
// an example, subroutine name and arguments, cron schedule, webhook name, parameters and example
// code) and its code, Simple or JavaScript.

import { useRef } from 'react';
import {
  newEvent,
  type ScriptArgumentSpec,
  type ScriptEventDoc,
  type ScriptLanguage,
} from '../../../../domain/scripts/content.ts';
import {
  CONTEXT_NAMES,
  CONTEXTS,
  isTriggeredContext,
  RCON_CONTEXTS,
} from '../../../../domain/scripts/contexts.ts';
import type { ScriptWebhook } from '../../../api/sentinel.ts';
import { CodeEditor } from '../code/CodeEditor.tsx';
import { CronField } from './CronField.tsx';
import { Field } from './fields.tsx';
import { ParametersEditor } from './ParametersEditor.tsx';
import { SimpleEditor } from './SimpleEditor.tsx';
import { webhookExample } from './webhookExample.ts';

const KEYWORD_LABEL: Record<string, string> = {
  cron: 'Schedule',
  webhook: 'Webhook name',
  subroutine: 'Subroutine name',
  scriptCommand: 'Command keyword',
  slashCommand: 'Command keyword',
  serviceScriptRun: 'Menu item text',
  characterScriptRun: 'Menu item text',
  dinoScriptRun: 'Menu item text',
  tribeScriptRun: 'Menu item text',
  customModEvent: 'Event name',
};

const GAME_EVENTS = CONTEXT_NAMES.filter((c) => !isTriggeredContext(c));
const TRIGGERED = CONTEXT_NAMES.filter((c) => isTriggeredContext(c));

const argWord = (a: ScriptArgumentSpec) => (a.required ? `<${a.name}>` : `[${a.name}]`);
const exampleWord = (a: ScriptArgumentSpec) =>
  a.default !== null && a.default !== ''
    ? String(a.default)
    : a.type === 'Number'
      ? '5'
      : a.type === 'Boolean'
        ? 'true'
        : a.name;

/** How a player types the command, and an example with the defaults filled in. */
/** What starts the context, and whether a server connected over RCON can (docs/servers-connecting.md). */
function contextHelp(context: string): string | undefined {
  const description = CONTEXTS[context]?.description;
  if (!description || RCON_CONTEXTS.has(context)) return description;
  return `${description} Only the Sentinel mod reports it: on a server connected over RCON it never runs.`;
}

export function commandSyntax(context: string, keyword: string, args: readonly ScriptArgumentSpec[]) {
  const lead = context === 'slashCommand' ? `/${keyword}` : `cheat scriptcommand ${keyword}`;
  return {
    syntax: [lead, ...args.map(argWord)].join(' '),
    example: [lead, ...args.map(exampleWord)].join(' '),
  };
}

export interface EventEditorProps {
  event: ScriptEventDoc;
  index: number;
  onChange(e: ScriptEventDoc): void;
  /** Messages of a refused save by field path (`events[0].keyword`). */
  errors: Record<string, string>;
  webhook: ScriptWebhook | null;
}

export function EventEditor({ event: e, index, onChange, errors, webhook }: EventEditorProps) {
  const at = `events[${index}]`;
  const err = (f: string) => errors[`${at}.${f}`];
  const errId = (f: string) => `script-event-${index}-${f}-error`;
  // Switching language keeps the other language's code, so switching back loses nothing.
  const stash = useRef<Partial<Record<ScriptLanguage, string>>>({});
  const triggered = isTriggeredContext(e.context);
  const setContext = (context: string) => {
    const t = isTriggeredContext(context);
    onChange({
      ...e,
      context,
      keyword: t ? (e.keyword ?? (context === 'cron' ? '*/15 * * * *' : '')) : null,
      arguments: t ? (e.arguments ?? []) : null,
    });
  };
  const setLanguage = (language: ScriptLanguage) => {
    stash.current[e.language] = e.code;
    onChange({ ...e, language, code: stash.current[language] ?? newEvent(e.context, language, false).code });
  };
  const keyword = e.keyword ?? '';
  const args = e.arguments ?? [];
  const isCommand = e.context === 'scriptCommand' || e.context === 'slashCommand';
  const command = isCommand ? commandSyntax(e.context, keyword || 'keyword', args) : null;

  return (
    <section className="se-event" aria-label={`Event ${index + 1}`}>
      <div className="se-grid3">
        <Field label="Context" help={contextHelp(e.context)} error={err('context')}>
          {(id, d, invalid) => (
            <select
              id={id}
              value={e.context}
              aria-describedby={d}
              aria-invalid={invalid || undefined}
              onChange={(ev) => setContext(ev.target.value)}
            >
              <optgroup label="Game events">
                {GAME_EVENTS.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </optgroup>
              <optgroup label="Triggered">
                {TRIGGERED.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </optgroup>
            </select>
          )}
        </Field>
        <fieldset className="se-language" aria-describedby={err('language') ? errId('language') : undefined}>
          <legend>Language</legend>
          {(['Simple', 'JavaScript'] as const).map((l) => (
            <label key={l}>
              <input
                type="radio"
                name={`language-${index}`}
                checked={e.language === l}
                onChange={() => setLanguage(l)}
              />{' '}
              {l}
            </label>
          ))}
          {err('language') && (
            <small className="se-error" id={errId('language')} role="alert">
              {err('language')}
            </small>
          )}
        </fieldset>
      </div>

      {triggered &&
        (e.context === 'cron' ? (
          <CronField
            expression={keyword}
            onChange={(k) => onChange({ ...e, keyword: k })}
            error={err('keyword')}
          />
        ) : (
          <Field
            label={KEYWORD_LABEL[e.context] ?? 'Keyword'}
            help={CONTEXTS[e.context]?.keyword}
            error={err('keyword')}
          >
            {(id, d, invalid) => (
              <input
                id={id}
                value={keyword}
                aria-describedby={d}
                aria-invalid={invalid || undefined}
                onChange={(ev) => onChange({ ...e, keyword: ev.target.value })}
              />
            )}
          </Field>
        ))}
      {triggered && e.context !== 'cron' && (
        <>
          <h4>{e.context === 'webhook' ? 'Parameters' : 'Arguments'}</h4>
          <ParametersEditor<ScriptArgumentSpec>
            name="arguments"
            label={e.context === 'webhook' ? 'Webhook parameters' : 'Arguments'}
            noun={e.context === 'webhook' ? 'Parameter' : 'Argument'}
            rows={args}
            withRequired
            onChange={(a) => onChange({ ...e, arguments: a })}
            error={err('arguments')}
            errorId={errId('arguments')}
          />
        </>
      )}
      {command && (
        <dl className="se-syntax">
          <dt>Syntax</dt>
          <dd>
            <code>{command.syntax}</code>
          </dd>
          <dt>Example</dt>
          <dd>
            <code>{command.example}</code>
          </dd>
        </dl>
      )}
      {e.context === 'webhook' && (
        <div className="se-example">
          <h4>Example code</h4>
          {webhook ? (
            <pre>{webhookExample(webhook, keyword || 'name', args)}</pre>
          ) : (
            <p>Add a webhook to the script (Webhooks, below) to see a call signed with its secret.</p>
          )}
        </div>
      )}

      <h4>{e.language === 'Simple' ? 'Conditions and actions' : 'Code'}</h4>
      {e.language === 'Simple' ? (
        <SimpleEditor
          context={e.context}
          code={e.code}
          onChange={(code) => onChange({ ...e, code })}
          error={err('code')}
          errorId={errId('code')}
        />
      ) : (
        <div className="se-field">
          <label htmlFor={`script-event-${index}-code`}>JavaScript code</label>
          <CodeEditor
            id={`script-event-${index}-code`}
            value={e.code}
            onChange={(code) => onChange({ ...e, code })}
            context={e.context}
            part="script"
            errorId={err('code') ? errId('code') : undefined}
          />
          {err('code') && (
            <small className="se-error" id={errId('code')} role="alert">
              {err('code')}
            </small>
          )}
        </div>
      )}
    </section>
  );
}
