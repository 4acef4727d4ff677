// Scripts as the library and the Workshop show them, and the rules of attaching, sharing and
// running them (SPEC §3 Script and attachment, §4 script status, attachment and sharing, §8
// scripts). The console's commands and views read these; none restates them.

import type { Script, ScriptRevision } from './api.ts';
import { pathOf, WORKSHOP } from './resolver.ts';

/** The Workshop tab, or the preview of one of its scripts (SPEC §2 /scripts/workshop/{scriptId}). */
export const workshopPath = (scriptId?: string) =>
  `${pathOf('script')}/${WORKSHOP}${scriptId ? `/${encodeURIComponent(scriptId)}` : ''}`;

/** The words of SPEC §8 "Workshop install", "Share and unshare", "Script versions" and "Script runner". */
export const WorkshopMsg = {
  installDuplicate: 'This script is already attached there with the same parameter values.',
  installForbidden: 'Forbidden: you need manage scripts on that server or group to add a script to it.',
  installGeneric: 'The script could not be added. Try again later.',
  badScriptId: 'That is not a script id.',
  unknownRoute: 'The Workshop is not available on this server: the API does not know the route.',
  scriptNotFound: 'The script was not found, or it is not yours to share.',
  scriptRejected: 'This script was rejected by an admin and cannot be added to the Workshop again.',
  versionsNotFound: 'The versions of this script were not found.',
  noneApproved: 'No version of this script has been approved yet.',
  runForbidden: 'Forbidden: you need control servers there to run scripts.',
  runMissingKeys: 'The script needs values for its arguments.',
  runNotFound: 'The script or what it runs on was not found.',
  runInternal: 'The server failed while starting the script. Try again later.',
  runnerNotice: 'Menu-item scripts must be attached to a server or group to appear.',
  attachNotice:
    'Attached scripts run on every server of the group or on the server. Manual updates (recommended) keep this version until you choose Update to latest.',
  licence:
    'Workshop scripts are shared under the MIT-0 licence: copy, change and use them, no attribution needed.',
} as const;

/** SPEC §4 script status, as a badge says it; null for an approved script. */
export type ScriptStatus = 'underReview' | 'rejected' | 'probation';

export const SCRIPT_STATUS: Record<ScriptStatus, { label: string; help: string }> = {
  underReview: {
    label: 'Under review',
    help: 'Disabled until a reviewer approves it; an older safe version runs meanwhile.',
  },
  rejected: {
    label: 'Rejected',
    help: 'Rejected by a reviewer: not run; an older safe version runs, and it cannot be shared.',
  },
  probation: {
    label: 'Probation',
    help: 'Runs without restricted features until a reviewer approves it.',
  },
};

export function scriptStatus(s: Pick<Script, 'approvalStatus' | 'communityStatus'>): ScriptStatus | null {
  if (s.approvalStatus === 'Rejected' || s.communityStatus === 'Rejected') return 'rejected';
  if (s.approvalStatus === 'Needs Review') return 'underReview';
  if (s.approvalStatus === 'Probation') return 'probation';
  return null;
}

/** SPEC §3 origin: the user's own, a Workshop script, or one a group shares with the user. */
export function scriptOrigin(s: Pick<Script, 'userId' | 'communityStatus'>, userId: string | undefined) {
  if (s.userId === userId) return 'My scripts';
  return s.communityStatus === 'Approved' ? 'Workshop' : 'Group';
}

/** Where a script stands in the Workshop, for its author. */
export const sharingOf = (s: Pick<Script, 'communityStatus'>) =>
  s.communityStatus === 'Approved'
    ? 'In the Workshop'
    : s.communityStatus === 'Rejected'
      ? 'Rejected'
      : 'Private';

/** Likes among the votes (the API gives the share of likes and the vote count). */
export const likesOf = (s: Pick<Script, 'communityAverage' | 'communityVotes'>) =>
  Math.round((s.communityAverage ?? 0) * s.communityVotes);

/** The handlers' contexts, for a list cell: "chat, serviceScriptRun (Restart)". */
export const contextsOf = (s: Pick<Script, 'events'>) =>
  s.events.map((e) => (e.keyword ? `${e.context} (${e.keyword})` : e.context)).join(', ');

/** The languages the handlers are written in. */
export const languagesOf = (s: Pick<Script, 'events' | 'commonJavascript'>) => {
  const all = new Set(s.events.map((e) => e.language));
  if (s.commonJavascript.trim()) all.add('JavaScript');
  return [...all].sort().join(', ') || 'Simple';
};

/** SPEC §4 attachment: manual (recommended) pins today's version, keep updated follows, locked pins a chosen one. */
export const UPDATE_MODES = ['manual', 'follow', 'locked'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];
export const UPDATE_MODE_HELP =
  'manual (recommended): stays on the newest approved version until Update to latest; follow: runs every approved version as it comes; locked: stays on the version given';

/** Versions that may run: approved by a reviewer, or on probation (no restricted features). */
export const isApprovedRevision = (r: ScriptRevision) =>
  r.approvalStatus === 'Approved' || r.approvalStatus === 'Probation';

/** The newest version that may run (revisions come newest first), or null. */
export const latestApproved = (revisions: readonly ScriptRevision[]) =>
  revisions.find(isApprovedRevision) ?? null;

/** A name for a copy that none of the user's scripts has: "Rules (copy)", "Rules (copy 2)", … */
export function copyName(name: string, taken: ReadonlySet<string>): string {
  const lower = new Set([...taken].map((t) => t.toLowerCase()));
  for (let i = 1; ; i++) {
    const candidate = `${name} (copy${i === 1 ? '' : ` ${i}`})`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}
