// Survivors (SENTINEL-API §3.9, `/sentinel/characters`).

import { serviceColumns, serviceFilters, uuidFilter, visibleThrough, type WorldClass } from './worldClass.ts';

export const CHARACTER: WorldClass = {
  path: '/sentinel/characters',
  idProp: 'characterId',
  table: 'characters',
  alias: 'c',
  idColumn: 'character_id',
  columns: () => `
    c.character_id AS "characterId", c.name AS "characterName", c.specimen_id AS "specimenId",
    c.player_id AS "playerId", p.name AS "playerName", c.tribe_id AS "tribeId", t.name AS "tribeName",
    ${serviceColumns('c')}`,
  from: (user) => `characters c ${visibleThrough('c', user)}
    JOIN players p ON p.player_id = c.player_id
    LEFT JOIN tribes t ON t.tribe_id = c.tribe_id`,
  list: {
    id: { param: 'characterId', expr: 'c.character_id' },
    filters: {
      ...serviceFilters('c'),
      specimenId: { kind: 'exact', expr: 'c.specimen_id', type: 'int' },
      playerId: { kind: 'exact', expr: 'c.player_id', type: 'uuid' },
      tribeId: uuidFilter(
        (id) =>
          `(c.tribe_id = ${id} OR c.character_id IN (SELECT character_id FROM tribe_characters WHERE tribe_id = ${id}))`,
      ),
      characterName: { kind: 'search', exprs: ['c.name'] },
      playerName: { kind: 'search', exprs: ['p.name'] },
      tribeName: { kind: 'search', exprs: ['t.name'] },
    },
    sorts: {
      characterName: 'lower(c.name)',
      playerName: 'lower(p.name)',
      serviceDisplayName: 'lower(coalesce(s.nickname, s.name))',
      tribeName: 'lower(t.name)',
      specimenId: 'c.specimen_id',
    },
    defaultSort: 'characterName',
    tiebreak: 'c.character_id',
  },
  editable: {},
};
