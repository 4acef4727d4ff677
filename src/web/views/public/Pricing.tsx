// The landing's pricing (SPEC §1, §9): tiered per server, monthly or yearly, in USD, from the
// server's plan configuration. Choosing a size and period shows what that plan costs.

import { useState } from 'react';
import { formatUsd } from '../../../domain/plans.ts';
import { type PlanDraft, PlanFields, PriceSummary, planOf, usePlans } from './PlanFields.tsx';

export function Pricing() {
  const plans = usePlans();
  const [draft, setDraft] = useState<PlanDraft>({ size: '5', period: 'monthly' });
  const p = plans.data;
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="public-section">
      <h2 id="pricing-title">Pricing</h2>
      {plans.error && <p role="alert">{plans.error.message}</p>}
      {p && (
        <>
          <p>
            Plans are priced by the number of servers: the first {p.tierSize} at {formatUsd(p.monthly[0])} a
            month each, the next {p.tierSize} at {formatUsd(p.monthly[1])}, and any further servers at{' '}
            {formatUsd(p.monthly[2])}. Yearly: {formatUsd(p.yearly[0])}, {formatUsd(p.yearly[1])} and{' '}
            {formatUsd(p.yearly[2])} a server. Plans renew automatically and changes are prorated.
          </p>
          <p>
            Every plan starts with a {p.trialDays} day free trial, and you can ask for a refund within{' '}
            {p.refundDays} days of a payment.
          </p>
          <form className="plan-chooser" aria-label="Price a plan" onSubmit={(e) => e.preventDefault()}>
            <PlanFields value={draft} onChange={setDraft} plans={p} sizeLabel="Servers" />
            <output aria-live="polite">
              <PriceSummary plans={p} plan={planOf(draft)} />
            </output>
          </form>
        </>
      )}
    </section>
  );
}
