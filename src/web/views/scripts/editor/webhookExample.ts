// The example call of a script webhook: a curl line signed as the API checks it (hex HMAC-SHA256
// of `POST\n<30-second window>\n<trimmed body>` keyed with the webhook's secret), so an admin can
// paste it into a shell and watch the script run.

import type { ScriptArgumentSpec } from '../../../../domain/scripts/content.ts';
import type { ScriptWebhook } from '../../../api/sentinel.ts';

const sampleOf = (a: ScriptArgumentSpec) =>
  a.default !== null && a.default !== ''
    ? a.default
    : a.type === 'Number'
      ? 1
      : a.type === 'Boolean'
        ? true
        : 'text';

/** Single quotes for a POSIX shell: the text as it is, whatever it holds. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function webhookExample(w: ScriptWebhook, name: string, args: readonly ScriptArgumentSpec[]): string {
  const body = JSON.stringify({
    webhook: name,
    parameters: Object.fromEntries(args.map((a) => [a.name, sampleOf(a)])),
  });
  return [
    `SECRET=${shellQuote(w.secret ?? '<the webhook secret>')}`,
    `BODY=${shellQuote(body)}`,
    'SIG=$(printf \'POST\\n%s\\n%s\' "$(( $(date +%s) / 30 ))" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d" " -f1)',
    `curl -X POST -H "Authorization: HmacSHA256 $SIG" -H 'Content-Type: application/json' --data "$BODY" ${shellQuote(w.url)}`,
  ].join('\n');
}
