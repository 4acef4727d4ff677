// The chat of a server or a group (SPEC §2 "Chat view"): a message box whose draft survives
// reloads, then the live lines newest first under it, translated or original, source, where it
// was said (a group's server; a relayed line's origin), survivor name (Loading, then the name, or
// Survivor), whom a line was said to when not everyone, and the moderation scores that matter,
// graded by colour, with a score filter. A group's chat shows a line sent to the whole group
// once, with every server it reached.

import { useQuery } from '@tanstack/react-query';
import { useAtom, useAtomValue } from 'jotai';
import { type FormEvent, useId, useMemo, useState } from 'react';
import type { CHAT_MODES } from '../../../../commands/chat.ts';
import { channelFor, type LogMessage, RealtimeEvent } from '../../../domain/api.ts';
import { MODERATION_SCORES } from '../../../domain/enums.ts';
import type { FlagMark } from '../../../domain/flags.ts';
import { formatClockTime } from '../../../domain/format.ts';
import { ApiError, errorText } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { logCursor } from '../../store/logOrder.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { prefAtoms, setStoredChatMessage } from '../../store/prefs.ts';
import { valueWidth } from '../../ui/columns.ts';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { WIDEST_TIME } from '../logs/logRef.ts';
import { FlaggedName } from '../players/FlagChips.tsx';
import { useFlagsByPlayer } from '../players/myFlags.ts';
import {
  chatSource,
  chatText,
  groupChatLines,
  matchesScores,
  notableScores,
  parseScoreFilter,
  recipientOf,
  SCORE_LABELS,
  senderOf,
} from './chatMessage.ts';
import { playChatTone } from './chatSound.ts';
import './chat.css';

export interface ChatViewProps {
  serviceId?: string;
  groupId?: string;
  /** The server's or group's name, for the message box and messages. */
  label: string;
}

function SurvivorName({ characterId }: { characterId: string }) {
  const { api } = useApp();
  const q = useQuery({
    queryKey: ['character', characterId],
    queryFn: () => api.characters.get(characterId),
    retry: false,
    staleTime: 300_000,
  });
  if (q.isPending) return <span className="muted">Loading</span>;
  return <>{q.data?.characterName ?? 'Survivor'}</>;
}

/** The server a line was said on: its own, or for a relayed line the one it came from. */
const originOf = (m: LogMessage): string =>
  typeof m.metadata.originName === 'string' ? m.metadata.originName : '';

/**
 * One score badge a row, the highest: a second one took room the message needs, and a person
 * reads the worst score first. The rest are counted after it, listed in its tooltip and read out.
 */
const SCORES_SHOWN = 1;

/**
 * Room for the widest badge and the count after it ("Identifiable 0.91 +8"), bold as a high score
 * is: a badge's padding, border and gap (chat.css) are 14px. A letter of the badge's small bold
 * font averages 0.8 of the list's `ch` (a digit of its regular font) in the common UI fonts; 0.85
 * leaves a little over.
 */
const SCORES_WIDTH = (() => {
  const widest = Object.values(SCORE_LABELS)
    .map((label) => `${label} 0.00`)
    .sort((a, b) => b.length - a.length)
    .slice(0, SCORES_SHOWN);
  const count = `+${MODERATION_SCORES.length - SCORES_SHOWN}`;
  const letters = widest.join('').length + count.length;
  return `calc(${Math.ceil(letters * 0.85)}ch + ${SCORES_SHOWN * 14 + 12}px)`;
})();

function columnsFor(
  translated: boolean,
  ofGroup: boolean,
  flags: ReadonlyMap<string, readonly FlagMark[]>,
): Column<LogMessage>[] {
  return [
    {
      id: 'time',
      title: 'Time',
      value: (m) => m.time,
      render: (m) => formatClockTime(m.time),
      width: valueWidth(formatClockTime(WIDEST_TIME)),
    },
    {
      id: 'sender',
      title: 'Sender',
      value: senderOf,
      // The caller's flags on the player who said it, beside the name.
      render: (m) => (
        <FlaggedName
          name={senderOf(m)}
          flags={typeof m.metadata.playerId === 'string' ? flags.get(m.metadata.playerId) : undefined}
        />
      ),
      width: '8rem',
    },
    {
      id: 'survivor',
      title: 'Survivor',
      value: (m) => (typeof m.metadata.characterId === 'string' ? m.metadata.characterId : null),
      render: (m) =>
        typeof m.metadata.characterId === 'string' ? (
          <SurvivorName characterId={m.metadata.characterId} />
        ) : (
          '—'
        ),
      width: '7rem',
    },
    {
      id: 'source',
      title: 'Source',
      // A relayed line says where it was said: "Game, from Scorched PvP".
      value: (m) => (originOf(m) ? `${chatSource(m)}, from ${originOf(m)}` : chatSource(m)),
      width: '6rem',
    },
    ...(ofGroup
      ? [{ id: 'server', title: 'Server', value: (m: LogMessage) => m.serviceDisplayName, width: '9rem' }]
      : []),
    {
      id: 'scores',
      title: 'Scores',
      value: (m) => notableScores(m)[0]?.value ?? 0,
      render: (m) => {
        const notable = notableScores(m);
        if (notable.length === 0) return <span className="muted">—</span>;
        const all = notable.map(({ score, value }) => `${SCORE_LABELS[score]} ${value.toFixed(2)}`);
        return (
          <span title={all.join(', ')}>
            {notable.slice(0, SCORES_SHOWN).map(({ score, value, high }) => (
              <span key={score} className={`chat-score ${high ? 'chat-score-high' : 'chat-score-notable'}`}>
                {SCORE_LABELS[score]} {value.toFixed(2)}
              </span>
            ))}
            {notable.length > SCORES_SHOWN && (
              <>
                <span className="muted" aria-hidden="true">
                  +{notable.length - SCORES_SHOWN}
                </span>
                <span className="visually-hidden">also {all.slice(SCORES_SHOWN).join(', ')}</span>
              </>
            )}
          </span>
        );
      },
      width: SCORES_WIDTH,
    },
    // Last, taking the room the others leave: the line itself is what is read. A line said to one
    // survivor or tribe (a script's reply) is marked so, not read as a public message.
    {
      id: 'message',
      title: 'Message',
      value: (m) => chatText(m, translated),
      render: (m) => {
        const to = recipientOf(m);
        return (
          <>
            {to !== 'Everyone' && <span className="chat-private">To {to.toLowerCase()} only: </span>}
            {chatText(m, translated)}
          </>
        );
      },
      width: 'minmax(16rem, 1fr)',
    },
  ];
}

export function ChatView({ serviceId, groupId, label }: ChatViewProps) {
  const { realtime } = useApp();
  const runtime = useCommandRuntime();
  const ids = useId();
  const targetId = serviceId ?? groupId ?? '';
  const [translated, setTranslated] = useAtom(prefAtoms.showTranslatedChat);
  const [sounds, setSounds] = useAtom(prefAtoms.playChatSounds);
  const drafts = useAtomValue(prefAtoms.storedChatMessage);
  const draft = drafts[targetId] ?? '';
  const [mode, setMode] = useState<(typeof CHAT_MODES)[number]>('silent');
  const [scoreText, setScoreText] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [sent, setSent] = useState('');
  const [sending, setSending] = useState(false);

  const list = usePagedList({
    of: 'logMessages',
    params: { serviceId, groupId, eventName: 'chat', sortDirection: 'descending' },
    cursor: logCursor,
  });
  // A line too large for Pusher comes as `logsUpdated`: the catch-up brings it like any other.
  useLiveRefetch(realtime, {
    channels: serviceId
      ? [channelFor('services', serviceId)]
      : groupId
        ? [channelFor('groups', groupId)]
        : [],
    events: { [RealtimeEvent.chatMessage]: true, [RealtimeEvent.logsUpdated]: true },
    on: {
      [RealtimeEvent.chatMessage]: () => {
        if (sounds) playChatTone();
      },
    },
    refetch: list.refetch,
  });

  const filter = useMemo(() => parseScoreFilter(scoreText), [scoreText]);
  const rows = useMemo(() => {
    const lines = groupId ? groupChatLines(list.rows) : list.rows;
    return filter.ok ? lines.filter((m) => matchesScores(m, filter.conditions)) : lines;
  }, [list.rows, filter, groupId]);
  const filtering = filter.ok && filter.conditions.length > 0;
  const flags = useFlagsByPlayer();
  const columns = useMemo(
    () => columnsFor(translated, groupId !== undefined, flags),
    [translated, groupId, flags],
  );

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const cmd = runtime.registry.get('chat.send');
    if (!cmd || sending) return;
    setSending(true);
    setSendError(null);
    setSent('');
    try {
      await runtime.run(
        cmd,
        {
          target: { kind: serviceId ? 'server' : 'group', id: targetId, label },
          message: draft,
          mode,
        },
        'toolbar',
        // Said here, under the box, not in a toast over the Send button.
        { shownHere: true },
      );
      setStoredChatMessage(targetId, '');
      setSent(`Sent to ${label}.`);
    } catch (err) {
      setSendError(err instanceof ApiError ? errorText(err) : (err as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="chat-view">
      <fieldset className="chat-options">
        <legend className="chat-legend">Chat options</legend>
        <label>
          <input type="checkbox" checked={translated} onChange={(e) => setTranslated(e.target.checked)} />{' '}
          Translated
        </label>
        <label>
          <input type="checkbox" checked={sounds} onChange={(e) => setSounds(e.target.checked)} /> Chat sounds
        </label>
        <label htmlFor={`${ids}-scores`}>Score filter</label>
        <input
          id={`${ids}-scores`}
          type="text"
          placeholder="hate > 0.5"
          value={scoreText}
          aria-invalid={filter.ok ? undefined : true}
          aria-describedby={filter.ok ? undefined : `${ids}-scores-error`}
          onChange={(e) => setScoreText(e.target.value)}
        />
        {!filter.ok && (
          <span id={`${ids}-scores-error`} role="alert" className="settings-error">
            {filter.error}
          </span>
        )}
      </fieldset>
      <form className="chat-box" aria-label={`Send chat to ${label}`} onSubmit={send}>
        <label htmlFor={`${ids}-message`}>Message</label>
        <input
          id={`${ids}-message`}
          type="text"
          value={draft}
          autoComplete="off"
          aria-describedby={sendError ? `${ids}-send-error` : undefined}
          onChange={(e) => setStoredChatMessage(targetId, e.target.value)}
        />
        <select
          aria-label="Notify or Silent"
          value={mode}
          onChange={(e) => setMode(e.target.value as typeof mode)}
        >
          <option value="silent">Silent</option>
          <option value="notify">Notify</option>
        </select>
        <button type="submit" className="ui-button ui-button-primary" disabled={sending}>
          Send
        </button>
        {sendError && (
          <p id={`${ids}-send-error`} role="alert" className="settings-error">
            {sendError}
          </p>
        )}
        <output className="chat-sent muted">{sent}</output>
      </form>
      <VirtualList<LogMessage>
        name="chat"
        label={`Chat of ${label}`}
        {...list.view}
        rows={rows}
        rowKey={(m) => m.messageId}
        columns={columns}
        defaultSort={{ column: 'time', direction: 'desc' }}
        emptyText={filtering ? 'No chat matches the score filter.' : 'No chat yet.'}
      />
    </div>
  );
}
