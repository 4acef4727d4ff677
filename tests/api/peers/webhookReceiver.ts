// A test peer playing Discord's "Execute Webhook" endpoint and a Slack incoming webhook, so alert
// delivery is checked against the services' published formats and limits, not against what our
// own code assumes. Every rule below is taken from these pages (quoted as "§Page: section"):
//
// Discord (docs source: github.com/discord/discord-api-docs)
//   §Webhook   https://discord.com/developers/docs/resources/webhook#execute-webhook
//              (docs/resources/webhook.mdx: JSON params, "at least one of content, embeds,
//              components, file or poll", embeds "array of up to 10", 204 unless ?wait=true;
//              Create Webhook: names 1-80 characters, no "clyde" or "discord")
//   §Message   https://discord.com/developers/docs/resources/message#embed-object-embed-limits
//              (docs/resources/message.mdx: embed structure, Embed Limits, trimmed counting,
//              the 6000-character sum, Allowed Mentions object and its invalid combination)
//   §Reference https://discord.com/developers/docs/reference#error-messages
//              (the 50035 "Invalid Form Body" envelope; Content-Type rule)
//   §Codes     https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
//              (50006 "Cannot send an empty message", 50109 "The request body contains invalid JSON.")
//   §RateLimit https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit
// Slack
//   §Blocks    https://docs.slack.dev/reference/block-kit/blocks (up to 50 blocks in a message)
//   §Header    https://docs.slack.dev/reference/block-kit/blocks/header-block (plain_text, 150)
//   §Section   https://docs.slack.dev/reference/block-kit/blocks/section-block (text 1-3000;
//              fields up to 10, each up to 2000; text or fields required; block_id up to 255)
//   §Context   https://docs.slack.dev/reference/block-kit/blocks/context-block (up to 10 elements)
//   §Image     https://docs.slack.dev/reference/block-kit/blocks/image-block (alt_text 2000,
//              image_url 3000, image_url or slack_file, title plain_text 2000)
//   §Text      https://docs.slack.dev/reference/block-kit/composition-objects/text-object
//              (plain_text | mrkdwn, text 1-3000, emoji only on plain_text, verbatim only on mrkdwn)
//   §Errors    https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks
//              (400 + plain-text invalid_payload; 500 rollup_error)
//   §SlackRate https://docs.slack.dev/apis/web-api/rate-limits (HTTP 429 with Retry-After)
// Not in Slack's docs but seen from the real service: a payload whose blocks break Block Kit rules
// is answered 400 `invalid_blocks` (e.g. more than 50 blocks, https://zenn.dev/shin_semiya/articles/8d90f894be01be),
// so block errors get that body and other shape errors `invalid_payload`.
//
// Only the block types and fields listed here are modelled. A block type not modelled is refused
// (rather than waved through) so a new kind of alert message gets its rules written before it is
// trusted.

import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv, { type AnySchemaObject, type ErrorObject, type SchemaValidateFunction } from 'ajv';
import { waitForEntry } from './waitFor.ts';

export type Service = 'discord' | 'slack';

export interface Received {
  service: Service;
  path: string; // as requested, query included
  headers: Record<string, string>; // lower-case names, as node gives them
  body: unknown; // the parsed JSON payload, or null when it did not parse
  raw: string;
  status: number; // what this peer answered
  problems: string[]; // every rule the payload breaks, readable; empty when valid
  at: number; // Date.now() on arrival
}

export interface WebhookReceiver {
  readonly port: number;
  /** Every Discord and Slack request, in arrival order (404s for other paths are not kept). */
  readonly received: Received[];
  /** http://127.0.0.1:<port>/api/webhooks/<id>/<token> (id and token from §Webhook's example). */
  discordUrl(id?: string): string;
  /** http://127.0.0.1:<port>/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX */
  slackUrl(): string;
  /** The next `count` webhook requests (either service) are answered 429, retry after `retryAfterSeconds`. */
  limitNext(count: number, retryAfterSeconds: number): void;
  /** The next `count` webhook requests (either service) are answered `status`. Forced answers queue in call order. */
  failNext(count: number, status: number): void;
  /** The first request, already received or still to come, for which `predicate` is true. Rejects on close(). */
  waitFor(predicate: (r: Received) => boolean, what?: string): Promise<Received>;
  close(): Promise<void>;
}

/** §Webhook's "Example Incoming Webhook": a real-looking id and token. */
const DOC_WEBHOOK_ID = '223704706495545344';
const DOC_WEBHOOK_TOKEN =
  '3d89bb7572e0fb30d8128367b3b1b44fecd1726de135cbe28a41f8b2f777c372ba2939e72279b94526ff5d1bd4358d65cf11';
/** Slack's documented placeholder webhook path. */
const SLACK_PATH = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

// ---------------------------------------------------------------------------------------------
// Validation

// Strict, so a mistyped schema keyword throws instead of silently checking nothing; `required`
// may name a property defined beside it (a discriminator's tag, an either-or of two fields).
const ajv = new Ajv({
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  discriminator: true,
  verbose: true,
});

/** Keyword errors are built here so a failed rule reads as the docs state it. */
function keyword(
  name: string,
  type: 'string' | 'array' | 'object' | 'integer',
  check: (schema: never, data: never) => string | null,
): void {
  const validate: SchemaValidateFunction = (schema, data) => {
    const message = check(schema as never, data as never);
    validate.errors = message === null ? [] : [{ keyword: name, message, params: { limit: schema } }];
    return message === null;
  };
  ajv.addKeyword({ keyword: name, type, errors: true, validate });
}

/** Code points, as JSON Schema's maxLength counts them. */
const length = (s: string) => [...s].length;

// §Message: Embed Limits are "measured inclusively. Leading and trailing whitespace characters are
// not included (they are trimmed automatically)".
keyword('maxTrimmed', 'string', (max: number, s: string) => {
  const n = length(s.trim());
  return n <= max ? null : `must be ${max} or fewer characters once trimmed (is ${n})`;
});

/** §Message: the fields counted in the 6000-character sum over all embeds of a message. */
function embedCharacters(embed: unknown): number {
  if (!isObject(embed)) return 0;
  const text = (v: unknown) => (typeof v === 'string' ? length(v.trim()) : 0);
  let n = text(embed.title) + text(embed.description);
  if (isObject(embed.footer)) n += text(embed.footer.text);
  if (isObject(embed.author)) n += text(embed.author.name);
  if (Array.isArray(embed.fields))
    for (const f of embed.fields) if (isObject(f)) n += text(f.name) + text(f.value);
  return n;
}
keyword('embedTotal', 'array', (max: number, embeds: unknown[]) => {
  const n = embeds.reduce<number>((sum, e) => sum + embedCharacters(e), 0);
  return n <= max
    ? null
    : `title, description, field names and values, footer text and author names of all embeds add up to ${n} characters, more than ${max}`;
});

// §Webhook (Create Webhook): names "do not contain the substrings clyde or discord (case-insensitive)".
// The username of Execute Webhook overrides that name, so it is held to the same rule.
keyword('forbidSubstrings', 'string', (words: string[], s: string) => {
  const hit = words.find((w) => s.toLowerCase().includes(w));
  return hit === undefined ? null : `must not contain "${hit}" (any case)`;
});

// §Webhook: "only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set".
keyword('bitsWithin', 'integer', (mask: number, n: number) =>
  n >= 0 && (n & ~mask) === 0
    ? null
    : `may only combine the flags ${mask} allows (SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2)`,
);

// §Message (Allowed Mentions): parse is "mutually exclusive with the other fields": parse
// ["users"] with a users list is a validation error, while a falsy users ([] or null) is not.
keyword('mentionsExclusive', 'object', (_: true, m: Record<string, unknown>) => {
  const parse = Array.isArray(m.parse) ? m.parse : [];
  for (const kind of ['users', 'roles'] as const) {
    const list = m[kind];
    if (parse.includes(kind) && Array.isArray(list) && list.length > 0)
      return `must not list ${kind} while parse contains "${kind}" (mutually exclusive)`;
  }
  return null;
});

// §Message: timestamp is an "ISO8601 timestamp"; §Reference: "ISO8601 Date/Time".
const ISO8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
ajv.addFormat('iso8601', (s: string) => ISO8601.test(s) && !Number.isNaN(Date.parse(s)));

const snowflake = { type: 'string', pattern: '^[0-9]{1,20}$' };
/** §Message: author.url "only supports http(s)". */
const httpUrl = { type: 'string', pattern: '^https?://' };
/** §Message: image, thumbnail and icon urls "only support http(s) and attachments". */
const mediaUrl = { type: 'string', pattern: '^(https?|attachment)://' };
const media = { type: 'object', required: ['url'], properties: { url: mediaUrl } };

const discordEmbed = {
  type: 'object',
  properties: {
    title: { type: 'string', maxTrimmed: 256 },
    type: { type: 'string' }, // §Webhook: ignored, "it will be rich regardless"
    description: { type: 'string', maxTrimmed: 4096 },
    url: { type: 'string' },
    timestamp: { type: 'string', format: 'iso8601' },
    // §Message says only "integer"; Discord refuses more than 24 bits of RGB (0xFFFFFF).
    color: { type: 'integer', minimum: 0, maximum: 0xffffff },
    footer: {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string', maxTrimmed: 2048 }, icon_url: mediaUrl },
    },
    image: media,
    thumbnail: media,
    author: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxTrimmed: 256 }, url: httpUrl, icon_url: mediaUrl },
    },
    fields: {
      type: 'array',
      maxItems: 25,
      items: {
        type: 'object',
        required: ['name', 'value'],
        properties: {
          name: { type: 'string', maxTrimmed: 256 },
          value: { type: 'string', maxTrimmed: 1024 },
          inline: { type: 'boolean' },
        },
      },
    },
  },
};

const SUPPRESS_EMBEDS = 1 << 2;
const SUPPRESS_NOTIFICATIONS = 1 << 12;
const IS_COMPONENTS_V2 = 1 << 15;

/** §Webhook: Execute Webhook JSON params. Unknown keys are ignored by Discord, so allowed here. */
const discordExecuteSchema = {
  type: 'object',
  properties: {
    content: { type: 'string', maxLength: 2000 },
    username: { type: 'string', minLength: 1, maxLength: 80, forbidSubstrings: ['clyde', 'discord'] },
    avatar_url: { type: 'string' },
    tts: { type: 'boolean' },
    embeds: { type: 'array', maxItems: 10, items: discordEmbed, embedTotal: 6000 },
    allowed_mentions: {
      type: 'object',
      properties: {
        parse: { type: 'array', items: { type: 'string', enum: ['roles', 'users', 'everyone'] } },
        roles: { type: ['array', 'null'], maxItems: 100, items: snowflake },
        users: { type: ['array', 'null'], maxItems: 100, items: snowflake },
        replied_user: { type: 'boolean' },
      },
      mentionsExclusive: true,
    },
    components: { type: 'array' },
    attachments: { type: 'array' },
    flags: { type: 'integer', bitsWithin: SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 },
    thread_name: { type: 'string' },
    applied_tags: { type: 'array', items: snowflake },
    poll: { type: 'object' },
  },
};

/** A block_id, on every block (§Section and the others: up to 255 characters). */
const blockId = { type: 'string', maxLength: 255 };

const plainText = (max: number) => ({
  type: 'object',
  required: ['type', 'text'],
  properties: {
    type: { const: 'plain_text' },
    text: { type: 'string', minLength: 1, maxLength: max },
    emoji: { type: 'boolean' },
  },
  additionalProperties: false,
});
const mrkdwn = (max: number) => ({
  type: 'object',
  required: ['type', 'text'],
  properties: {
    type: { const: 'mrkdwn' },
    text: { type: 'string', minLength: 1, maxLength: max },
    verbatim: { type: 'boolean' },
  },
  additionalProperties: false,
});
/** §Text: either kind; emoji and verbatim each belong to one kind only. */
const textObject = (max: number) => ({
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [plainText(max), mrkdwn(max)],
});

/** §Context: its elements are image elements and text objects. */
const imageElement = {
  type: 'object',
  required: ['type', 'alt_text'],
  properties: {
    type: { const: 'image' },
    image_url: { type: 'string' },
    slack_file: { type: 'object' },
    alt_text: { type: 'string' },
  },
  additionalProperties: false,
  oneOf: [{ required: ['image_url'] }, { required: ['slack_file'] }],
};

const slackBlock = {
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [
    {
      type: 'object',
      required: ['type', 'text'],
      properties: { type: { const: 'header' }, text: plainText(150), block_id: blockId },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['type'],
      properties: {
        type: { const: 'section' },
        text: textObject(3000),
        fields: { type: 'array', maxItems: 10, items: textObject(2000) },
        accessory: { type: 'object' },
        expand: { type: 'boolean' },
        block_id: blockId,
      },
      additionalProperties: false,
      anyOf: [{ required: ['text'] }, { required: ['fields'] }],
    },
    {
      type: 'object',
      required: ['type', 'elements'],
      properties: {
        type: { const: 'context' },
        elements: {
          type: 'array',
          maxItems: 10,
          items: {
            type: 'object',
            required: ['type'],
            discriminator: { propertyName: 'type' },
            oneOf: [plainText(3000), mrkdwn(3000), imageElement],
          },
        },
        block_id: blockId,
      },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['type'],
      properties: { type: { const: 'divider' }, block_id: blockId },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['type', 'alt_text'],
      properties: {
        type: { const: 'image' },
        image_url: { type: 'string', maxLength: 3000 },
        slack_file: { type: 'object' },
        alt_text: { type: 'string', maxLength: 2000 },
        title: plainText(2000),
        block_id: blockId,
      },
      additionalProperties: false,
      oneOf: [{ required: ['image_url'] }, { required: ['slack_file'] }],
    },
  ],
};

/** An incoming-webhook payload: text, blocks and the legacy attachments (not modelled further). */
const slackMessageSchema = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    blocks: { type: 'array', maxItems: 50, items: slackBlock },
    attachments: { type: 'array' },
    thread_ts: { type: 'string' },
    mrkdwn: { type: 'boolean' },
    username: { type: 'string' },
    icon_emoji: { type: 'string' },
    icon_url: { type: 'string' },
    channel: { type: 'string' },
    unfurl_links: { type: 'boolean' },
    unfurl_media: { type: 'boolean' },
    reply_broadcast: { type: 'boolean' },
  },
};

const validateDiscordSchema = ajv.compile(discordExecuteSchema);
const validateSlackSchema = ajv.compile(slackMessageSchema);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One ajv error as a sentence naming the JSON pointer it is about. */
function describe(e: ErrorObject): string {
  const at = e.instancePath || '(body)';
  switch (e.keyword) {
    case 'required':
      return `${e.instancePath}/${e.params.missingProperty} is required`;
    case 'const':
      return `${at} must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'additionalProperties':
      return `${at} may not have the property "${e.params.additionalProperty}"`;
    case 'discriminator': {
      const allowed = ((e.parentSchema as AnySchemaObject | undefined)?.oneOf ?? []).map(
        (s: AnySchemaObject) => s.properties?.type?.const,
      );
      return `${at} has type ${JSON.stringify(e.params.tagValue)}, not one of ${allowed.join(', ')} (the types this peer models)`;
    }
    default:
      return `${at} ${e.message}`;
  }
}

function run(validate: typeof validateDiscordSchema, body: unknown): ErrorObject[] {
  return validate(body) ? [] : [...(validate.errors ?? [])];
}

/** §Webhook: "you must provide a value for at least one of content, embeds, components, file, or poll". */
function discordIsEmpty(body: Record<string, unknown>): boolean {
  const filled = (v: unknown) =>
    typeof v === 'string' ? v.trim() !== '' : Array.isArray(v) ? v.length > 0 : v != null;
  return !['content', 'embeds', 'components', 'poll'].some((k) => filled(body[k]));
}

/** Everything wrong with a Discord Execute Webhook JSON body; empty when Discord would take it. */
export function discordProblems(body: unknown): string[] {
  const problems = run(validateDiscordSchema, body).map(describe);
  if (isObject(body) && discordIsEmpty(body))
    problems.push('(body) has none of content, embeds, components or poll (Cannot send an empty message)');
  return problems;
}

/** Everything wrong with a Slack incoming-webhook JSON body; empty when Slack would take it. */
export function slackProblems(body: unknown): string[] {
  const problems = run(validateSlackSchema, body).map(describe);
  if (isObject(body) && slackIsEmpty(body)) problems.push('(body) has neither text nor blocks (no_text)');
  return problems;
}

function slackIsEmpty(body: Record<string, unknown>): boolean {
  const filled = (v: unknown) => (typeof v === 'string' ? v !== '' : Array.isArray(v) && v.length > 0);
  return !filled(body.text) && !filled(body.blocks) && !filled(body.attachments);
}

// ---------------------------------------------------------------------------------------------
// Answers

interface Answer {
  status: number;
  headers: Record<string, string>;
  payload: string;
}
interface Verdict {
  body: unknown;
  problems: string[];
  answer: Answer;
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  payload: JSON.stringify(value),
});
const text = (status: number, value: string, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  payload: value,
});

type FieldError = { code: string; message: string };

/** §Reference: Discord's form error codes are given by example only; those beyond
 * BASE_TYPE_REQUIRED and BASE_TYPE_CHOICES are Discord's usual ones, best effort. Tests should
 * look at the status and `problems`, not at these codes. */
function discordFieldError(e: ErrorObject): FieldError {
  const limit = e.params.limit;
  switch (e.keyword) {
    case 'required':
      return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
    case 'enum':
      return {
        code: 'BASE_TYPE_CHOICES',
        message: `Value must be one of (${e.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ')}).`,
      };
    case 'maxLength':
    case 'maxItems':
    case 'maxTrimmed':
      return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${limit} or fewer in length.` };
    case 'minLength':
    case 'minItems':
      return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${limit} or more in length.` };
    case 'embedTotal':
      return { code: 'BASE_TYPE_MAX_LENGTH', message: `Embed size exceeds maximum size of ${limit}` };
    case 'maximum':
      return { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${limit}.` };
    case 'minimum':
      return { code: 'NUMBER_TYPE_MIN', message: `int value should be greater than or equal to ${limit}.` };
    default:
      return { code: 'BASE_TYPE_INVALID', message: e.message ?? 'Invalid value' };
  }
}

/** §Reference: errors nest by JSON key (array indexes as keys) down to an `_errors` list. */
function discordErrorTree(errors: ErrorObject[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const e of errors) {
    const keys = e.instancePath
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required') keys.push(String(e.params.missingProperty));
    let node = root;
    for (const k of keys) {
      node[k] ??= {};
      node = node[k] as Record<string, unknown>;
    }
    node._errors ??= [];
    (node._errors as FieldError[]).push(discordFieldError(e));
  }
  return root;
}

/** §Reference: "Boolean Query Strings" are True, true or 1. */
const queryTrue = (v: string | null) => v === 'true' || v === 'True' || v === '1';

function discordVerdict(
  contentType: string,
  raw: string,
  query: URLSearchParams,
  webhookId: string,
): Verdict {
  // §Reference: a Content-Type other than application/json, application/x-www-form-urlencoded or
  // multipart/form-data "will result in a 50035" error. Discord takes the other two as well, but
  // only JSON is modelled here, so they are refused too, with a problem that says so.
  if (!/^application\/json\b/i.test(contentType)) {
    const accepted = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType);
    return {
      body: null,
      problems: [
        accepted
          ? `Content-Type ${JSON.stringify(contentType)} is accepted by Discord but not modelled by this peer; send JSON`
          : `Content-Type is ${JSON.stringify(contentType)}, not application/json`,
      ],
      answer: json(400, { code: 50035, message: 'Invalid Form Body', errors: {} }),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (e) {
    return {
      body: null,
      problems: [`body is not JSON: ${(e as Error).message}`],
      answer: json(400, { code: 50109, message: 'The request body contains invalid JSON.' }),
    };
  }
  const errors = run(validateDiscordSchema, body);
  if (errors.length > 0) {
    return {
      body,
      problems: discordProblems(body),
      answer: json(400, { code: 50035, message: 'Invalid Form Body', errors: discordErrorTree(errors) }),
    };
  }
  const message = body as Record<string, unknown>;
  if (discordIsEmpty(message)) {
    return {
      body,
      problems: discordProblems(body),
      answer: json(400, { code: 50006, message: 'Cannot send an empty message' }),
    };
  }
  // §Webhook: "Returns a message or 204 No Content depending on the wait query parameter".
  if (!queryTrue(query.get('wait')))
    return { body, problems: [], answer: { status: 204, headers: {}, payload: '' } };
  const id = String(BigInt(Date.now() - 1420070400000) << 22n); // §Reference: snowflake from a timestamp
  return {
    body,
    problems: [],
    answer: json(200, {
      id,
      type: 0,
      channel_id: '199737254929760256',
      webhook_id: webhookId,
      content: message.content ?? '',
      embeds: message.embeds ?? [],
      timestamp: new Date().toISOString(),
      tts: message.tts ?? false,
    }),
  };
}

function slackVerdict(contentType: string, raw: string): Verdict {
  // Slack takes a JSON body, or a form with the JSON in its `payload` field.
  const source = /^application\/x-www-form-urlencoded\b/i.test(contentType)
    ? (new URLSearchParams(raw).get('payload') ?? '')
    : raw;
  let body: unknown;
  try {
    body = JSON.parse(source);
  } catch (e) {
    return {
      body: null,
      problems: [`body is not JSON: ${(e as Error).message}`],
      answer: text(400, 'invalid_payload'),
    };
  }
  if (!isObject(body))
    return { body, problems: ['(body) must be a JSON object'], answer: text(400, 'invalid_payload') };
  const problems = slackProblems(body);
  const errors = run(validateSlackSchema, body);
  if (errors.length > 0) {
    const blocks = errors.some((e) => e.instancePath.startsWith('/blocks'));
    return { body, problems, answer: text(400, blocks ? 'invalid_blocks' : 'invalid_payload') };
  }
  if (slackIsEmpty(body)) return { body, problems, answer: text(400, 'no_text') };
  return { body, problems: [], answer: text(200, 'ok') };
}

type Injected = { kind: 'limit'; seconds: number } | { kind: 'fail'; status: number };

function injectedAnswer(service: Service, injected: Injected): Answer {
  if (injected.kind === 'limit') {
    const s = injected.seconds;
    const retryAfter = String(Math.ceil(s)); // Retry-After carries whole seconds
    if (service === 'slack') return text(429, 'rate_limited', { 'retry-after': retryAfter });
    // §RateLimit: "Example Exceeded User Rate Limit Response".
    return json(
      429,
      { message: 'You are being rate limited.', retry_after: s, global: false },
      {
        'retry-after': retryAfter,
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': (Date.now() / 1000 + s).toFixed(3),
        'x-ratelimit-reset-after': String(s),
        'x-ratelimit-bucket': 'peer-webhook',
        'x-ratelimit-scope': 'user',
      },
    );
  }
  const { status } = injected;
  const reason = http.STATUS_CODES[status] ?? 'Error';
  if (service === 'slack') return text(status, status === 500 ? 'rollup_error' : reason); // §Errors
  return json(status, { message: `${status}: ${reason}`, code: 0 });
}

// ---------------------------------------------------------------------------------------------
// Server

const DISCORD_ROUTE = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([^/]+)\/?$/;
const SLACK_ROUTE = /^\/services\/[^/]+\/[^/]+\/[^/]+\/?$/;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

class Receiver implements WebhookReceiver {
  readonly received: Received[] = [];
  #server: http.Server;
  #events = new EventEmitter().setMaxListeners(0);
  #queue: Injected[] = [];
  #port = 0;

  constructor() {
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch((e: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`peer error: ${(e as Error).message}`);
      });
    });
  }

  get port(): number {
    return this.#port;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  discordUrl(id = DOC_WEBHOOK_ID): string {
    return `http://127.0.0.1:${this.#port}/api/webhooks/${id}/${DOC_WEBHOOK_TOKEN}`;
  }

  slackUrl(): string {
    return `http://127.0.0.1:${this.#port}${SLACK_PATH}`;
  }

  limitNext(count: number, retryAfterSeconds: number): void {
    if (!(retryAfterSeconds >= 0 && Number.isFinite(retryAfterSeconds)))
      throw new RangeError('retryAfterSeconds must be a finite number >= 0');
    this.#enqueue(count, { kind: 'limit', seconds: retryAfterSeconds });
  }

  failNext(count: number, status: number): void {
    if (!Number.isInteger(status) || status < 100 || status > 599)
      throw new RangeError('status must be an HTTP status');
    this.#enqueue(count, { kind: 'fail', status });
  }

  waitFor(predicate: (r: Received) => boolean, what = 'a matching webhook request'): Promise<Received> {
    return waitForEntry(
      this.#events,
      'received',
      this.received,
      predicate,
      `webhook receiver closed while waiting for ${what}`,
    );
  }

  async close(): Promise<void> {
    this.#events.emit('close');
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #enqueue(count: number, injected: Injected): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a whole number >= 0');
    for (let i = 0; i < count; i++) this.#queue.push(injected);
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://peer');
    const discord = DISCORD_ROUTE.exec(url.pathname);
    const service: Service | null =
      req.method !== 'POST' ? null : discord ? 'discord' : SLACK_ROUTE.test(url.pathname) ? 'slack' : null;
    if (!service) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404: Not Found');
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    // The payload is judged even when the answer is forced, so a retried request shows its problems too.
    const verdict =
      service === 'discord'
        ? discordVerdict(contentType, raw, url.searchParams, discord![1])
        : slackVerdict(contentType, raw);
    const injected = this.#queue.shift();
    const answer = injected ? injectedAnswer(service, injected) : verdict.answer;
    const entry: Received = {
      service,
      path: req.url ?? '/',
      headers: flatHeaders(req),
      body: verdict.body,
      raw,
      status: answer.status,
      problems: verdict.problems,
      at: Date.now(),
    };
    // Recorded before answering: a client that has its answer finds its request in `received`.
    this.received.push(entry);
    this.#events.emit('received', entry);
    const empty = answer.status === 204 || answer.status === 304;
    res.writeHead(answer.status, answer.headers).end(empty ? undefined : answer.payload);
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = new Receiver();
  await receiver.listen();
  return receiver;
}
