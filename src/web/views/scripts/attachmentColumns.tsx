// The columns of a server's and a group's Scripts tab (SPEC §2 other tabs, §4 script status and
// attachment): the script with its status badge, the version it runs (locked or kept updated,
// and a newer one waiting for the attacher's accept) and where it came from. A Workshop script opens in its preview, one of the user's in the editor.

import type { ScriptLink } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { workshopPath } from '../../../domain/workshop.ts';
import type { Column } from '../../ui/columns.ts';
import { ScriptStatus, statusText } from './ScriptStatus.tsx';

export function attachmentColumns<T extends ScriptLink>(): Column<T>[] {
  return [
    {
      id: 'script',
      title: 'Script',
      value: (s) => s.scriptName,
      render: (s) => (
        <span className="script-name">
          {s.scriptName}
          <ScriptStatus script={s} />
        </span>
      ),
      width: '2fr',
    },
    { id: 'status', title: 'Status', value: statusText },
    { id: 'version', title: 'Version', value: versionText, width: '2fr' },
    { id: 'origin', title: 'Origin', value: (s) => (s.origin === 'Community' ? 'Workshop' : 'My scripts') },
  ];
}

/**
 * The version it runs: locked to one, or kept updated; someone else's script kept updated says
 * when a newer version waits for the accept (Show script update, Accept script update).
 */
function versionText(s: ScriptLink): string {
  if (s.revisionId) return `${s.revisionId.slice(0, 8)} (${formatTime(s.revisionDate)})`;
  if (s.pendingRevisionId)
    return `Keep updated, version ${s.pendingRevisionId.slice(0, 8)} waits for your accept`;
  return 'Keep updated';
}

/** Where Enter on an attachment leads. */
export const attachmentPath = (s: ScriptLink) =>
  s.origin === 'Community' ? workshopPath(s.scriptId) : pathOf('script', s.scriptId);
