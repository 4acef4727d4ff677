// The 13 bits of SPEC §6 by name, as checkboxes. A bit the editor does not hold in the group is
// shown but cannot be ticked: nobody grants what they lack (the server refuses it too).

import { useId } from 'react';
import { GRANTABLE_BITS } from '../../../domain/groups.ts';
import { hasAll, PERMISSION_LABELS, Perm } from '../../../domain/permissions.ts';

export interface PermissionEditorProps {
  legend: string;
  /** The mask as being edited (a member's, or what the group may do on a server). */
  value: number;
  /** The editor's own bits in the group; null when unknown (the server decides). */
  mine: number | null;
  onChange(mask: number): void;
}

export function PermissionEditor({ legend, value, mine, onChange }: PermissionEditorProps) {
  const id = useId();
  return (
    <fieldset className="permission-editor">
      <legend>{legend}</legend>
      {GRANTABLE_BITS.map((k) => {
        const bit = Perm[k];
        const on = hasAll(value, bit);
        const lacking = mine !== null && !hasAll(mine, bit);
        return (
          <label key={k} className={lacking ? 'muted' : undefined}>
            <input
              type="checkbox"
              name={k}
              checked={on}
              disabled={lacking && !on}
              aria-describedby={lacking ? `${id}-lacking` : undefined}
              onChange={(e) => onChange(e.target.checked ? value | bit : value & ~bit)}
            />{' '}
            {PERMISSION_LABELS[k]}
          </label>
        );
      })}
      {mine !== null && (
        <small id={`${id}-lacking`} className="settings-help">
          Bits you do not hold yourself cannot be granted.
        </small>
      )}
    </fieldset>
  );
}
