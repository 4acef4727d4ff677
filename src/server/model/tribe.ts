// Tribes (SENTINEL-API §3.10, `/sentinel/tribes`). Deleting a tribe deletes its survivors and
// dinos too (SPEC §4); all of them reappear when the game reports them again.

import { serviceColumns, serviceFilters, visibleThrough, type WorldClass } from './worldClass.ts';

export const TRIBE: WorldClass = {
  path: '/sentinel/tribes',
  idProp: 'tribeId',
  table: 'tribes',
  alias: 't',
  idColumn: 'tribe_id',
  columns: () => `
    t.tribe_id AS "tribeId", t.name AS "tribeName", t.tribe_number AS "tribeNumber",
    ${serviceColumns('t')}`,
  from: (user) => `tribes t ${visibleThrough('t', user)}`,
  list: {
    id: { param: 'tribeId', expr: 't.tribe_id' },
    filters: {
      ...serviceFilters('t'),
      tribeNumber: { kind: 'exact', expr: 't.tribe_number', type: 'int' },
      tribeName: { kind: 'search', exprs: ['t.name'] },
    },
    sorts: {
      tribeName: 'lower(t.name)',
      serviceDisplayName: 'lower(coalesce(s.nickname, s.name))',
      tribeNumber: 't.tribe_number',
    },
    defaultSort: 'tribeName',
    tiebreak: 't.tribe_id',
  },
  editable: {},
  async cascade(tx, ids) {
    await tx.query('UPDATE characters SET deleted = true WHERE tribe_id = ANY($1::uuid[])', [ids]);
    await tx.query('UPDATE dinos SET deleted = true WHERE tribe_id = ANY($1::uuid[])', [ids]);
  },
};
