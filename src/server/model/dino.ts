// Dinos (SENTINEL-API §3.11, `/sentinel/dinos`). `dinoNumber` is the in-game visual id: the high
// and low halves of the 64-bit number written one after the other.

import { DINO_STATUSES } from '../../domain/enums.ts';
import { type Filter, searchSql } from '../http/listQuery.ts';
import {
  serviceColumns,
  serviceFilters,
  uuidFilter,
  visibleAsList,
  visibleRowByRow,
  type WorldClass,
} from './worldClass.ts';

const NUMBER = `(trunc(d.dino_number64 / 4294967296)::text || mod(d.dino_number64, 4294967296)::text)`;
const DISPLAY = `coalesce(nullif(d.name, ''), d.species)`;

/**
 * The species search asked of the few distinct species instead of every dino: a fleet's million
 * dinos have a few hundred species, found by skipping through dinos_species_display_idx one probe each.
 * The page then walks the display-name index keeping the rows whose species matched (a hash
 * look-up), where parsing each row's species for the search cost more than the page may
 * (migration 015). The rows are those of the plain search on d.species.
 */
const SPECIES_SEARCH: Filter = {
  kind: 'custom',
  sql: (value, p) => `d.species = ANY(ARRAY(
    WITH RECURSIVE k(species) AS (
      SELECT min(species) FROM dinos WHERE NOT deleted
      UNION ALL
      SELECT (SELECT min(species) FROM dinos WHERE NOT deleted AND species > k.species)
        FROM k WHERE k.species IS NOT NULL)
    SELECT k.species FROM k WHERE k.species IS NOT NULL AND ${searchSql(['k.species'], value, p)}))`,
};

/**
 * The name search from three characters on (what trigrams index): the matching ids are gathered
 * through the words and trigram indexes first, then the page is read by id and sorted. Left to
 * itself the planner walked the display-name index and tested every row, expecting matches spread
 * evenly, but a name's matches sit together in name order: `Kar` read every name from `a` to
 * `kar`, 260 ms against 2 ms for 100,000 dinos. Shorter text matches too much for an index; the
 * walk finds its page soon.
 */
const NAME_SEARCH: Filter = {
  kind: 'custom',
  sql: (value, p) =>
    value.trim().length < 3
      ? searchSql([DISPLAY], value, p)
      : `d.dino_id = ANY(ARRAY(SELECT d.dino_id FROM dinos d WHERE NOT d.deleted AND ${searchSql([DISPLAY], value, p)}))`,
};

export const DINO: WorldClass = {
  path: '/sentinel/dinos',
  idProp: 'dinoId',
  table: 'dinos',
  alias: 'd',
  idColumn: 'dino_id',
  columns: `
    d.dino_id AS "dinoId", ${NUMBER} AS "dinoNumber", d.dino_number64::text AS "dinoNumber64",
    d.name AS "dinoName", d.name_tag AS "dinoNameTag", ${DISPLAY} AS "dinoDisplayName",
    d.species AS "dinoSpecies", d.species_path AS "dinoSpeciesPath", d.level AS "dinoLevel",
    d.age AS "dinoAge", d.status = 'Dead' AS "dinoIsDead", d.status = 'Frozen' AS "dinoIsFrozen",
    d.status = 'Uploaded' AS "dinoIsUploaded",
    (d.status = 'Dead' AND d.restore_data IS NOT NULL) AS "dinoRestoreEligible",
    d.status AS "dinoStatus", d.gender AS "dinoGender", d.gender <> 'None' AS "dinoHasGender",
    d.gender = 'Female' AS "dinoIsFemale", d.tribe_id AS "tribeId", t.name AS "tribeName",
    ${serviceColumns('d')}`,
  from: (user) => `dinos d ${visibleRowByRow('d', user)} LEFT JOIN tribes t ON t.tribe_id = d.tribe_id`,
  // A count of up to 10,000 matches looked the permissions up for each (370 ms for one server's).
  countFrom: (user) => `dinos d ${visibleAsList('d', user)} LEFT JOIN tribes t ON t.tribe_id = d.tribe_id`,
  list: {
    id: { param: 'dinoId', expr: 'd.dino_id' },
    filters: {
      ...serviceFilters('d'),
      dinoNumber: { kind: 'exact', expr: NUMBER },
      dinoNameTag: { kind: 'exact', expr: 'd.name_tag' },
      dinoStatus: { kind: 'in', expr: 'd.status' },
      tribeId: uuidFilter((id) => `d.tribe_id = ${id}`),
      dinoIsDead: { kind: 'bool', expr: `d.status = 'Dead'` },
      dinoDisplayName: NAME_SEARCH,
      dinoName: NAME_SEARCH,
      tribeName: { kind: 'search', exprs: ['t.name'] },
      dinoSpecies: SPECIES_SEARCH,
    },
    sorts: {
      dinoDisplayName: `lower(${DISPLAY})`,
      dinoName: `lower(${DISPLAY})`,
      serviceDisplayName: 'lower(coalesce(s.nickname, s.name))',
      tribeName: 'lower(t.name)',
      dinoNumber: 'd.dino_number64',
    },
    defaultSort: 'dinoDisplayName',
    tiebreak: 'd.dino_id',
  },
  editable: {
    dinoStatus: { column: 'status', values: DINO_STATUSES },
    dinoGender: { column: 'gender', values: ['None', 'Female', 'Male'] },
  },
};
