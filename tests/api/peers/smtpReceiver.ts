// A test peer playing an SMTP relay, so alert mail is checked as a real server receives it: the
// SMTP dialogue is smtp-server's and the message is read by mailparser (both from the Nodemailer
// project, https://nodemailer.com/extras/smtp-server and https://nodemailer.com/extras/mailparser),
// not by anything we wrote. Plain SMTP on 127.0.0.1: STARTTLS is not offered, authentication is
// optional and, when a client does log in, any credentials are accepted and the user is recorded.

import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { waitForEntry } from './waitFor.ts';

export interface ReceivedMail {
  from: string; // envelope sender (MAIL FROM), '' for a null sender
  to: string[]; // envelope recipients (RCPT TO), Bcc included
  subject: string; // decoded Subject header, '' when absent
  text: string; // the text/plain body, '' when absent
  html: string | null; // the text/html body, null when absent
  headers: Record<string, string>; // lower-case name -> unfolded raw value (repeated headers joined by '\n')
  user: string | null; // who logged in with AUTH, null when the client did not
  raw: string; // the message as received after DATA
  at: number; // Date.now() once parsed
}

export interface SmtpReceiver {
  readonly port: number;
  readonly url: string; // smtp://127.0.0.1:<port>
  readonly mails: ReceivedMail[]; // in arrival order
  /** The first mail, already received or still to come, for which `predicate` is true. Rejects on close(). */
  waitFor(predicate: (m: ReceivedMail) => boolean, what?: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Header lines as sent, so a test sees exactly what a mail client would (List-Unsubscribe etc.). */
function headerMap(lines: ReadonlyArray<{ key: string; line: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, line } of lines) {
    // RFC 5322 §2.2.3: unfolding removes each CRLF that comes before white space.
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n(?=[ \t])/g, '')
      .trim();
    out[key] = key in out ? `${out[key]}\n${value}` : value;
  }
  return out;
}

function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

class Receiver implements SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  #events = new EventEmitter().setMaxListeners(0);
  #port = 0;
  #server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true, // no TLS here, yet a client configured with a password may still log in
    logger: false,
    banner: 'palisade test peer',
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? '' }),
    onData: (stream, session, callback) => {
      this.#receive(stream, session).then(
        () => callback(),
        (e: Error) => callback(e),
      );
    },
  });

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  async listen(): Promise<void> {
    // A client dropping mid-dialogue is its own business, not a reason to crash the test run.
    this.#server.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      this.#server.server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.server.address() as AddressInfo).port;
  }

  waitFor(predicate: (m: ReceivedMail) => boolean, what = 'a matching mail'): Promise<ReceivedMail> {
    return waitForEntry(
      this.#events,
      'mail',
      this.mails,
      predicate,
      `SMTP receiver closed while waiting for ${what}`,
    );
  }

  async close(): Promise<void> {
    this.#events.emit('close');
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const raw = await readAll(stream);
    const parsed = await simpleParser(raw);
    const { mailFrom, rcptTo } = session.envelope;
    const mail: ReceivedMail = {
      from: mailFrom ? mailFrom.address : '',
      to: rcptTo.map((r) => r.address),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: parsed.html || null,
      headers: headerMap(parsed.headerLines),
      user: typeof session.user === 'string' ? session.user : null,
      raw: raw.toString('utf8'),
      at: Date.now(),
    };
    this.mails.push(mail);
    this.#events.emit('mail', mail);
  }
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const receiver = new Receiver();
  await receiver.listen();
  return receiver;
}
