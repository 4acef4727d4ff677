// The form of an email address, by validator's isEmail: the check the browser makes itself before
// a trial is asked for. The server adds the throwaway-domain list and the MX look-up
// (server/billing/email.ts). Apart from billing.ts so the console's first chunk never loads it.

import isEmail from 'validator/lib/isEmail.js';

export function emailFormProblem(email: string): 'empty' | 'format' | null {
  const address = email.trim();
  if (address === '') return 'empty';
  return isEmail(address, { allow_display_name: false, require_tld: true, allow_ip_domain: false })
    ? null
    : 'format';
}
