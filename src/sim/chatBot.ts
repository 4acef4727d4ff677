// The chat community's bot, played for the demo and the tests: it redeems a group's link code for
// its community, posts what the community says into the group, and reads the group's chat to post
// in the community (docs/api.md "Chat community bot").

export interface ChatBotOptions {
  /** The API's origin, e.g. http://127.0.0.1:8080. */
  apiUrl: string;
  token: string;
  guildId: string;
  guildName: string;
  channelId?: string;
  channelName?: string;
}

export interface CommunityLine {
  messageId: string;
  time: number;
  serviceDisplayName: string;
  senderName: string;
  message: string;
}

export class ChatBot {
  /** What the bot has posted in the community, oldest first. */
  readonly posted: CommunityLine[] = [];
  private after = Date.now() / 1000;

  constructor(private readonly opts: ChatBotOptions) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.opts.apiUrl}/v4/chatBot${path}`, {
      method,
      headers: { Authorization: `Bot ${this.opts.token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(parsed?.message ?? `${res.status}`);
    return parsed;
  }

  /** What an admin of the community types: `/link CODE`. */
  redeem(linkCode: string): Promise<{ groupId: string; groupName: string }> {
    const { guildId, guildName, channelId, channelName } = this.opts;
    return this.call('POST', '/links', { linkCode, guildId, guildName, channelId, channelName }) as Promise<{
      groupId: string;
      groupName: string;
    }>;
  }

  /** A member of the community says something; it reaches the group's servers. */
  async say(senderName: string, message: string): Promise<void> {
    await this.call('POST', '/messages', { guildId: this.opts.guildId, senderName, message });
  }

  /** Posts in the community what the group said since the last poll. */
  async poll(): Promise<CommunityLine[]> {
    const q = new URLSearchParams({ guildId: this.opts.guildId, after: String(this.after) });
    const { messages } = (await this.call('GET', `/messages?${q}`)) as { messages: CommunityLine[] };
    if (messages.length) this.after = messages[messages.length - 1].time;
    this.posted.push(...messages);
    return messages;
  }
}
