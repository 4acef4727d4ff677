// Writing scripts (ACTIONS.md "Scripts and Workshop": script.create, save, delete, duplicate,
// import, export, test, and a script's webhooks). The creator and editor (/scripts/add,
// /scripts/{id}) are forms over script.save and script.test; the console takes the same script
// as JSON, the shape of an export file.

import type { Script } from '../src/domain/api.ts';
import { formatCount } from '../src/domain/format.ts';
import { readLink } from '../src/domain/importer.ts';
import { Msg } from '../src/domain/messages.ts';
import { pathOf } from '../src/domain/resolver.ts';
import {
  documentOf,
  exportFileName,
  exportText,
  parseImport,
  type ScriptDocument,
  uniqueName,
} from '../src/domain/scripts/content.ts';
import { SCRIPT_LIMITS } from '../src/domain/scripts/limits.ts';
import type { Action } from '../src/domain/scripts/simple.ts';
import { ApiError } from '../src/web/api/http.ts';
import type { ScriptWebhook } from '../src/web/api/sentinel.ts';
import { type EntityRef, int, oneOf, ref, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Scripts';
const CREATOR = '/scripts/add';

/** SPEC §8 "Script save": a refusal of the editing bits is the spec's forbidden. */
function refused(e: unknown): never {
  if (e instanceof ApiError && e.code === 'forbidden')
    throw new CommandError(`${Msg.forbidden} (edit scripts).`);
  throw e;
}

function parseDocument(json: string): ScriptDocument {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    throw new CommandError(
      'The script must be JSON: {name, description, preview, parameters, events}.',
      'content',
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new CommandError('The script must be a JSON object.', 'content');
  return documentOf(data as Record<string, unknown>);
}

/** The names of the caller's scripts, to find a free one. */
async function myScriptNames(ctx: CommandContext, like: string): Promise<Script[]> {
  const page = await ctx.app.api.scripts.list({ name: like.replace(/ \(\d+\)$/, ''), pageSize: 250 });
  return page.results.filter((s) => s.userId === ctx.user?.userId);
}

async function create(ctx: CommandContext, doc: ScriptDocument): Promise<string> {
  const r = await ctx.app.api.scripts.create(doc as never).catch(refused);
  const made = r.created[0] as Script | undefined;
  if (!made) throw new CommandError('The server did not say which script it created.');
  return made.scriptId;
}

/** After a new script is made from the creator, the creator becomes its editor. */
function openMade(ctx: CommandContext, scriptId: string): void {
  if (ctx.route.split('?')[0] === CREATOR || ctx.surface !== 'console')
    ctx.app.navigate(pathOf('script', scriptId));
}

const removeScript = (ctx: CommandContext, scriptId: string) => async () => {
  await ctx.app.api.scripts.remove(scriptId);
};

const TEST_WAIT_MS = SCRIPT_LIMITS.testTimeoutMs + 5_000;

export type TestStatus = 'success' | 'failure' | 'timeout' | 'requiresReview';

export interface TestReport {
  requestId: string | null;
  status: TestStatus;
  output: string;
  error: string | null;
  actions: Action[];
  /** Actions the tester counted past the ones it lists. */
  actionsOmitted?: number;
  durationMs: number | null;
}

export const TEST_STATUS_LABEL: Record<TestStatus, string> = {
  success: 'Success',
  failure: 'Failure',
  timeout: 'Timeout',
  requiresReview: 'Requires review',
};

export const TEST_TIMEOUT_TEXT = `No reply within ${SCRIPT_LIMITS.testTimeoutMs / 1000} seconds.`;

export interface TestInput {
  content: ScriptDocument;
  /** Index into content.events. */
  event: number;
  parameters: Record<string, string | number | boolean>;
  /** The sample event's chat line (chat, command contexts). */
  message?: string;
}

/**
 * Runs one event of a script in the tester (SPEC §4 "Script test"): queued, then its outcome once
 * the realtime channel says the test ended; with no word in time, the row tells, else a timeout.
 */
export async function runScriptTest(
  ctx: CommandContext,
  input: TestInput,
  onOutput?: (lines: string[]) => void,
): Promise<TestReport> {
  const e = input.content.events[input.event];
  if (!e) throw new CommandError(`The script has no event ${input.event + 1}.`, 'event');
  const { requestId } = await ctx.app.api.scriptTests.create({
    context: e.context,
    language: e.language,
    code: e.code,
    parameters: input.parameters,
    ...(input.message ? { chatMessage: input.message } : {}),
  });
  const stop = onOutput ? ctx.app.game.output(requestId, onOutput) : null;
  await ctx.app.game.result(requestId, TEST_WAIT_MS).catch(() => null);
  stop?.();
  const row = await ctx.app.api.scriptTests.get(requestId);
  if (!row.output)
    return {
      requestId,
      status: 'timeout',
      output: '',
      error: TEST_TIMEOUT_TEXT,
      actions: [],
      durationMs: null,
    };
  const o = JSON.parse(row.output) as Omit<TestReport, 'requestId'>;
  return { requestId, ...o };
}

/** Text/number/boolean values from `name=value` words or a JSON object. */
export function parameterValues(raw: string): Record<string, string | number | boolean> {
  const t = raw.trim();
  if (t === '') return {};
  if (t.startsWith('{')) {
    try {
      return JSON.parse(t);
    } catch {
      throw new CommandError('Parameters are a JSON object or name=value words.', 'parameters');
    }
  }
  const out: Record<string, string | number | boolean> = {};
  for (const word of t.split(/\s+/)) {
    const at = word.indexOf('=');
    if (at < 1) throw new CommandError(`"${word}" is not name=value.`, 'parameters');
    const v = word.slice(at + 1);
    out[word.slice(0, at)] =
      v === 'true' ? true : v === 'false' ? false : v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  }
  return out;
}

async function webhookOf(ctx: CommandContext, script: EntityRef, named: string): Promise<ScriptWebhook> {
  const { webhooks } = await ctx.app.api.scriptWebhooks.list(script.id);
  const want = named.trim().toLowerCase();
  const hit = webhooks.filter((w) => w.webhookId === want || w.purpose.toLowerCase() === want);
  if (hit.length !== 1)
    throw new CommandError(
      `${hit.length ? 'Several webhooks' : 'No webhook'} of ${script.label} ${hit.length ? 'are' : 'is'} named "${named}". Webhooks: ${webhooks.map((w) => w.purpose).join(', ') || 'none'}.`,
      'webhook',
    );
  return hit[0];
}

const webhookSections = (w: ScriptWebhook): CommandResult['sections'] => [
  { heading: 'URL', text: w.url },
  ...(w.secret ? [{ heading: 'Secret', text: w.secret }] : []),
];

const scriptArg = () => ref('script').describe('Script', 'Blank: the one in view');
const webhookArg = () => text().min(1).describe('Webhook', 'Its purpose or id').rest();

export const IMPORT_CHOICES = ['ask', 'keepBoth', 'replace'] as const;

export const duplicateNameMessage = (name: string) =>
  `You already have a script named ${name}. Keep both, or replace it?`;

export const scriptEditingCommands = [
  defineCommand({
    id: 'script.create',
    title: 'New script',
    description: 'Open the script creator',
    group,
    aliases: ['newscript'],
    args: { name: text().optional().describe('Name').rest() },
    run: ({ name }, ctx) => {
      ctx.app.navigate(name?.trim() ? `${CREATOR}?name=${encodeURIComponent(name.trim())}` : CREATOR);
      return undefined;
    },
  }),
  defineCommand({
    id: 'script.save',
    title: 'Save script',
    description: 'Save the script in the editor (a new one is created)',
    group,
    aliases: ['savescript'],
    args: {
      script: scriptArg().optional(),
      content: text()
        .min(1, 'Give the script as JSON.')
        .describe('Script', 'JSON: name, description, preview, parameters, commonJavascript, events'),
    },
    run: async ({ script, content }, ctx) => {
      const doc = parseDocument(content);
      if (!script) {
        const id = await create(ctx, doc);
        openMade(ctx, id);
        return { message: `${doc.name} was created.` };
      }
      await ctx.app.api.scripts.replace(script.id, doc as never).catch(refused);
      return { message: `${doc.name} was saved.` };
    },
  }),
  defineCommand({
    id: 'script.delete',
    title: 'Delete script',
    group,
    aliases: ['rmscript'],
    danger: 'confirm',
    args: { script: scriptArg() },
    run: async ({ script }, ctx) => {
      await ctx.app.api.scripts.remove(script.id).catch(refused);
      if (ctx.route.startsWith(pathOf('script', script.id))) ctx.app.navigate(pathOf('script'));
      return { message: `${script.label} was deleted.` };
    },
  }),
  defineCommand({
    id: 'script.duplicate',
    title: 'Duplicate script',
    group,
    aliases: ['dupscript'],
    args: { script: scriptArg() },
    run: async ({ script }, ctx) => {
      const s = await ctx.app.api.scripts.get(script.id);
      const doc = documentOf(s as unknown as Record<string, unknown>);
      const name = uniqueName(
        doc.name,
        (await myScriptNames(ctx, doc.name)).map((x) => x.name),
      );
      const id = await create(ctx, { ...doc, name });
      if (ctx.surface !== 'console') ctx.app.navigate(pathOf('script', id));
      return { message: `${script.label} was copied as ${name}.`, undo: removeScript(ctx, id) };
    },
  }),
  defineCommand({
    id: 'script.import',
    title: 'Import script',
    description: 'A script exported as a file; a duplicate name offers keep both or replace',
    group,
    aliases: ['importscript'],
    args: {
      onDuplicate: oneOf(IMPORT_CHOICES)
        .default('ask')
        .describe('If the name is taken', 'ask, keepBoth or replace'),
      source: text()
        .min(1, 'Give the exported file’s text.')
        .describe('File', 'The exported JSON, or an https:// link to it')
        .rest(),
    },
    run: async ({ source, onDuplicate }, ctx) => {
      const text = /^https?:\/\/\S+$/i.test(source.trim()) ? await readLink(source.trim()) : source;
      const doc = parseImport(text);
      if (typeof doc === 'string') throw new CommandError(doc, 'source');
      const mine = await myScriptNames(ctx, doc.name);
      const same = mine.find((s) => s.name.trim().toLowerCase() === doc.name.trim().toLowerCase());
      if (same && onDuplicate === 'ask')
        throw new CommandError(duplicateNameMessage(doc.name), 'onDuplicate');
      if (same && onDuplicate === 'replace') {
        await ctx.app.api.scripts.replace(same.scriptId, doc as never).catch(refused);
        if (ctx.surface !== 'console') ctx.app.navigate(pathOf('script', same.scriptId));
        return { message: `${same.name} was replaced by the imported script.` };
      }
      const name = uniqueName(
        doc.name,
        mine.map((s) => s.name),
      );
      const id = await create(ctx, { ...doc, name });
      if (ctx.surface !== 'console') ctx.app.navigate(pathOf('script', id));
      return { message: `${name} was imported.`, undo: removeScript(ctx, id) };
    },
  }),
  defineCommand({
    id: 'script.export',
    title: 'Export script',
    description: 'Save the script as a file to import elsewhere',
    group,
    aliases: ['exportscript'],
    args: { script: scriptArg() },
    run: async ({ script }, ctx) => {
      const s = await ctx.app.api.scripts.get(script.id);
      const doc = documentOf(s as unknown as Record<string, unknown>);
      const filename = exportFileName(doc.name);
      ctx.app.files.save(filename, exportText(doc), 'application/json');
      return { message: `${doc.name} was exported as ${filename}.` };
    },
  }),
  defineCommand({
    id: 'script.test',
    title: 'Test script',
    description: 'Run an event of a script against a sample event; nothing is done on any server',
    group,
    aliases: ['testscript'],
    args: {
      content: text().min(1, 'Give the script as JSON.').describe('Script', 'JSON, as script.save takes it'),
      event: int({ min: 1 }).default(1).describe('Event', 'Which of its events, from 1'),
      parameters: text().optional().describe('Parameters', 'name=value words, or a JSON object'),
      message: text().optional().describe('Sample chat line').rest(),
    },
    run: async ({ content, event, parameters, message }, ctx) => {
      const r = await runScriptTest(ctx, {
        content: parseDocument(content),
        event: event - 1,
        parameters: parameterValues(parameters ?? ''),
        message,
      });
      return {
        message: `Test: ${TEST_STATUS_LABEL[r.status]}${r.error ? `. ${r.error}` : ''}`,
        sections: [
          { heading: 'Output', text: r.output || '(none)' },
          {
            heading: 'Actions',
            text:
              [
                ...r.actions.map((a) => JSON.stringify(a)),
                ...(r.actionsOmitted ? [`and ${formatCount(r.actionsOmitted)} more, not listed`] : []),
              ].join('\n') || '(none)',
          },
          ...(r.error ? [{ heading: 'Error', text: r.error, failed: true }] : []),
        ],
      };
    },
  }),
  defineCommand({
    id: 'script.webhook.create',
    title: 'Add script webhook',
    description: 'A signed URL that runs the script’s webhook events',
    group,
    args: {
      script: scriptArg(),
      purpose: text().min(1, 'Say what the webhook is for.').describe('Purpose').rest(),
    },
    run: async ({ script, purpose }, ctx) => {
      const w = await ctx.app.api.scriptWebhooks.create(script.id, purpose.trim()).catch(refused);
      return { message: `Webhook ${w.purpose} was added to ${script.label}.`, sections: webhookSections(w) };
    },
  }),
  defineCommand({
    id: 'script.webhook.rotateSecret',
    title: 'New webhook secret',
    description: 'The old secret stops working at once',
    group,
    danger: 'confirm',
    args: { script: scriptArg(), webhook: webhookArg() },
    run: async ({ script, webhook }, ctx) => {
      const w = await webhookOf(ctx, script, webhook);
      const fresh = await ctx.app.api.scriptWebhooks.rotateSecret(script.id, w.webhookId).catch(refused);
      return { message: `Webhook ${w.purpose} has a new secret.`, sections: webhookSections(fresh) };
    },
  }),
  defineCommand({
    id: 'script.webhook.copyUrl',
    title: 'Copy webhook URL',
    group,
    args: { script: scriptArg(), webhook: webhookArg() },
    run: async ({ script, webhook }, ctx) => {
      const w = await webhookOf(ctx, script, webhook);
      await ctx.app.clipboard.copy(w.url);
      return { message: `Copied the URL of webhook ${w.purpose}.` };
    },
  }),
];
