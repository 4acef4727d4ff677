// "The email must verify as real" (SPEC §5 Trial sign-up): the address's form by validator's
// isEmail (domain/email.ts, shared with the browser), throwaway domains refused by the
// maintained disposable-email-domains list (a domain or any domain above it), and, where the
// server can reach DNS and is told to, a mail exchanger looked up for the domain.

import { resolveMx } from 'node:dns/promises';
import { createRequire } from 'node:module';
import type { EMAIL_MESSAGES } from '../../domain/billing.ts';
import { emailFormProblem } from '../../domain/email.ts';

const require = createRequire(import.meta.url);
const DISPOSABLE = new Set<string>(require('disposable-email-domains') as string[]);
/** Domains whose every subdomain is throwaway too. */
const DISPOSABLE_WILDCARDS = new Set<string>(require('disposable-email-domains/wildcard.json') as string[]);

export function isDisposable(domain: string): boolean {
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join('.');
    if (DISPOSABLE.has(parent) || (i > 0 && DISPOSABLE_WILDCARDS.has(parent))) return true;
  }
  return false;
}

export type EmailProblem = keyof typeof EMAIL_MESSAGES;

/** What is wrong with this address, or null. `mx`: also ask DNS whether its domain takes mail. */
export async function emailProblem(email: string, opts: { mx: boolean }): Promise<EmailProblem | null> {
  const form = emailFormProblem(email);
  if (form) return form;
  const address = email.trim();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (isDisposable(domain)) return 'disposable';
  if (!opts.mx) return null;
  try {
    const records = await resolveMx(domain);
    return records.length > 0 ? null : 'noMail';
  } catch (e) {
    const code = (e as { code?: string }).code;
    // No such domain, or no MX record: it takes no mail. A DNS outage proves nothing either way.
    return code === 'ENOTFOUND' || code === 'ENODATA' ? 'noMail' : null;
  }
}
