// Two-factor sign-in on the Security page: whether it is on and how many backup codes are left;
// while a setup is under way, the code to scan (and the key to type) and the field for the first
// code and the password, which run account.twoFactor.confirm as the console and palette do.

import { type FormEvent, useEffect, useId, useState } from 'react';
import { type AccountSecurity, hasSecondFactor } from '../../../domain/access.ts';
import { formatTime } from '../../../domain/format.ts';
import { qrImage } from '../../../domain/qrCode.ts';
import { errorText } from '../../api/http.ts';
import { useCommandRuntime } from '../../app/runtime.ts';

function SetupForm({ pending }: { pending: NonNullable<AccountSecurity['pending']> }) {
  const ids = useId();
  const runtime = useCommandRuntime();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void qrImage(pending.uri).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [pending.uri]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const cmd = runtime.registry.get('account.twoFactor.confirm');
    if (!cmd) return;
    try {
      await runtime.run(cmd, { code, password }, 'form');
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <form
      className="group-form security-setup"
      aria-label="Finish turning on two-factor sign-in"
      onSubmit={submit}
      noValidate
    >
      <p>Scan this with your authenticator app, or type the key into it; then type the 6 digits it shows.</p>
      {qr && <img src={qr} width={200} height={200} alt="Code for your authenticator app to scan" />}
      <p>
        Key: <code className="security-key">{pending.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <label htmlFor={`${ids}-code`}>Code from your authenticator app</label>
      <input
        id={`${ids}-code`}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${ids}-error` : undefined}
        onChange={(e) => setCode(e.target.value)}
      />
      <label htmlFor={`${ids}-password`}>Your password, to confirm it is you</label>
      <input
        id={`${ids}-password`}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {error && (
        <p id={`${ids}-error`} role="alert" className="settings-error">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary">
        Turn on
      </button>
    </form>
  );
}

/** The account's passkeys, each with a button that runs account.passkey.remove for it. */
function Passkeys({ passkeys }: { passkeys: AccountSecurity['passkeys'] }) {
  const runtime = useCommandRuntime();
  const remove = (name: string) => {
    const cmd = runtime.registry.get('account.passkey.remove');
    if (cmd) void runtime.run(cmd, { passkey: name }, 'toolbar').catch(() => undefined);
  };
  if (passkeys.length === 0)
    return <p>No passkeys. Add one to sign in with this device’s fingerprint, face or PIN.</p>;
  return (
    <table className="security-passkeys">
      <caption>Passkeys</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Added</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {passkeys.map((k) => (
          <tr key={k.passkeyId}>
            <th scope="row">{k.name}</th>
            <td>{formatTime(k.created)}</td>
            <td>{k.lastUsed ? formatTime(k.lastUsed) : 'Never'}</td>
            <td>
              <button type="button" className="ui-button" onClick={() => remove(k.name)}>
                Remove {k.name}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TwoFactorPanel({ security }: { security: AccountSecurity }) {
  const on = hasSecondFactor(security);
  const ways = [security.totp && 'an authenticator app', security.passkeys.length > 0 && 'a passkey'].filter(
    Boolean,
  );
  const state = on
    ? `On, with ${ways.join(' or ')}. ${security.backupCodesLeft} backup code${security.backupCodesLeft === 1 ? '' : 's'} left.`
    : 'Off: your password alone signs you in.';
  return (
    <section className="security-panel" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor sign-in</h2>
      <p>{state}</p>
      {security.requiredBy.length > 0 && !on && (
        <p role="status" className="security-required">
          {security.requiredBy.map((g) => g.name).join(', ')} require
          {security.requiredBy.length === 1 ? 's' : ''} two-factor sign-in: you can see{' '}
          {security.requiredBy.length === 1 ? 'it' : 'them'} but not act there until you turn it on.
        </p>
      )}
      {security.pending && !security.totp && <SetupForm pending={security.pending} />}
      <Passkeys passkeys={security.passkeys} />
    </section>
  );
}
