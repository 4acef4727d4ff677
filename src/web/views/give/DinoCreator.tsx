// The Custom Dino Creator (/dinos/add, SPEC §2 and §5): the survivor.giveDino command as a form,
// its plain fields from the command's own argument schema (ArgField), with the richer widgets the
// spec asks for: 12 wild stats with the points remaining, gender, six colour regions each with
// Pick, Pick Natural Colors and Pick Random Colors, and traits with their caps. Submitting runs
// the same command the console and palette run; a refusal keeps everything and names its field.

import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { EntityRef } from '../../../../commands/args.ts';
import type { DinoColor } from '../../../domain/blueprints/index.ts';
import { DINO_LIMITS } from '../../../domain/constants.ts';
import {
  addTraitProblem,
  DINO_TRAITS,
  pointsRemaining,
  type StatPoints,
  statPointsProblem,
  WILD_POINTS_MAX,
} from '../../../domain/dinoBuilder.ts';
import { DINO_STATS } from '../../../domain/enums.ts';
import { wildPoints } from '../../../domain/validate.ts';
import { colorTitle } from '../../../domain/words.ts';
import { useCommandRuntime } from '../../app/runtime.ts';
import { describeFailure, type RunFailure } from '../../palette/prompt.ts';
import { ArgField, type FieldValue, fieldValue, parseFields } from '../../ui/ArgForm.tsx';
import { ColorPicker } from '../../ui/BlueprintPicker.tsx';
import { useCatalogue } from '../../ui/catalogue.ts';
import './give.css';

const GENDERS = ['random', 'male', 'female'] as const;
/** The schema's fields shown as they are, in the form's order. */
const PLAIN = ['survivors', 'species', 'name', 'level'] as const;
const LATER = ['age', 'imprint', 'sterilized'] as const;
const NO_COLOR = 0;

const pick = <T,>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/** `survivors=a,b` of the creator's address, as refs the lookup fills in with names. */
function useSurvivorsFromQuery(): string[] {
  const { search } = useLocation();
  return useMemo(
    () => (new URLSearchParams(search).get('survivors') ?? '').split(',').filter(Boolean),
    [search],
  );
}

export function DinoCreator() {
  const rt = useCommandRuntime();
  const cmd = rt.registry.get('survivor.giveDino')!;
  const args = cmd.args!;
  const ids = useSurvivorsFromQuery();
  const m = useCatalogue();

  const [fields, setFields] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(
      [...PLAIN, ...LATER].map((n) => [n, fieldValue(args[n], n === 'sterilized' ? false : undefined)]),
    ),
  );
  // Survivors named in the address: their names come from the store or the API.
  useEffect(() => {
    if (ids.length === 0) return;
    void Promise.all(ids.map((id) => rt.entities.resolve(['survivor'], id))).then((found) => {
      const refs: EntityRef[] = found.flat();
      if (refs.length) setFields((f) => ({ ...f, survivors: fieldValue(args.survivors, refs) }));
    });
  }, [ids, rt.entities, args.survivors]);

  const [stats, setStats] = useState<string[]>(() => DINO_STATS.map(() => ''));
  const [gender, setGender] = useState<(typeof GENDERS)[number]>('random');
  const [colors, setColors] = useState<number[]>(() => Array(DINO_LIMITS.colorRegions).fill(NO_COLOR));
  const [traits, setTraits] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<RunFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const species = m?.findCreature(fields.species.raw);
  const game = m ? m.gameOf(species) : 'ASE';
  const palette = useMemo(() => (m ? m.colorsOf(game) : []), [m, game]);
  const natural = useMemo(() => palette.filter((c) => !c.dye), [palette]);

  const level = /^\d+$/.test(fields.level.raw.trim()) ? Number(fields.level.raw) : null;
  const points: StatPoints = Object.fromEntries(
    stats.flatMap((v, i) => (v.trim() === '' || Number.isNaN(Number(v)) ? [] : [[i, Number(v)]])),
  );
  const remaining = pointsRemaining(points, level);
  const statsProblem = statPointsProblem(points, level);

  const clear = (name: string) => {
    setErrors(({ [name]: _, ...rest }) => rest);
    setFailure(null);
  };
  const change = (name: string, v: FieldValue) => {
    setFields((f) => ({ ...f, [name]: v }));
    clear(name);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const { parsed, found: refused } = await parseFields([...PLAIN, ...LATER], args, fields, rt.entities);
      const found: Record<string, string> = { ...refused };
      const badStat = stats.map((v) => (v.trim() === '' ? null : wildPoints(Number(v)))).find(Boolean);
      if (badStat || statsProblem) found.stats = badStat ?? statsProblem!;
      if (!parsed.species && !found.species) found.species = 'Choose a species.';
      setErrors(found);
      if (Object.keys(found).length > 0) return setRefusals((n) => n + 1);
      // The same command the console runs, given what the widgets hold in its console form.
      await rt.run(
        cmd,
        {
          ...parsed,
          gender,
          stats: Object.entries(points)
            .map(([i, v]) => `${i}:${v}`)
            .join(' '),
          colors: colors.some((c) => c !== NO_COLOR) ? colors.join(',') : undefined,
          traits,
        },
        'form',
      );
    } catch (err) {
      const f = describeFailure(err);
      const field = f.field === 'isFemale' ? 'gender' : f.field === 'isSterilized' ? 'sterilized' : f.field;
      if (field) {
        setErrors({ [field]: f.reason ? `${f.summary} ${f.reason}` : f.summary });
        setRefusals((n) => n + 1);
      } else setFailure(f);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: (typeof PLAIN)[number] | (typeof LATER)[number], autoFocus = false) => (
    <ArgField
      key={name}
      name={name}
      arg={args[name]}
      value={fields[name]}
      error={errors[name]}
      lookup={rt.entities}
      autoFocus={autoFocus}
      onChange={(v) => change(name, v)}
    />
  );

  return (
    <div className="page page-form">
      <h1>Custom dino creator</h1>
      <form
        ref={formRef}
        className="argform dino-creator"
        aria-label="Custom dino creator"
        onSubmit={submit}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
          e.preventDefault();
          formRef.current?.requestSubmit();
        }}
        noValidate
      >
        {PLAIN.map((n, i) => field(n, i === 0))}
        <StatPointsField
          values={stats}
          remaining={remaining}
          error={errors.stats ?? statsProblem ?? undefined}
          onChange={(v) => {
            setStats(v);
            clear('stats');
          }}
        />
        {field('age')}
        {field('imprint')}
        <fieldset className="dino-gender" aria-invalid={errors.gender ? true : undefined}>
          <legend>Gender</legend>
          {GENDERS.map((g) => (
            <label key={g}>
              <input
                type="radio"
                name="gender"
                value={g}
                checked={gender === g}
                onChange={() => {
                  setGender(g);
                  clear('gender');
                }}
              />
              {g}
            </label>
          ))}
          {errors.gender && <p className="argform-error">{errors.gender}</p>}
        </fieldset>
        {field('sterilized')}
        <fieldset className="dino-colors">
          <legend>Colour regions</legend>
          {colors.map((id, region) => (
            <ColorRegion
              // biome-ignore lint/suspicious/noArrayIndexKey: the six regions are fixed and ordered
              key={region}
              region={region}
              value={id}
              palette={palette}
              onChange={(c) => {
                setColors((cur) => cur.map((v, i) => (i === region ? c : v)));
                clear('colors');
              }}
              onNatural={() =>
                natural.length && setColors((cur) => cur.map((v, i) => (i === region ? pick(natural).id : v)))
              }
              onRandom={() =>
                palette.length && setColors((cur) => cur.map((v, i) => (i === region ? pick(palette).id : v)))
              }
            />
          ))}
          {errors.colors && <p className="argform-error">{errors.colors}</p>}
        </fieldset>
        <TraitsField
          traits={traits}
          error={errors.traits}
          onChange={(t) => {
            setTraits(t);
            clear('traits');
          }}
        />
        {failure && (
          <div className="argform-failure" role="alert">
            {failure.summary}
            {failure.reason && <div className="argform-reason">{failure.reason}</div>}
          </div>
        )}
        <div className="ui-dialog-actions">
          <button type="submit" className="ui-button ui-button-primary" aria-busy={busy || undefined}>
            Create dino
          </button>
        </div>
      </form>
    </div>
  );
}

function StatPointsField({
  values,
  remaining,
  error,
  onChange,
}: {
  values: string[];
  remaining: number;
  error?: string;
  onChange(v: string[]): void;
}) {
  const id = useId();
  return (
    <fieldset className="dino-stats" aria-describedby={`${id}-left`}>
      <legend>Wild stat points</legend>
      <p id={`${id}-left`} className="argform-hint" aria-live="polite">
        {remaining} points remaining · 0 to {WILD_POINTS_MAX} each; blank lets the game decide
      </p>
      <div className="dino-stats-grid">
        {DINO_STATS.map((name, i) => (
          <label key={name}>
            <span>{name}</span>
            <input
              className="ui-input"
              inputMode="numeric"
              autoComplete="off"
              value={values[i]}
              aria-invalid={error ? true : undefined}
              onChange={(e) => onChange(values.map((v, j) => (j === i ? e.target.value : v)))}
            />
          </label>
        ))}
      </div>
      {error && <p className="argform-error">{error}</p>}
    </fieldset>
  );
}

function Swatch({ color }: { color?: DinoColor }) {
  return (
    <span className="dino-swatch" style={{ background: color?.hex ?? 'transparent' }} aria-hidden="true" />
  );
}

function ColorRegion({
  region,
  value,
  palette,
  onChange,
  onNatural,
  onRandom,
}: {
  region: number;
  value: number;
  palette: readonly DinoColor[];
  onChange(id: number): void;
  onNatural(): void;
  onRandom(): void;
}) {
  const color = palette.find((c) => c.id === value);
  const label = `Region ${region + 1}`;
  const [picking, setPicking] = useState(false);
  return (
    <div className="dino-region" data-region={region + 1}>
      <span className="dino-region-label">{label}</span>
      <Swatch color={color} />
      <span className="dino-region-value">
        {color ? `${colorTitle(color)} (${color.id})` : 'game decides'}
      </span>
      <button
        type="button"
        className="ui-button"
        aria-label={`Pick ${label} colour`}
        onClick={() => setPicking(true)}
      >
        Pick
      </button>
      {picking && (
        <ColorPicker
          title={`${label} colour`}
          colors={palette}
          onPick={(id) => {
            onChange(id);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
      <button
        type="button"
        className="ui-button"
        aria-label={`Pick Natural Colors for ${label}`}
        onClick={onNatural}
      >
        Pick Natural Colors
      </button>
      <button
        type="button"
        className="ui-button"
        aria-label={`Pick Random Colors for ${label}`}
        onClick={onRandom}
      >
        Pick Random Colors
      </button>
    </div>
  );
}

/** Traits: search the names, Enter adds the first match; each trait up to its cap. */
function TraitsField({
  traits,
  error,
  onChange,
}: {
  traits: string[];
  error?: string;
  onChange(t: string[]): void;
}) {
  const [q, setQ] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const id = useId();
  const matches = DINO_TRAITS.filter((t) => t.name.toLowerCase().includes(q.trim().toLowerCase()));
  const add = (name: string) => {
    const problem = addTraitProblem(traits, name);
    setRefusal(problem);
    if (!problem) onChange([...traits, name]);
  };
  const message = refusal ?? error;
  return (
    <fieldset className="dino-traits">
      <legend>Traits</legend>
      <label className="picker-search">
        <span>Search traits</span>
        <input
          type="search"
          className="ui-input"
          value={q}
          list={`${id}-names`}
          aria-describedby={`${id}-help`}
          aria-invalid={message ? true : undefined}
          onChange={(e) => {
            setQ(e.target.value);
            setRefusal(null);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.ctrlKey || e.metaKey) return;
            e.preventDefault();
            if (matches[0]) add(matches[0].name);
          }}
        />
      </label>
      <datalist id={`${id}-names`}>
        {DINO_TRAITS.map((t) => (
          <option key={t.name} value={t.name} />
        ))}
      </datalist>
      <p id={`${id}-help`} className="argform-hint">
        Enter adds {matches[0]?.name ?? 'the first match'}; a trait again for each more of it.
      </p>
      <div className="dino-trait-buttons">
        {matches.map((t) => (
          <button key={t.name} type="button" className="ui-button" onClick={() => add(t.name)}>
            Add {t.name}
          </button>
        ))}
      </div>
      {message && (
        <p className="argform-error" role="alert">
          {message}
        </p>
      )}
      <ul className="dino-trait-list" aria-label="Traits added">
        {traits.map((t, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the same trait may be added more than once
          <li key={`${t}-${i}`}>
            {t}{' '}
            <button
              type="button"
              className="ui-button"
              aria-label={`Remove ${t}`}
              onClick={() => {
                setRefusal(null);
                onChange(traits.filter((_, j) => j !== i));
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
