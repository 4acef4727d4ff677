// Paged lists of SENTINEL-API §3.0, declared per class: filters (exact, comma list, ILIKE, SEARCH),
// `a|b` OR keys, `<idProp>[]=` id lists, sortedColumn/sortDirection, page/pageSize ≤ 250.

import { createHash } from 'node:crypto';
import type { Page } from '../../domain/api.ts';
import { PAGE_SIZE_MAX, UUID } from '../../domain/constants.ts';
import { PAGE_MAX } from '../../domain/limits.ts';
import type { Db, Queryable } from '../db/db.ts';
import { validation } from './errors.ts';
import { type KeptPage, KeptPages } from './keptPages.ts';

/** Positional parameters collected while SQL is assembled, after `values` when given (copied). */
export class Params {
  readonly values: unknown[];
  constructor(values: readonly unknown[] = []) {
    this.values = [...values];
  }
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

type ValueType = 'text' | 'uuid' | 'int' | 'float';

export type Filter =
  /** Equality; a malformed uuid/number matches nothing rather than failing. */
  | { kind: 'exact'; expr: string; type?: ValueType }
  /**
   * Comma-separated list of exact values; `perValue` where the plan depends on which (a rare value
   * read through an index, a common one by walking the list's order).
   */
  | { kind: 'in'; expr: string; type?: ValueType; perValue?: true }
  /** Case-insensitive contains, with % and _ taken literally. */
  | { kind: 'ilike'; exprs: string[] }
  /** English full-text (websearch syntax) or case-insensitive contains, over any of the columns. */
  | { kind: 'search'; exprs: string[] }
  | { kind: 'bool'; expr: string }
  /** Any condition; or alternatives, or a condition planned for its values (see Condition). */
  | { kind: 'custom'; sql: (value: string, p: Params) => Condition };

/**
 * What a custom filter adds: SQL; or Alternatives; or `perValue`, SQL whose plan depends on what
 * its values hold. A list with one is planned for each request, never by a generic plan (nameOf):
 * PostgreSQL's generic plan for `lower(name) = ANY($2)` guessed the array held most of the table
 * and counted by reading it in order, 300 ms for 20 names of 400 dinos each.
 */
export type Condition = string | Alternatives | { perValue: string };

/**
 * Conditions no two of which hold for the same row (one species each), each of which an index
 * reads in the list's order. A page then walks each one's index as far as the page and merges the
 * walks (runList), where one condition over them all made the planner read and sort every match:
 * 80 ms for a search naming two species of 33,000 dinos among a million, against 1 ms.
 */
export type Alternatives = readonly string[];

export interface ListSpec {
  filters: Record<string, Filter>;
  /** sortedColumn → SQL expression; unknown names are ignored (§3.0). */
  sorts: Record<string, string>;
  defaultSort: string;
  defaultDirection?: 'ascending' | 'descending';
  /** A unique expression appended to every ORDER BY so pages never overlap. */
  tiebreak: string;
  /** `<idProp>[]=a&<idProp>[]=b` (and, fixing the quirk, scalar `<idProp>=a`). */
  id: { param: string; expr: string };
}

export interface ListPlan {
  where: string[];
  /** The sort's expression and direction, and the tiebreak after it (orderBy). */
  sort: { expr: string; dir: 'ASC' | 'DESC'; tiebreak: string };
  /** One filter's alternatives, which the page walks one by one: `where[at]` is them ORed. */
  split?: { at: number; alternatives: Alternatives };
  /** A `perValue` condition is among them: the list's statements are never named. */
  perValue?: true;
  page: number;
  pageSize: number;
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;

/** A whole number the bigint column cannot hold is an error, not a number that matches nothing. */
function int64(value: string, field: string): boolean {
  if (!/^-?\d+$/.test(value)) return false;
  const n = BigInt(value);
  if (n < INT64[0] || n > INT64[1])
    throw validation(`${field} must be a whole number that fits in 64 bits.`, { field });
  return true;
}

function typed(value: string, field: string, type: ValueType = 'text'): { ok: boolean; cast: string } {
  switch (type) {
    case 'uuid':
      return { ok: UUID.test(value), cast: '::uuid' };
    case 'int':
      return { ok: int64(value, field), cast: '::bigint' };
    case 'float':
      return { ok: Number.isFinite(Number(value)) && value.trim() !== '', cast: '::float8' };
    default:
      return { ok: true, cast: '::text' };
  }
}

/** The `search` filter: English full-text (websearch syntax) or case-insensitive contains, over any of exprs. */
export function searchSql(exprs: string[], value: string, p: Params): string {
  const q = p.add(value);
  const like = p.add(escapeLike(value));
  return `(${exprs
    .map(
      (e) =>
        `to_tsvector('english', coalesce(${e}, '')) @@ websearch_to_tsquery('english', ${q}) OR ${e} ILIKE ${like}`,
    )
    .join(' OR ')})`;
}

const asSql = (c: Condition): string =>
  typeof c === 'string'
    ? c
    : 'perValue' in c
      ? c.perValue
      : c.length
        ? c.map((a) => `(${a})`).join(' OR ')
        : 'false';

function filterSql(f: Filter, field: string, value: string, p: Params): Condition {
  switch (f.kind) {
    case 'exact': {
      const t = typed(value, field, f.type);
      return t.ok ? `${f.expr} = ${p.add(value)}${t.cast}` : 'false';
    }
    case 'in': {
      const items = value.split(',').map((v) => v.trim());
      const ok = items.filter((v) => typed(v, field, f.type).ok);
      if (ok.length === 0) return 'false';
      const sql = `${f.expr} = ANY(${p.add(ok)}${typed('', field, f.type).cast}[])`;
      return f.perValue ? { perValue: sql } : sql;
    }
    case 'ilike': {
      const like = p.add(escapeLike(value));
      return `(${f.exprs.map((e) => `${e} ILIKE ${like}`).join(' OR ')})`;
    }
    case 'search':
      return searchSql(f.exprs, value, p);
    case 'bool':
      return value === 'true' ? f.expr : value === 'false' ? `NOT ${f.expr}` : 'false';
    case 'custom':
      return f.sql(value, p);
  }
}

/**
 * A declared name's entry. Names come from the query string, and a plain lookup would find
 * Object.prototype's members too: `?sortedColumn=constructor` put a function's source in the SQL.
 */
const own = <T>(table: Record<string, T>, name: string): T | undefined =>
  Object.hasOwn(table, name) ? table[name] : undefined;

/** `page`/`pageSize` when given: whole numbers from 1 to max. */
function wholeNumber(query: URLSearchParams, field: string, max: number): number | null {
  const v = query.get(field);
  if (v === null) return null;
  const n = /^\d{1,16}$/.test(v) ? Number(v) : 0;
  if (n < 1 || n > max)
    throw validation(`${field} must be a whole number from 1 to ${max}.`, { field, value: v.slice(0, 100) });
  return n;
}

export function planList(query: URLSearchParams, spec: ListSpec, p: Params): ListPlan {
  const where: string[] = [];
  let split: ListPlan['split'];
  let perValue = false;
  const ids = [...query.getAll(`${spec.id.param}[]`), ...query.getAll(spec.id.param)];
  if (ids.length > 0)
    where.push(
      asSql(filterSql({ kind: 'in', expr: spec.id.expr, type: 'uuid' }, spec.id.param, ids.join(','), p)),
    );

  for (const [key, value] of query) {
    if (key.endsWith('[]') || key === spec.id.param) continue;
    const filters = key.split('|').flatMap((n) => {
      const f = own(spec.filters, n);
      return f ? [filterSql(f, n, value, p)] : [];
    });
    if (filters.length === 0) continue;
    const [only] = filters;
    if (!split && filters.length === 1 && Array.isArray(only) && only.length > 1)
      split = { at: where.length, alternatives: only };
    if (filters.some((c) => typeof c === 'object' && 'perValue' in c)) perValue = true;
    where.push(`(${filters.map(asSql).join(' OR ')})`);
  }

  // Unknown sort columns are ignored (§3.0), prototype member names among them.
  const sort = own(spec.sorts, query.get('sortedColumn') ?? '') ?? spec.sorts[spec.defaultSort];
  const dir = query.get('sortDirection') ?? spec.defaultDirection ?? 'ascending';
  const sqlDir = dir === 'descending' ? 'DESC' : 'ASC';

  const page = wholeNumber(query, 'page', PAGE_MAX) ?? 1;
  // Larger page sizes are cut to the maximum, as §3.0 says.
  const pageSize = wholeNumber(query, 'pageSize', PAGE_MAX) ?? PAGE_SIZE_MAX;
  return {
    where,
    sort: { expr: sort, dir: sqlDir, tiebreak: spec.tiebreak },
    ...(split ? { split } : {}),
    ...(perValue ? { perValue } : {}),
    page,
    pageSize: Math.min(pageSize, PAGE_SIZE_MAX),
  };
}

export interface ListSource {
  /** The select list; its aliases are the JSON property names. */
  columns: string;
  /** FROM and joins. */
  from: string;
  /** FROM for counting, when the joins only add columns to show (so `where` must not use them). */
  countFrom?: string;
  /** Conditions always applied (visibility). */
  where: string[];
  /** Exact totals up to this many matches (default EXACT_COUNT_LIMIT), estimates beyond. */
  exactCountUpTo?: number;
  /**
   * Count before asking the planner, which is asked only past the limit: where counting to the
   * limit costs no more than planning, and searches are many and rarely repeated (dino names: 2-4
   * ms of planning each). By default the planner is asked first, so a list far past the limit is
   * never counted (a common word among a million lines). Either way, an estimate kept from the
   * last 30 s is used first.
   */
  countFirst?: boolean;
  /**
   * Keeps a total for every reader of the same query until a write request (ReadCache.get): the
   * game changes a world list's rows all the time, so its total is a moment's anyway, and counting
   * ten thousand of a million dinos cost more than the page.
   */
  keepCount?: <T>(key: string, load: () => Promise<T>) => Promise<T>;
  /**
   * An expression over a row that changes whenever the row's JSON may (its tiebreak and the
   * `xmin` of each table its columns read: every update writes a new row version with a new
   * one). With it, pages are kept (keptPages.ts) and one asked again is answered from there while
   * the versions of its rows are as they were.
   */
  version?: string;
  /**
   * With `version`, where the list's conditions and order read nothing but its first table's row
   * and the parameters: the transaction that last wrote that row (an xid8 column the table keeps,
   * as migration 037 does for log lines), the row's partition key, and the SQL type of the list's
   * tiebreak. A kept first page filtered by a value it is planned for (a word) is then checked by
   * reading its own rows again and any row written since that it would show, instead of its page
   * again: the cost follows what changed, not how far apart the page's rows lie.
   */
  writes?: { by: string; partitionKey: string; idType: string };
}

/**
 * Counting every match costs more than the page itself once a table is big (a million log lines:
 * seconds per request). Up to this many the total is exact; beyond it, the planner's estimate.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * Where the planner expects this many times the exact limit, it is not counted at all: counting
 * the first thousand of 125,000 lines that name a common word took three times as long as
 * the page itself, to learn only that they were more than a thousand.
 */
const SURELY_PAST_LIMIT = 10;

/**
 * Texts of first pages and counts that are named statements. A list's text depends on its filters,
 * sort and page size only, so a few hundred cover what consoles ask; past them, texts run unnamed.
 */
const NAMED_TEXTS_KEPT = 500;
const namedTexts = new Map<string, string>();

/**
 * A name for a list's first page or count: it is then planned once per connection,
 * and PostgreSQL keeps a generic plan when it costs no more than planning each time. The dino
 * list's plan took 3-6 ms against 2-3 ms to run it, for every console that asked. Deeper pages,
 * whose OFFSET is in the text, run unnamed.
 */
function nameOf(sql: string): string | undefined {
  let name = namedTexts.get(sql);
  if (!name && namedTexts.size < NAMED_TEXTS_KEPT) {
    name = `list${namedTexts.size}`;
    namedTexts.set(sql, name);
  }
  return name;
}

/**
 * A list's reads (Db.read outside a transaction). When `hot` (a first page or a count) it is a
 * named statement run with its generic plan, planned once per connection; otherwise it is planned
 * for its values.
 */
function read<T>(db: Queryable, sql: string, values: unknown[], hot: boolean) {
  const name = hot ? nameOf(sql) : undefined;
  const shared = (db as Partial<Db>).read;
  return shared ? shared<T>(sql, values, name) : db.query<T>(sql, values, name);
}

interface Counting {
  /** Exact up to this many. */
  upTo: number;
  /** Rows already known to match (the pages so far). */
  atLeast: number;
  countFirst: boolean;
  /** Whether the count may be a named statement. */
  named: boolean;
}

/**
 * The matches up to `limit`. With alternatives, each one's own, up to the limit each: ORed into
 * one condition, a generic plan guessed sixteen names held 80,000 dinos and read the table for
 * the first thousand, 1.4 s, where each name alone is an index look-up.
 */
function matchesUpTo(source: ListSource, plan: ListPlan, limit: number): string {
  const alternatives = plan.split?.alternatives ?? [null];
  const one = (alternative: string | null) => `${matching(source, plan, alternative)} LIMIT ${limit}`;
  return alternatives.length === 1
    ? one(alternatives[0])
    : `SELECT 1 FROM (${alternatives.map((a) => `(${one(a)})`).join(' UNION ALL ')}) a LIMIT ${limit}`;
}

async function countMatches(
  db: Queryable,
  source: ListSource,
  plan: ListPlan,
  values: unknown[],
  { upTo, atLeast, countFirst, named }: Counting,
) {
  const sql = matching(source, plan, null);
  const kept =
    keptEstimate(db, sql, values) ?? (countFirst ? undefined : await plannerEstimate(db, sql, values));
  if (kept !== undefined && kept > upTo * SURELY_PAST_LIMIT)
    return { total: Math.max(atLeast, kept), estimated: true };
  const capped = await read<{ n: number | string }>(
    db,
    `SELECT count(*) AS n FROM (${matchesUpTo(source, plan, upTo + 1)}) capped`,
    values,
    named,
  );
  const n = Number(capped.rows[0]?.n ?? 0);
  if (n <= upTo) return { total: n, estimated: false };
  return { total: Math.max(n, kept ?? (await plannerEstimate(db, sql, values))), estimated: true };
}

/** An estimate is no truer for being asked again: one per query for a while, for every reader. */
const ESTIMATE_KEEP_MS = 30_000;
const ESTIMATES_KEPT = 1_000;
const estimatesOf = new WeakMap<Queryable, Map<string, { rows: number; at: number }>>();

const estimateKey = (sql: string, values: unknown[]) => `${sql}\u0000${JSON.stringify(values)}`;

/** A kept answer's key: a digest, as the values may hold a search's thousands of ids. */
const digestKey = (sql: string, values: unknown[]) =>
  createHash('sha256').update(estimateKey(sql, values)).digest('base64');

function keptEstimate(db: Queryable, sql: string, values: unknown[]): number | undefined {
  const kept = estimatesOf.get(db)?.get(estimateKey(sql, values));
  return kept && Date.now() - kept.at < ESTIMATE_KEEP_MS ? kept.rows : undefined;
}

async function plannerEstimate(db: Queryable, sql: string, values: unknown[]): Promise<number> {
  const estimates = estimatesOf.get(db) ?? new Map();
  estimatesOf.set(db, estimates);
  const plan = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    values,
  );
  const raw = plan.rows[0]?.['QUERY PLAN'];
  const parsed = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const rows = Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  if (estimates.size >= ESTIMATES_KEPT) estimates.delete(estimates.keys().next().value as string);
  estimates.set(estimateKey(sql, values), { rows, at: Date.now() });
  return rows;
}

type Count = { total: number; estimated: boolean };

/** A total kept for every reader of the same count. */
function keptCount(source: ListSource, whereSql: string, values: unknown[], count: () => Promise<Count>) {
  if (!source.keepCount) return count();
  return source.keepCount(
    `count:${digestKey(`${source.countFrom ?? source.from}${whereSql}`, values)}`,
    count,
  );
}

/** A plan's ORDER BY: its sort, then the tiebreak in the same direction. */
const orderBy = ({ expr, dir, tiebreak }: ListPlan['sort']) => `${expr} ${dir}, ${tiebreak} ${dir}`;

const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');

/** A row for each match (of `alternative` alone when given), from the source's counting FROM. */
const matching = (source: ListSource, plan: ListPlan, alternative: string | null) =>
  `SELECT 1 FROM ${source.countFrom ?? source.from} ${whereOf(conditionsFor(source, plan, alternative))}`;

/** The list's conditions; with `alternative`, that one in place of the alternatives ORed. */
const conditionsFor = (source: ListSource, plan: ListPlan, alternative: string | null) => [
  ...source.where,
  ...(alternative === null || !plan.split
    ? plan.where
    : plan.where.map((c, i) => (i === plan.split?.at ? `(${alternative})` : c))),
];

/**
 * The page's rows, as `select` (the source's columns unless given) over the source's FROM and
 * `joined`. With alternatives, each one's walk reads its first offset + pageSize rows in the
 * list's order, the walks are merged to the page's ids, and those are read: every walk stops
 * early, as one condition over all the alternatives cannot. The tiebreak is unique, so it serves
 * as the rows' id.
 */
function pageSql(
  source: ListSource,
  plan: ListPlan,
  offset: number,
  select = source.columns,
  joined = '',
): string {
  const { from } = source;
  const rows = (conditions: string[], skip: number) =>
    `SELECT ${select} FROM ${from} ${joined} ${whereOf(conditions)} ORDER BY ${orderBy(plan.sort)}
      LIMIT ${plan.pageSize} OFFSET ${skip}`;
  if (!plan.split) return rows(conditionsFor(source, plan, null), offset);
  const { expr, dir, tiebreak } = plan.sort;
  const walk = (alternative: string) =>
    `(SELECT ${tiebreak} AS id, ${expr} AS k FROM ${from} ${whereOf(conditionsFor(source, plan, alternative))}
      ORDER BY ${orderBy(plan.sort)} LIMIT ${offset + plan.pageSize})`;
  const { alternatives } = plan.split;
  const ids = `SELECT id FROM (${alternatives.map(walk).join(' UNION ALL ')}) w
                ORDER BY k ${dir}, id ${dir} LIMIT ${plan.pageSize} OFFSET ${offset}`;
  return rows([...source.where, `${tiebreak} = ANY(ARRAY(${ids}))`], 0);
}

/**
 * A page whose rows the database wrote as one JSON array (UTF-8): a page of 100 log lines cost
 * the embedded database 0.8 ms more to hand over as rows, and Node more again to build objects of
 * them and write them back out as JSON.
 */
export interface ListPage extends Omit<Page<never>, 'results'> {
  results: Buffer;
}

type PageRows = { results: Buffer; n: number };

/** Whether a page's statement is named (planned once per connection): a first page not planned for its values. */
const namedPage = (plan: ListPlan, offset: number) => offset === 0 && !plan.perValue;

/** The page written as JSON by the database. */
async function freshPage(
  db: Queryable,
  source: ListSource,
  plan: ListPlan,
  offset: number,
  values: unknown[],
) {
  // json_agg takes the rows in the order the sorted subquery yields them.
  const { rows } = await read<{ results: string; n: number }>(
    db,
    `SELECT coalesce(json_agg(r), '[]')::text AS results, count(*) AS n FROM (${pageSql(source, plan, offset)}) r`,
    values,
    namedPage(plan, offset),
  );
  return { results: Buffer.from(rows[0].results), n: rows[0].n };
}

/** Kept pages of versioned lists, per database (as the schemas of tests are many to a process). */
const keptPagesOf = new WeakMap<Queryable, KeptPages>();
/** Room for every newest page of 200 servers' logs (80 kB each at 100 lines). */
const KEPT_PAGES_BYTES = 16 * 2 ** 20;

/** A page's rows' versions, in their own order (so one read by key compares with one read in page order). */
const VERSION_OF = `md5(string_agg(r.v, ',' ORDER BY r.v)) AS version, count(*) AS n`;

/**
 * A page of a versioned source: the kept one while its rows' version is unchanged, else written
 * afresh with its version in one statement, so the two always agree. The check reads the same
 * rows and joins as the page, without the JSON. A first page of a source whose writes are known
 * (ListSource.writes) is checked by its own rows and the rows written since (checkSince), and
 * when rows were only added, it is written again from its own rows and those alone.
 */
async function versionedPage(ask: PageAsk): Promise<PageRows> {
  const { db, source, version, plan, offset, values } = ask;
  const hot = namedPage(plan, offset);
  const kept = keptPagesOf.get(db) ?? new KeptPages(KEPT_PAGES_BYTES);
  keptPagesOf.set(db, kept);
  const key = digestKey(pageSql(source, plan, offset), values);
  const held = kept.get(key);
  let page: KeptPage | undefined;
  if (held?.since) {
    const found = await checkSince(ask, held.since);
    if (found.version === held.version && found.added === false) {
      held.since.snapshot = found.snapshot;
      return held;
    }
    if (found.version === held.version && found.added) {
      const moved = await writePage(ask, held.since);
      // Its own rows as they were in the new page's snapshot too, else the page is walked to.
      if (moved.own === held.version) page = moved.page;
    }
  } else if (held) {
    const { rows } = await read<{ version: string | null }>(
      db,
      `SELECT ${VERSION_OF} FROM (${pageSql(source, plan, offset, `${version} AS v`)}) r`,
      values,
      hot,
    );
    if (rows[0].version === held.version) return held;
  }
  page ??= (await writePage(ask)).page;
  kept.set(key, page);
  return page;
}

type WrittenSince = NonNullable<KeptPage['since']>;

/** A page of a versioned source asked for, with the SQL expression of its rows' version. */
interface PageAsk {
  db: Queryable;
  source: ListSource;
  version: string;
  plan: ListPlan;
  offset: number;
  values: unknown[];
}

/**
 * The page written with its version, in one statement. `movedOn`: of a kept page whose own rows
 * were as they were and to which rows were only added since (checkSince), the page is then its
 * own rows and the added ones in the list's order, found by their keys rather than by walking
 * the list, beside the version its own rows have in this statement's snapshot (`own`).
 */
async function writePage(
  ask: PageAsk,
  movedOn?: WrittenSince,
): Promise<{ page: KeptPage; own?: string | null }> {
  const { db, source, version, plan, offset, values } = ask;
  // Only where the page's walk may be long: a filter planned for its value (a word, a rare event)
  // may pass thousands of rows between its matches, while a server's or the whole log's newest
  // page is a walk over its own rows, cheaper than finding each by its key (checked that way too,
  // a hundred consoles' server pages were answered at half the rate).
  const writes = offset === 0 && plan.perValue ? source.writes : undefined;
  const { expr, dir, tiebreak } = plan.sort;
  const p = new Params(values);
  const since = movedOn && sinceSql(ask, movedOn, p);
  const from = since
    ? { ...source, where: [...source.where, `${tiebreak} = ANY(ARRAY(${since.candidates}))`] }
    : source;
  // The row as the page shows it, beside its version: json_agg(r) would show the version too. In
  // the page's order, said again: beside the version's own order the rows' may not hold.
  const { rows } = await read<
    { results: string; n: number; version: string | null; own?: string | null } & Partial<WrittenSince>
  >(
    db,
    `SELECT coalesce(json_agg(r.j ORDER BY r.k ${dir}, r.id ${dir}), '[]')::text AS results, ${VERSION_OF}${
      writes
        ? `, array_agg(r.id::text) AS ids, min(r.pk)::text AS low, max(r.pk)::text AS high,
           pg_current_snapshot()::text AS snapshot`
        : ''
    }${since ? `, ${since.ownVersion} AS own` : ''} FROM (${pageSql(
      from,
      plan,
      offset,
      `j, ${version} AS v, ${expr} AS k, ${tiebreak} AS id${writes ? `, ${writes.partitionKey} AS pk` : ''}`,
      `CROSS JOIN LATERAL (SELECT ${source.columns}) j`,
    )}) r`,
    p.values,
    namedPage(plan, offset) || since !== undefined,
  );
  const { results, n, ids, low, high, snapshot, own } = rows[0];
  const page: KeptPage = {
    results: Buffer.from(results),
    n,
    version: rows[0].version,
    ...(snapshot === undefined
      ? {}
      : { since: { snapshot, ids: ids ?? [], low: low ?? null, high: high ?? null } }),
  };
  return { page, own };
}

/**
 * Past this many rows written since a kept page was last checked, the page is written again
 * rather than looked through (a transaction held open meanwhile keeps the span from moving on).
 */
const WRITTEN_SINCE_MAX = 1_000;

/**
 * What a kept page's check and its moving on read, as SQL over `since` (its values added to p).
 * The rows written since are those whose writing transaction the kept snapshot did not see: it
 * began at or after that snapshot's oldest running one and was not visible in it, which holds
 * for a transaction that committed late as for one that began after. Both are read so that a
 * generic plan cannot go wrong: the rows written since newest first from their index, up to a
 * bound, and the page's own rows by their tiebreak, the list's conditions only tested on the rows
 * read (as a condition, a generic plan read every line with a search's word through its index).
 */
function sinceSql({ source, version, plan }: PageAsk, since: WrittenSince, p: Params) {
  const { by, partitionKey, idType } = source.writes!;
  const { tiebreak } = plan.sort;
  const where = conditionsFor(source, plan, null);
  const shown = where.length ? where.join(' AND ') : 'true';
  const snapshot = `${p.add(since.snapshot)}::pg_snapshot`;
  const ids = `unnest(${p.add(since.ids)}::${idType}[]) k(id)`;
  const written = `(SELECT ${tiebreak} AS id, ${shown} AND NOT pg_visible_in_snapshot(${by}, ${snapshot}) AS added
      FROM ${source.from} WHERE ${by} >= pg_snapshot_xmin(${snapshot})
     ORDER BY ${by} DESC LIMIT ${WRITTEN_SINCE_MAX}) w`;
  return {
    /** The version of the page's own rows as they are now (of those the list still shows). */
    ownVersion: `(SELECT md5(string_agg(r.v, ',' ORDER BY r.v) FILTER (WHERE r.shown)) FROM ${ids}
        CROSS JOIN LATERAL (SELECT ${version} AS v, ${shown} AS shown FROM ${source.from}
          WHERE ${tiebreak} = k.id AND ${partitionKey} BETWEEN ${p.add(since.low)} AND ${p.add(since.high)}) r)`,
    /** Whether a row the list shows was written since; null past the bound (not looked through). */
    added: `(SELECT CASE WHEN count(*) < ${WRITTEN_SINCE_MAX} THEN coalesce(bool_or(w.added), false) END FROM ${written})`,
    /** The page's own rows and those added since: the moved-on page is among them. */
    candidates: `SELECT k.id FROM ${ids} UNION ALL SELECT w.id FROM ${written} WHERE w.added`,
  };
}

/**
 * A kept first page's check, in one statement (one snapshot, returned): the version of its own
 * rows now, and whether a row it would show was written since (null: too many to look through).
 * A named statement, planned once per connection: planned for each request, it cost 2-7 ms over
 * the log's partitions, against 1-2 to run.
 */
async function checkSince(ask: PageAsk, since: WrittenSince) {
  const p = new Params(ask.values);
  const { ownVersion, added } = sinceSql(ask, since, p);
  const { rows } = await read<{ version: string | null; added: boolean | null; snapshot: string }>(
    ask.db,
    `SELECT ${ownVersion} AS version, ${added} AS added, pg_current_snapshot()::text AS snapshot`,
    p.values,
    true,
  );
  return rows[0];
}

export async function runList(
  db: Queryable,
  source: ListSource,
  plan: ListPlan,
  p: Params,
): Promise<ListPage> {
  const whereSql = whereOf(conditionsFor(source, plan, null));
  const offset = (plan.page - 1) * plan.pageSize;
  const { results, n } = source.version
    ? await versionedPage({ db, source, version: source.version, plan, offset, values: p.values })
    : await freshPage(db, source, plan, offset, p.values);
  // A page that is not full is the last one, so it tells the total without counting.
  const short = n < plan.pageSize && (n > 0 || plan.page === 1);
  const count = short
    ? { total: offset + n, estimated: false }
    : await keptCount(source, whereSql, p.values, () =>
        countMatches(db, source, plan, p.values, {
          upTo: source.exactCountUpTo ?? EXACT_COUNT_LIMIT,
          atLeast: offset + n,
          countFirst: source.countFirst ?? false,
          named: !plan.perValue,
        }),
      );
  return {
    totalResults: count.total,
    pageSize: plan.pageSize,
    pages: Math.ceil(count.total / plan.pageSize),
    page: plan.page,
    ...(count.estimated ? { totalIsEstimate: true } : {}),
    results,
  };
}
