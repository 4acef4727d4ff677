// What the pricing section and the trial form share: the plans from the server, the plan-size and
// billing-period fields, and the price computed for them by domain/plans.ts (the figure the
// checkout and the billing portal charge).

import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import {
  BILLING_PERIODS,
  type BillingPeriod,
  formatUsd,
  PERIOD_LABELS,
  type Plan,
  type PlanConfig,
  planPrice,
  priceLines,
} from '../../../domain/plans.ts';
import { useApp } from '../../app/deps.tsx';

export function usePlans() {
  const { api } = useApp();
  return useQuery({ queryKey: ['billingPlans'], queryFn: () => api.billingPlans(), staleTime: 10 * 60_000 });
}

/** The plan as typed: the size stays text so a half-typed or cleared field is kept as it is. */
export interface PlanDraft {
  size: string;
  period: BillingPeriod;
}

/** The plan a draft stands for, or null while its size is not a whole number of servers. */
export function planOf(draft: PlanDraft): Plan | null {
  const size = Number(draft.size);
  return /^\d+$/.test(draft.size.trim()) && size >= 1 ? { size, period: draft.period } : null;
}

interface FieldsProps {
  value: PlanDraft;
  onChange(next: PlanDraft): void;
  plans: PlanConfig;
  sizeLabel: string;
  sizeError?: string | null;
}

export function PlanFields({ value, onChange, plans, sizeLabel, sizeError }: FieldsProps) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-size`}>{sizeLabel}</label>
      <input
        id={`${id}-size`}
        name="planSize"
        type="number"
        inputMode="numeric"
        min={1}
        max={plans.maxServers}
        value={value.size}
        aria-invalid={sizeError ? true : undefined}
        aria-describedby={sizeError ? `${id}-size-error` : undefined}
        onChange={(e) => onChange({ ...value, size: e.target.value })}
      />
      {sizeError && (
        <p id={`${id}-size-error`} className="public-error" role="alert">
          {sizeError}
        </p>
      )}
      <fieldset className="plan-period">
        <legend>Billing period</legend>
        {BILLING_PERIODS.map((p) => (
          <label key={p}>
            <input
              type="radio"
              name={`${id}-period`}
              value={p}
              checked={value.period === p}
              onChange={() => onChange({ ...value, period: p })}
            />{' '}
            {PERIOD_LABELS[p]}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** The computed price of a plan, tier by tier, and its total for the period. */
export function PriceSummary({ plans, plan }: { plans: PlanConfig; plan: Plan | null }) {
  if (!plan) return <p className="plan-price">Enter how many servers, to see the price.</p>;
  if (plan.size > plans.maxServers)
    return <p className="plan-price">Plans go up to {plans.maxServers} servers.</p>;
  const per = plan.period === 'monthly' ? 'month' : 'year';
  return (
    <div className="plan-price" data-testid="plan-price">
      <ul>
        {priceLines(plans, plan.size, plan.period).map((l) => (
          <li key={l.unit}>
            {l.servers} server{l.servers === 1 ? '' : 's'} × {formatUsd(l.unit)} = {formatUsd(l.amount)}
          </li>
        ))}
      </ul>
      <p>
        <strong>
          {formatUsd(planPrice(plans, plan.size, plan.period))} a {per}
        </strong>{' '}
        for {plan.size} server{plan.size === 1 ? '' : 's'}, in US dollars.
      </p>
    </div>
  );
}
