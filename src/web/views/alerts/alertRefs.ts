// Alert rules and destinations as the entity store holds them: what the palette opens by name and
// the commands' arguments complete from. They are the account's own: no permission mask.

import type { EntityRef } from '../../../../commands/args.ts';
import { type AlertDestination, type AlertRule, DESTINATION_LABELS } from '../../../domain/alerts.ts';

export const alertRef = (r: AlertRule): EntityRef => ({
  kind: 'alert',
  id: r.ruleId,
  label: r.name,
  detail: r.scopeName,
});

export const destinationRef = (d: AlertDestination): EntityRef => ({
  kind: 'destination',
  id: d.destinationId,
  label: d.name,
  detail: DESTINATION_LABELS[d.kind],
});
