// A notice as each destination takes it: Discord's Execute Webhook body, a Slack incoming
// webhook's, an email. Everything a notice says may come from a player (a name, a chat line), so
// nothing in it may act as markup there: Discord's markdown is escaped and no mention pings
// (allowed_mentions parses none), Slack gets escaped plain_text blocks and fallback, email is
// plain text. Each text is cut to the service's published limit (docs/alerts.md lists them).

import type { Notice } from '../../domain/alerts.ts';

/** Cuts to at most `max` characters (code points, so a surrogate pair is never split). */
export function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const COLOURS: Record<Notice['kind'], number> = { raised: 0xc0392b, cleared: 0x2e8b57, test: 0x3b6fd4 };
const FOOTER = 'Palisade alert';

/**
 * Discord markdown, mentions (`<@id>`, `@everyone`) and masked links, shown as the characters
 * they are: its markers escaped, a heading's or list's only at the start of a line, where they act.
 */
export function escapeDiscord(text: string): string {
  return text
    .replace(/[\\*_~`|<>[\]()]/g, '\\$&')
    .replace(/^(\s*)([#-])/gm, '$1\\$2')
    .replace(/@/g, '@\u200b');
}

/** Limits of https://discord.com/developers/docs/resources/message#embed-object-embed-limits. */
const DISCORD = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, total: 6000 };

export function discordBody(n: Notice): Record<string, unknown> {
  const title = cut(escapeDiscord(n.title), DISCORD.title);
  // The five texts together stay under the 6,000 an embed may hold: 256 + 2,000 + 10 × (64 + 256) + 14.
  const description = cut(escapeDiscord(n.body), 2000);
  const fields = n.fields.slice(0, 10).map((f) => ({
    name: cut(escapeDiscord(f.name), 64),
    value: cut(escapeDiscord(f.value), 256) || '—',
    inline: true,
  }));
  return {
    username: 'Palisade',
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title,
        ...(description ? { description } : {}),
        color: COLOURS[n.kind],
        fields,
        timestamp: new Date(n.time * 1000).toISOString(),
        footer: { text: FOOTER },
      },
    ],
  };
}

/** Slack's three control characters (https://api.slack.com/reference/surfaces/formatting#escaping). */
export const escapeSlack = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Limits of https://api.slack.com/reference/block-kit/blocks. */
const SLACK = { header: 150, section: 3000, fields: 10, field: 2000, text: 4000 };

export function slackBody(n: Notice): Record<string, unknown> {
  // Slack reads its three control characters in every text, plain ones too: escaped everywhere.
  const plain = (text: string, max: number) => ({
    type: 'plain_text',
    text: cut(escapeSlack(text), max),
    emoji: false,
  });
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: plain(n.title, SLACK.header) }];
  if (n.body) blocks.push({ type: 'section', text: plain(n.body, SLACK.section) });
  if (n.fields.length > 0)
    blocks.push({
      type: 'section',
      fields: n.fields.slice(0, SLACK.fields).map((f) => plain(`${f.name}: ${f.value}`, SLACK.field)),
    });
  blocks.push({
    type: 'context',
    elements: [plain(`${FOOTER} · ${new Date(n.time * 1000).toUTCString()}`, 200)],
  });
  // `text` is what notifications and screen readers show.
  return { text: cut(escapeSlack(n.title), SLACK.text), blocks };
}

export interface Mail {
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** A plain-text mail, with the one-click unsubscribe of RFC 8058 when the recipient can leave. */
export function mailOf(n: Notice, unsubscribeUrl: string | null): Mail {
  const lines = [
    n.body,
    '',
    ...n.fields.map((f) => `${f.name}: ${f.value}`),
    '',
    `${new Date(n.time * 1000).toUTCString()}`,
  ];
  if (unsubscribeUrl)
    lines.push(
      '',
      `You receive this because a Palisade user sends their alerts here. To stop: ${unsubscribeUrl}`,
    );
  return {
    // A header holds no line break: a name with one cannot add headers.
    subject: cut(n.title.replace(/[\r\n]+/g, ' '), 200),
    text: lines.join('\n'),
    headers: unsubscribeUrl
      ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
      : {},
  };
}
