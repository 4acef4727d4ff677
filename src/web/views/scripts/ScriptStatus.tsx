// SPEC §4 script status as a badge wherever a script is shown: under review, rejected, probation.
// An approved script shows none.

import type { Script } from '../../../domain/api.ts';
import { SCRIPT_STATUS, scriptStatus } from '../../../domain/workshop.ts';
import './scripts.css';

export function ScriptStatus({ script }: { script: Pick<Script, 'approvalStatus' | 'communityStatus'> }) {
  const status = scriptStatus(script);
  if (!status) return null;
  const { label, help } = SCRIPT_STATUS[status];
  return (
    <span className={`script-status script-status-${status}`} title={help}>
      {label}
    </span>
  );
}

/** The status as a list cell's value (sorting, filtering, CSV): its label, or Approved. */
export const statusText = (script: Pick<Script, 'approvalStatus' | 'communityStatus'>) => {
  const status = scriptStatus(script);
  return status ? SCRIPT_STATUS[status].label : 'Approved';
};
