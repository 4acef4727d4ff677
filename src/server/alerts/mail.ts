// Alert mail goes through the relay the operator configures (PALISADE_SMTP_URL, e.g.
// smtp://user:pass@mail.example.com:587), sent with Nodemailer, the maintained SMTP client of
// Node (STARTTLS, AUTH, pooling, and header encoding we would otherwise write). Without a relay
// the install sends no mail and email destinations cannot be made.

import nodemailer from 'nodemailer';
import type { Mail } from './formats.ts';

export interface MailConfig {
  /** smtp:// or smtps:// URL of the relay. */
  url: string;
  /** The From address, e.g. "Palisade <alerts@example.com>". */
  from: string;
}

export interface Mailer {
  /** Sends one mail; resolves with the relay's answer, rejects with its refusal. */
  send(to: string, mail: Mail): Promise<string>;
  close(): void;
}

export function createMailer(config: MailConfig): Mailer {
  const transport = nodemailer.createTransport(config.url);
  return {
    async send(to, mail) {
      const info = await transport.sendMail({
        from: config.from,
        to,
        subject: mail.subject,
        text: mail.text,
        headers: mail.headers,
      });
      return info.response;
    },
    close: () => transport.close(),
  };
}
