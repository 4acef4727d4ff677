// The trial sign-up (SPEC §5, §8 Trial): Contact, Plan Size and Highlights, billing period and the
// refund policy. It runs account.startTrial's requestTrial and goes to the checkout it answers; a
// refusal is shown beside its field, focus goes there, and every field keeps what was typed.

import { type FormEvent, useId, useRef, useState } from 'react';
import { requestTrial } from '../../../../commands/billing.ts';
import { EMAIL_MESSAGES, TRIAL_ERRORS } from '../../../domain/billing.ts';
import { emailFormProblem } from '../../../domain/email.ts';
import { ApiError } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { useAuth } from '../../auth/react.tsx';
import { getPref } from '../../store/prefs.ts';
import { type PlanDraft, PlanFields, PriceSummary, planOf, usePlans } from './PlanFields.tsx';
import { SignInButton } from './SignInButton.tsx';

/** The affiliate who sent this browser (SPEC §2 /a/{affiliateId}), passed on to the checkout. */
const affiliate = () => getPref('affiliateId') || undefined;

type Field = 'email' | 'size' | 'refund' | 'form';
type Errors = Partial<Record<Field, string>>;

/** Which field a server refusal belongs to. */
const FIELD_OF: Partial<Record<string, Field>> = {
  invalidEmail: 'email',
  duplicateSubscription: 'email',
  subscriptionIsGift: 'email',
  emptyCart: 'size',
  cartTooLarge: 'size',
  declinedRefundPolicy: 'refund',
};

export function TrialForm() {
  const { api } = useApp();
  const { state } = useAuth();
  const plans = usePlans();
  const id = useId();
  const signedIn = state.status === 'signedIn';
  const [email, setEmail] = useState(signedIn ? (state.user.email ?? '') : '');
  const [draft, setDraft] = useState<PlanDraft>({ size: '1', period: 'monthly' });
  const [agreed, setAgreed] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  /** Shows the errors and puts focus on the first field that has one. */
  function refuse(next: Errors) {
    setErrors(next);
    const first = (['email', 'size', 'refund', 'form'] as const).find((f) => next[f]);
    const selector = first === 'size' ? 'input[name="planSize"]' : `[data-field="${first}"]`;
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(selector)?.focus());
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const plan = planOf(draft);
    const local: Errors = {};
    const emailProblem = emailFormProblem(email);
    if (emailProblem) local.email = EMAIL_MESSAGES[emailProblem];
    if (!plan) local.size = TRIAL_ERRORS.emptyCart;
    if (!agreed) local.refund = TRIAL_ERRORS.declinedRefundPolicy;
    if (Object.keys(local).length > 0 || !plan) return refuse(local);
    setBusy(true);
    setErrors({});
    try {
      const url = await requestTrial(
        api,
        { email, planSize: plan.size, period: plan.period, acceptRefundPolicy: agreed },
        { consoleOrigin: window.location.origin, affiliateId: affiliate() },
      );
      window.location.assign(url);
    } catch (err) {
      setBusy(false);
      const code = err instanceof ApiError ? err.code : 'generic';
      const message = err instanceof Error ? err.message : TRIAL_ERRORS.generic;
      refuse({ [FIELD_OF[code] ?? 'form']: message });
    }
  }

  const p = plans.data;
  const describe = (f: Field) => (errors[f] ? `${id}-${f}-error` : undefined);
  const errorLine = (f: Field) =>
    errors[f] && (
      <p id={`${id}-${f}-error`} className="public-error" role="alert">
        {errors[f]}
      </p>
    );

  return (
    <section id="trial" aria-labelledby={`${id}-title`} className="public-section">
      <h2 id={`${id}-title`}>Start your free trial</h2>
      {plans.error && <p role="alert">{plans.error.message}</p>}
      {!signedIn && (
        <div className="trial-sign-in">
          <p>
            A trial belongs to your account and its email address: sign in first, then choose the plan here.
          </p>
          <SignInButton label="Sign In to Start" returnTo="/features#trial" />
        </div>
      )}
      {p && signedIn && (
        <form ref={formRef} className="trial-form" onSubmit={submit} noValidate>
          <fieldset>
            <legend>Contact</legend>
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              id={`${id}-email`}
              data-field="email"
              type="email"
              autoComplete="email"
              value={email}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={describe('email')}
              onChange={(e) => setEmail(e.target.value)}
            />
            {errorLine('email')}
            <p className="trial-hint">The email address of the account you are signed in with.</p>
          </fieldset>
          <fieldset>
            <legend>Plan Size and Highlights</legend>
            <PlanFields
              value={draft}
              onChange={setDraft}
              plans={p}
              sizeLabel="Servers"
              sizeError={errors.size}
            />
            <PriceSummary plans={p} plan={planOf(draft)} />
            <ul className="trial-highlights">
              <li>{p.trialDays} days free: nothing is charged today.</li>
              <li>
                Then renews {draft.period === 'monthly' ? 'every month' : 'every year'} until you cancel.
              </li>
              <li>Change the plan at any time; the price is prorated.</li>
              <li>Every feature for every server of the plan.</li>
            </ul>
          </fieldset>
          <label className="trial-refund">
            <input
              type="checkbox"
              data-field="refund"
              checked={agreed}
              aria-invalid={errors.refund ? true : undefined}
              aria-describedby={describe('refund')}
              onChange={(e) => setAgreed(e.target.checked)}
            />{' '}
            I agree to the refund policy: a payment can be refunded within {p.refundDays} days of it, which
            ends the plan.
          </label>
          {errorLine('refund')}
          <div data-field="form" tabIndex={-1}>
            {errorLine('form')}
          </div>
          <button type="submit" className="public-button" disabled={busy}>
            Start Free Trial
          </button>
        </form>
      )}
    </section>
  );
}
