// Dinos (SENTINEL-API §3.11, `/sentinel/dinos`). `dinoNumber` is the in-game visual id: the high
// and low halves of the 64-bit number written one after the other.

import { DINO_STATUSES } from '../../domain/enums.ts';
import type { ServerContext } from '../context.ts';
import { type Condition, type Filter, Params, searchSql } from '../http/listQuery.ts';
import {
  permissionsOf,
  serviceColumns,
  serviceFilters,
  uuidFilter,
  visibleAsList,
  type WorldClass,
} from './worldClass.ts';

const NUMBER = `(trunc(d.dino_number64 / 4294967296)::text || mod(d.dino_number64, 4294967296)::text)`;
const DISPLAY = `coalesce(nullif(d.name, ''), d.species)`;

/** The species a search names, of the fleet's few hundred (dino_species, migration 021). */
const speciesMatching = (value: string, p: Params) =>
  `SELECT ds.species FROM dino_species ds WHERE ${searchSql(['ds.species'], value, p)}`;

/** The species search inside the page: what a request runs when its species were not resolved first. */
const speciesSearch = (value: string, p: Params) => `d.species = ANY(ARRAY(${speciesMatching(value, p)}))`;

/**
 * A name search resolves to the matching display names (dino_display_names) up to this many; past
 * them, as for a palette's three letters, or for fewer than three characters (which trigrams do
 * not index), the search runs inside the page.
 */
const NAMES_RESOLVED = 2_000;

/**
 * The name search inside the page. Left to itself the planner walked the display-name index and
 * tested every row, expecting matches spread evenly, but a name's matches sit together in name
 * order: `Kar` read every name from `a` to `kar`. From three characters on, the matching ids are
 * gathered through the words and trigram indexes first, then the page is read by id and sorted.
 */
const nameSearch = (value: string, p: Params) =>
  value.trim().length < 3
    ? searchSql([DISPLAY], value, p)
    : `d.dino_id = ANY(ARRAY(SELECT d.dino_id FROM dinos d WHERE NOT d.deleted AND ${searchSql([DISPLAY], value, p)}))`;

/**
 * Up to this many values found are walked one by one (Alternatives in http/listQuery.ts), each
 * through an index in display order; past them the page reads them as one set and sorts it.
 */
const WALKS_MAX = 16;

const oneOf = (expr: string, values: readonly string[], p: Params): Condition =>
  values.length <= WALKS_MAX
    ? values.map((v) => `${expr} = ${p.add(v)}`)
    : { perValue: `${expr} = ANY(${p.add(values)}::text[])` };

/** What a search finds before the page, kept by ctx.reads; null runs the search in the page. */
interface Resolver {
  /** The list's filters it answers. */
  filters: readonly string[];
  find(db: ServerContext['db'], value: string): Promise<readonly string[] | null>;
  /** The page's condition for what was found (never empty). */
  sql(found: readonly string[], p: Params): Condition;
  /** The page's own search, for a value not resolved. */
  fallback(value: string, p: Params): string;
}

/**
 * The species a search names: each one's part of dinos_species_display_idx is then walked in
 * display order as far as the page. Asked inside the page's query, the planner could not know how
 * few rows the species hold and walked the whole fleet's display-name index keeping theirs: 120
 * ms for a species of 3,000 dinos among a million.
 */
const SPECIES: Resolver = {
  filters: ['dinoSpecies'],
  async find(db, value) {
    const p = new Params();
    const { rows } = await db.query<{ species: string }>(speciesMatching(value, p), p.values);
    return rows.map((r) => r.species);
  },
  sql: (species, p) => oneOf('d.species', species, p),
  fallback: speciesSearch,
};

/**
 * The display names a name search matches (three characters or more), lower-cased: each one's
 * dinos are then a walk of dinos_display_idx from that name, as far as the page.
 */
const NAMES: Resolver = {
  filters: ['dinoName', 'dinoDisplayName'],
  async find(db, value) {
    if (value.trim().length < 3) return null;
    const p = new Params();
    const { rows } = await db.query<{ name: string }>(
      `SELECT DISTINCT lower(n.display) AS name FROM dino_display_names n WHERE ${searchSql(['n.display'], value, p)}
        LIMIT ${NAMES_RESOLVED + 1}`,
      p.values,
    );
    return rows.length > NAMES_RESOLVED ? null : rows.map((r) => r.name);
  },
  sql: (names, p) => oneOf(`lower(${DISPLAY})`, names, p),
  fallback: nameSearch,
};

/**
 * Searches whose matches are looked up before the page and kept a few seconds for every reader
 * (ctx.reads, forgotten on any write request): the page then reads what matched, which the
 * planner can size. What the game adds or renames meanwhile is found once that expires.
 */
async function resolveSearches(ctx: ServerContext, query: URLSearchParams): Promise<Record<string, Filter>> {
  const out: Record<string, Filter> = {};
  for (const r of [SPECIES, NAMES]) {
    const found = new Map<string, readonly string[] | null>();
    for (const [key, value] of query) {
      if (!value.trim() || found.has(value) || !key.split('|').some((k) => r.filters.includes(k))) continue;
      found.set(
        value,
        await ctx.reads.get(`dinos:${r.filters[0]}\u0000${value}`, () => r.find(ctx.db, value)),
      );
    }
    if (found.size === 0) continue;
    const filter: Filter = {
      kind: 'custom',
      sql: (value, p) => {
        const hit = found.get(value);
        if (!hit) return r.fallback(value, p);
        return hit.length === 0 ? 'false' : r.sql(hit, p);
      },
    };
    for (const name of r.filters) out[name] = filter;
  }
  return out;
}

export const DINO: WorldClass = {
  path: '/sentinel/dinos',
  idProp: 'dinoId',
  table: 'dinos',
  alias: 'd',
  idColumn: 'dino_id',
  columns: (user) => `
    d.dino_id AS "dinoId", ${NUMBER} AS "dinoNumber", d.dino_number64::text AS "dinoNumber64",
    d.name AS "dinoName", d.name_tag AS "dinoNameTag", ${DISPLAY} AS "dinoDisplayName",
    d.species AS "dinoSpecies", d.species_path AS "dinoSpeciesPath", d.level AS "dinoLevel",
    d.age AS "dinoAge", d.status = 'Dead' AS "dinoIsDead", d.status = 'Frozen' AS "dinoIsFrozen",
    d.status = 'Uploaded' AS "dinoIsUploaded",
    (d.status = 'Dead' AND d.restore_data IS NOT NULL) AS "dinoRestoreEligible",
    d.status AS "dinoStatus", d.gender AS "dinoGender", d.gender <> 'None' AS "dinoHasGender",
    d.gender = 'Female' AS "dinoIsFemale", d.colors AS "dinoColors", d.tribe_id AS "tribeId", t.name AS "tribeName",
    ${serviceColumns('d', permissionsOf('d', user))}`,
  from: (user) => `dinos d ${visibleAsList('d', user)} LEFT JOIN tribes t ON t.tribe_id = d.tribe_id`,
  // Without the tribe, which only adds a column: PostgreSQL removes that join, but too late to
  // count from an index alone, and read the rows instead (7 ms against 0.2 ms for the first
  // thousand of a server's dinos). So the tribe name filter asks tribes itself.
  countFrom: (user) => `dinos d ${visibleAsList('d', user)}`,
  // As the log list's: one server's ten thousand dinos took 26 ms to count, the page 3 ms; past a
  // thousand the console's list learns the true end as the reader reaches it.
  exactCountUpTo: 1_000,
  // A thousand dinos are counted from an index in 1-2 ms, less than the planner takes to guess.
  countFirst: true,
  resolveFilters: resolveSearches,
  list: {
    id: { param: 'dinoId', expr: 'd.dino_id' },
    filters: {
      ...serviceFilters('d'),
      dinoNumber: { kind: 'exact', expr: NUMBER },
      dinoNameTag: { kind: 'exact', expr: 'd.name_tag' },
      dinoStatus: { kind: 'in', expr: 'd.status' },
      tribeId: uuidFilter((id) => `d.tribe_id = ${id}`),
      dinoIsDead: { kind: 'bool', expr: `d.status = 'Dead'` },
      dinoDisplayName: { kind: 'custom', sql: nameSearch },
      dinoName: { kind: 'custom', sql: nameSearch },
      tribeName: {
        kind: 'custom',
        sql: (value, p) =>
          `d.tribe_id IN (SELECT tn.tribe_id FROM tribes tn WHERE ${searchSql(['tn.name'], value, p)})`,
      },
      dinoSpecies: { kind: 'custom', sql: speciesSearch },
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
