-- Reference billing (issue 16): plans with a trial, renewal, prorated changes, refunds and
-- cancellation, as the provider runs them. A subscription may be bought before its account
-- exists: it waits on its customer email and is claimed when that account signs in.

ALTER TABLE subscriptions
  ALTER COLUMN user_id DROP NOT NULL,
  ADD COLUMN customer_email text,
  ADD COLUMN plan_period text CHECK (plan_period IN ('monthly', 'yearly')),
  ADD COLUMN period_start timestamptz,
  ADD COLUMN trial_end timestamptz,
  ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false,
  ADD COLUMN gift boolean NOT NULL DEFAULT false,
  -- What the payment processor calls this subscription (the reference processor: its own id).
  ADD COLUMN processor_ref text;

-- Subscriptions from before billing become yearly plans of their owner, renewing on their date.
UPDATE subscriptions s
   SET customer_email = u.email,
       plan_period = 'yearly',
       period_start = s.expiration - interval '1 year'
  FROM users u
 WHERE u.user_id = s.user_id;

CREATE INDEX subscriptions_unclaimed_idx ON subscriptions (lower(customer_email)) WHERE user_id IS NULL;
CREATE INDEX subscriptions_renewal_idx ON subscriptions (expiration) WHERE plan_period IS NOT NULL AND NOT gift;

CREATE TABLE billing_checkouts (
  checkout_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  plan_size integer NOT NULL CHECK (plan_size > 0),
  plan_period text NOT NULL CHECK (plan_period IN ('monthly', 'yearly')),
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  -- false for an email that already had a plan: its first period is paid at once.
  trial boolean NOT NULL DEFAULT true,
  -- Who sent the buyer (/a/{affiliateId}), for the processor to credit.
  affiliate_id text,
  created timestamptz NOT NULL DEFAULT now(),
  completed timestamptz
);

CREATE TABLE billing_portal_sessions (
  session_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  return_url text NOT NULL,
  created timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invoices (
  invoice_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL REFERENCES subscriptions ON DELETE CASCADE,
  created timestamptz NOT NULL DEFAULT now(),
  description text NOT NULL,
  -- Cents; negative for a credit or a refund.
  amount integer NOT NULL,
  period_start timestamptz,
  period_end timestamptz,
  refunded timestamptz
);
CREATE INDEX invoices_subscription_idx ON invoices (subscription_id, created DESC);

-- Why the game-server link last refused this server (LINK_REFUSALS); null once it connects.
ALTER TABLE services ADD COLUMN link_refusal text;
