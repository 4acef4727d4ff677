// Log lines as entity references: what the palette and the console show for `log.open`,
// `log.showRaw` and `nav.open` when given an id or words of a message.

import type { EntityRef } from '../../../../commands/args.ts';
import type { LogMessage } from '../../../domain/api.ts';
import { UUID } from '../../../domain/constants.ts';
import { formatTime } from '../../../domain/format.ts';
import { ApiError } from '../../api/http.ts';
import type { SentinelApi } from '../../api/sentinel.ts';

const LABEL_MAX = 80;

/** An instant (local time) whose month, day and hour have two digits: the widest time either prints. */
export const WIDEST_TIME = new Date(2000, 11, 28, 12, 59, 59).getTime() / 1000;

export const logRef = (m: LogMessage): EntityRef => ({
  kind: 'log',
  id: m.messageId,
  label: m.message.length > LABEL_MAX ? `${m.message.slice(0, LABEL_MAX - 1)}…` : m.message,
  detail: `${m.serviceDisplayName} · ${formatTime(m.time)}`,
  server: m.serviceId,
});

/** By id, or the newest lines whose text matches the words. */
export async function logRemote(api: SentinelApi, text: string): Promise<EntityRef[]> {
  if (UUID.test(text)) {
    try {
      return [logRef(await api.logMessages.get(text))];
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return [];
      throw e;
    }
  }
  const page = await api.logMessages.list({ message: text, pageSize: 10 });
  return page.results.map(logRef);
}
