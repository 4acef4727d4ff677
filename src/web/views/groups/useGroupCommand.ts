// Runs a group.* command from one of the group page's forms, with the group in view as its group.

import type { Group } from '../../../domain/api.ts';
import { errorText } from '../../api/http.ts';
import { useCommandRuntime } from '../../app/runtime.ts';

/** Resolves to the command's error text, or null when it worked. */
export function useGroupCommand(group: Group) {
  const runtime = useCommandRuntime();
  return async (id: string, values: Record<string, unknown>): Promise<string | null> => {
    const cmd = runtime.registry.get(id);
    if (!cmd) return `${id} is not available.`;
    try {
      await runtime.run(
        cmd,
        { group: { kind: 'group', id: group.groupId, label: group.name }, ...values },
        'form',
      );
      return null;
    } catch (e) {
      return errorText(e);
    }
  };
}
