// Where the editor shows what a refused save said (SPEC §8 "Script save"): beside the field the
// API names (`name`, `parameters`, `events[0].keyword`), else at the top of the form.

import { CommandError } from '../../../../../commands/registry.ts';
import { ApiError, errorText } from '../../../api/http.ts';

/** A refused save's message by the field it names (`name`, `events[0].keyword`), or `form`. */
export function saveErrors(e: unknown): Record<string, string> {
  if (e instanceof ApiError) {
    const field = (e.details as { field?: unknown } | null)?.field;
    const text = e.code === 'forbidden' ? errorText(e) : e.message;
    if (typeof field === 'string') return { [field]: text };
    if (e.code === 'nameNotUnique' || e.code === 'emptyName') return { name: text };
    return { form: text };
  }
  if (e instanceof CommandError && e.field && e.field !== 'content') return { [e.field]: e.message };
  return { form: e instanceof Error ? e.message : String(e) };
}
